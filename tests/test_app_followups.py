"""The chat box during a run: it stays open, a message sent then is the analyst's
follow-up (shown at once, marked, saved with the turn, read by the run), and any other
click reruns the page, which draws the run again: the run goes on.

A message typed while the script runs reaches Streamlit as a rerun request carrying the
chat box's value. Here the test sends exactly that request to the running script, from
another thread, while the fake model streams slowly."""

from __future__ import annotations

import threading
import time

import pytest
import streamlit as st
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.testing.v1 import local_script_runner

from components.followup_view import NEXT_QUESTION
from components.run_task import run_registry
from tests.apptest_helpers import new_app

QUESTION = "What is the total travel budget?"
# about 5 s of streaming: room for the message to arrive mid-answer on a loaded machine
SLOW_ANSWER = {
    "text": "Answer: The total is 100 dollars for the whole trip, flights, hotels and meals included.",
    "delay_s": 0.3,
}


@pytest.fixture
def runners(monkeypatch):
    """Every script runner AppTest starts, so that a test can send the running one a request."""
    started: list = []
    original = local_script_runner.LocalScriptRunner.__init__

    def record(self, *args, **kwargs):
        original(self, *args, **kwargs)
        started.append(self)

    monkeypatch.setattr(local_script_runner.LocalScriptRunner, "__init__", record)
    return started


def chat_state(widget_id: str, text: str, *, extra_trigger: str | None = None) -> WidgetStates:
    states = WidgetStates()
    state = states.widgets.add()
    state.id = widget_id
    state.chat_input_value.data = text
    if extra_trigger is not None:
        other = states.widgets.add()
        other.id = extra_trigger
        other.trigger_value = True
    return states


def send_during_run(server, runners, states: WidgetStates | None, asked: str = QUESTION) -> threading.Thread:
    """Once the model is writing its reply to ``asked``, send the running script ``states``."""

    def later():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if any(asked in str(r.get("messages", [])[-1:]) for r in list(server.requests)):
                time.sleep(0.3)  # a few chunks into the slow reply
                runners[-1].request_rerun(RerunData(widget_states=states))
                return
            time.sleep(0.02)

    thread = threading.Thread(target=later, daemon=True)
    thread.start()
    return thread


def test_the_chat_box_is_open_during_a_run(app_env):
    app_env.script.append({"text": "Answer: fine."})
    at = new_app()
    box = at.chat_input[0]
    assert not box.proto.disabled
    assert (
        box.proto.submit_mode == type(box.proto).SubmitMode.SUBMIT_MODE_SUBMIT
    )  # typing stays possible while a run goes


def test_a_follow_up_sent_during_the_run_changes_the_answer_and_both_messages_are_saved(app_env, runners):
    app_env.script.extend([SLOW_ANSWER, {"text": "Answer: The total is 92 euros for the whole trip."}])
    at = new_app()
    chat_id = at.chat_input[0].id
    thread = send_during_run(app_env, runners, chat_state(chat_id, "In euros, please <b>now</b>."))
    at.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    assert not at.exception
    conversation = at.session_state["conversation"]
    turn = conversation.turns[-1]
    assert turn.answer == "The total is 92 euros for the whole trip."  # the held answer gave way
    assert [(f.text, f.status) for f in turn.followups] == [("In euros, please <b>now</b>.", "taken")]
    second = app_env.requests[-1]["messages"]
    assert second[-1]["role"] == "user" and "In euros, please <b>now</b>." in second[-1]["content"]
    assert "100 dollars" in second[-2]["content"] and second[-2]["role"] == "assistant"
    # shown as the analyst's message, marked, and drawn inert
    assert any("sent during the run" in c.value for c in at.caption)
    assert any("In euros, please <\u200bb>now<\u200b/b>." in m.value for m in at.markdown)
    # saved with the turn: a new session reads both messages from the store
    st.cache_resource.clear()
    again = new_app()
    again.query_params["c"] = conversation.id
    again.run()
    reopened = again.session_state["conversation"]
    assert reopened.turns[0].content == QUESTION
    assert [f.text for f in reopened.turns[-1].followups] == ["In euros, please <b>now</b>."]
    assert any("sent during the run" in c.value for c in again.caption)
    # and the next turn's history has it, pinned
    assert {"role": "user", "content": "In euros, please <b>now</b>.", "pinned": True} in reopened.history()


def test_any_other_click_during_a_run_reruns_the_page_and_the_run_goes_on(app_env, runners):
    app_env.script.extend([SLOW_ANSWER, {"text": "Answer: (not reached)"}])
    at = new_app()
    thread = send_during_run(app_env, runners, WidgetStates())  # a click elsewhere: a rerun with no message
    at.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    assert not at.exception
    turn = at.session_state["conversation"].turns[-1]
    assert turn.status == "answered" and turn.followups == []  # the new script run drew the run to its end
    assert turn.answer == SLOW_ANSWER["text"].removeprefix("Answer: ")
    assert len(app_env.requests) == 1


