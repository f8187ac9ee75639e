"""A year answering "when …?" is supported only by the sentences most about the question."""

import pytest

from engine.grounding import Evidence, check_answer

IMFT = (
    "IMFT manufactures semiconductor products exclusively for its members. In 2018, IMFT discontinued production "
    "of NAND and subsequent to that time manufactured 3D XPoint memory. IMFT sales to Intel were $731 million, "
    "$507 million, and $493 million for 2019, 2018, and 2017, respectively."
)
QUESTION = "When has IMFT discontinued the production of NAND?"


def check(answer: str, question: str = QUESTION):
    return check_answer(answer, question, [Evidence(n=1, tool="search_docs", text=IMFT, source="report.md")])


def test_the_year_of_the_sentence_about_the_question_is_supported():
    assert check("2018").grounding == "verified"


@pytest.mark.parametrize("answer", ["2017", "In 2019."])
def test_a_year_found_only_in_another_sentence_is_not(answer):
    assert check(answer).unsupported == [answer.removeprefix("In ").rstrip(".")]


def test_a_question_no_sentence_is_about_is_judged_as_before():
    assert check("2017", "When was the first quarter?").unsupported == []
