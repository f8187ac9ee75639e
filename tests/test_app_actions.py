"""The actions around a turn: sample questions on an empty conversation, regenerate the
last answer, edit and resend the last question."""

import time

from tests.apptest_helpers import new_app


def answers(at):
    return [t.answer for t in at.session_state["conversation"].turns if t.role == "assistant"]


def test_an_empty_conversation_offers_sample_questions_from_the_theme(app_env):
    app_env.script.append({"text": "Answer: here is what the handbook says."})
    at = new_app()
    deadline = time.monotonic() + 90
    while not at.button_group and time.monotonic() < deadline:  # they appear once warm-up has loaded the theme
        time.sleep(0.5)
        at.run()
    samples = at.button_group[0]
    options = [str(o) for o in samples.options]
    assert 1 <= len(options) <= 4
    assert any("revenue (EUR)" in o for o in options)  # one from the sales table (this test's index root is empty)
    samples.set_value(options[0]).run()
    turns = at.session_state["conversation"].turns
    assert turns[0].content == options[0] and answers(at) == ["here is what the handbook says."]


def test_regenerate_shows_a_new_answer_in_place_of_the_last(app_env):
    app_env.script.extend([{"text": "Answer: first try."}, {"text": "Answer: second try."}])
    at = new_app()
    at.chat_input[0].set_value("Summarise the travel policy").run()
    assert answers(at) == ["first try."]
    at.button(key=[b.key for b in at.button if b.key and b.key.startswith("regen-")][0]).click().run()
    assert not at.exception
    assert answers(at) == ["second try."]
    assert [t.content for t in at.session_state["conversation"].turns if t.role == "user"] == [
        "Summarise the travel policy"
    ]
    assert app_env.requests[-1]["messages"][-1]["content"] == "Summarise the travel policy"


def test_edit_and_resend_the_last_question(app_env):
    app_env.script.extend([{"text": "Answer: Paris."}, {"text": "Answer: Lyon."}])
    at = new_app()
    at.chat_input[0].set_value("Hotel cap in Paris?").run()
    edit = [a for a in at.text_area if a.key and a.key.startswith("edit-")][0]
    edit.set_value("Hotel cap in Lyon?")
    at.button(key=[b.key for b in at.button if b.key and b.key.startswith("resend-")][0]).click().run()
    assert not at.exception
    turns = at.session_state["conversation"].turns
    assert [t.content for t in turns if t.role == "user"] == ["Hotel cap in Lyon?"]
    assert answers(at) == ["Lyon."]