def test_a_follow_up_sent_as_stop_is_clicked_stops_the_run_and_is_the_next_question(app_env, runners):
    app_env.script.extend([SLOW_ANSWER, {"text": "Answer: Next question answered."}])
    at = new_app()
    states = chat_state(at.chat_input[0].id, "And per day?", extra_trigger="$$ID-0123-run_stop")
    thread = send_during_run(app_env, runners, states)
    at.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    assert not at.exception
    turns = at.session_state["conversation"].turns
    assert [(t.role, t.status) for t in turns[:2]] == [("user", "answered"), ("assistant", "stopped")]
    assert turns[2].content == "And per day?" and turns[3].answer == "Next question answered."
    assert NEXT_QUESTION not in at.session_state


def test_a_huge_follow_up_is_kept_whole_and_the_run_reads_its_beginning(app_env, runners):
    app_env.script.extend([SLOW_ANSWER, {"text": "Answer: Read it."}])
    at = new_app()
    huge = "budget " * 40_000
    thread = send_during_run(app_env, runners, chat_state(at.chat_input[0].id, huge))
    at.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    assert not at.exception
    turn = at.session_state["conversation"].turns[-1]
    assert turn.followups[0].text == huge and turn.answer == "Read it."
    sent = app_env.requests[-1]["messages"][-1]["content"]
    assert len(sent) < len(huge) // 4 and sent.rstrip().endswith("[…]")
    assert "was too long and only its first" in turn.content  # the run says it read the beginning


def waiting_followup(runners, deadline_s: float = 20) -> str:
    """The id of the running turn's follow-up, once its run's task has it (waiting)."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        followups = [f for task in run_registry().running() for f in task.followups()[0]]
        if followups:
            time.sleep(0.1)  # the page draws it at its next look at the task
            return followups[0].id
        time.sleep(0.02)
    raise AssertionError("the follow-up was never shown")


def trigger(key: str, *, text_key: str | None = None, text: str = "") -> WidgetStates:
    states = WidgetStates()
    state = states.widgets.add()
    state.id, state.trigger_value = f"$$ID-0123-{key}", True
    if text_key is not None:
        typed = states.widgets.add()
        typed.id, typed.string_value = f"$$ID-4567-{text_key}", text
    return states


VERY_SLOW_ANSWER = {
    "text": "Answer: The total is 100 dollars for the whole trip, all included, flights and hotels too.",
    "delay_s": 0.35,
}


def test_a_waiting_follow_up_can_be_recalled_from_the_page(app_env, runners):
    app_env.script.extend([VERY_SLOW_ANSWER, {"text": "Answer: (not asked)"}])
    at = new_app()
    chat_id = at.chat_input[0].id

    def recall_it():
        followup_id = waiting_followup(runners)
        runners[-1].request_rerun(RerunData(widget_states=trigger(f"fu_recall_{followup_id}_1")))

    thread = send_during_run(app_env, runners, chat_state(chat_id, "Forget it."))
    recaller = threading.Thread(target=recall_it, daemon=True)
    recaller.start()
    at.chat_input[0].set_value(QUESTION).run()
    thread.join(5), recaller.join(5)
    assert not at.exception
    turn = at.session_state["conversation"].turns[-1]
    assert turn.status == "answered" and turn.followups == []
    assert turn.answer == VERY_SLOW_ANSWER["text"].removeprefix("Answer: ")  # nothing held it back
    assert not any("Forget it." in str(r["messages"]) for r in app_env.requests)


def test_a_waiting_follow_up_can_be_edited_from_the_page(app_env, runners):
    app_env.script.extend([VERY_SLOW_ANSWER, {"text": "Answer: 92 euros."}])
    at = new_app()
    chat_id = at.chat_input[0].id

    def edit_it():
        fid = waiting_followup(runners)
        states = trigger(f"fu_save_{fid}_1", text_key=f"fu_text_{fid}_1", text="In euros, rounded.")
        runners[-1].request_rerun(RerunData(widget_states=states))

    thread = send_during_run(app_env, runners, chat_state(chat_id, "In euros."))
    editor = threading.Thread(target=edit_it, daemon=True)
    editor.start()
    at.chat_input[0].set_value(QUESTION).run()
    thread.join(5), editor.join(5)
    assert not at.exception
    turn = at.session_state["conversation"].turns[-1]
    assert [(f.text, f.status) for f in turn.followups] == [("In euros, rounded.", "taken")]
    last = app_env.requests[-1]["messages"][-1]["content"]
    assert "In euros, rounded." in last and "In euros.\n" not in last and turn.answer == "92 euros."


def test_stop_while_a_follow_up_waits_keeps_it_in_the_turn_unread(app_env, runners):
    app_env.script.extend([VERY_SLOW_ANSWER, {"text": "Answer: (not reached)"}])
    at = new_app()
    chat_id = at.chat_input[0].id

    def stop_it():
        waiting_followup(runners)
        runners[-1].request_rerun(RerunData(widget_states=trigger("run_stop")))

    thread = send_during_run(app_env, runners, chat_state(chat_id, "Also per day."))
    stopper = threading.Thread(target=stop_it, daemon=True)
    stopper.start()
    at.chat_input[0].set_value(QUESTION).run()
    thread.join(5), stopper.join(5)
    assert not at.exception
    turns = at.session_state["conversation"].turns
    assert len(turns) == 2 and turns[-1].status == "stopped"
    assert [(f.text, f.status) for f in turns[-1].followups] == [("Also per day.", "unread")]
    assert len(app_env.requests) == 1  # never sent, and no new question started
    assert any("the run stopped before reading it" in c.value for c in at.caption)
