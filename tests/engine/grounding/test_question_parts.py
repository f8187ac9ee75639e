"""A question asking several things is answered part by part; a gloss in brackets is no part."""

from engine.grounding.question_parts import question_parts


def test_two_questions_are_two_parts_each_with_the_names_the_question_gives():
    parts = question_parts("How many nights can I stay in Lyon, and what is the cap per night?")
    assert [p.text for p in parts] == ["How many nights can I stay in Lyon?", "What is the cap per night?"]
    assert parts[1].asked == "what is the cap per night (Lyon)?"


def test_one_question_is_one_part():
    assert len(question_parts("What was the revenue of the Software segment in 2019?")) == 1


def test_a_gloss_in_brackets_after_the_question_mark_belongs_to_the_question():
    question = "what is the company's net earnings as a percent of net sales in 2015 ? ( net profit margin )"
    assert [p.text for p in question_parts(question)] == [question]
