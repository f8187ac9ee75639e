"""A run is a task of the app server, not a script run: the tab that asked can go away
(its script run stopped, as when the tab is closed or reloaded) and the run goes on; a
new session opening the conversation draws it from the task, live, to its end; the
answer is saved once."""

from __future__ import annotations

import os
import threading
import time

import streamlit as st
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

from components.run_task import run_registry
from engine.store import ConversationStore
from engine.store.inputs import LOCAL_USER
from tests.apptest_helpers import new_app
from tests.test_app_followups import QUESTION, SLOW_ANSWER, runners  # noqa: F401 - the fixture

ANSWER = SLOW_ANSWER["text"].removeprefix("Answer: ")


def when_streaming(server, then) -> threading.Thread:
    """Once the model is writing its reply (a few chunks in), call ``then`` from another thread."""

    def later():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if any(QUESTION in str(r.get("messages", [])[-1:]) for r in list(server.requests)):
                time.sleep(0.6)
                then()
                return
            time.sleep(0.02)

    thread = threading.Thread(target=later, daemon=True)
    thread.start()
    return thread


def stored_turns(conversation_id: str) -> list[dict]:
    store = ConversationStore(os.environ["DATABASE_URL"])
    try:
        return store.get(LOCAL_USER, conversation_id).turns
    finally:
        store.close()


def test_a_new_session_mid_run_re_attaches_and_the_run_finishes_saved_once(app_env, runners):  # noqa: F811
    app_env.script.extend([SLOW_ANSWER, {"text": "Answer: (not asked)"}])
    first = new_app()
    thread = when_streaming(app_env, lambda: runners[-1].request_stop())  # the tab goes away mid-run
    first.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    assert not first.exception
    conversation_id = first.session_state["conversation"].id
    running = [task for task in run_registry().running() if task.key[1] == conversation_id]
    assert len(running) == 1  # the run outlived the script run that started it
    assert stored_turns(conversation_id)[-1]["status"] == "running"

    second = new_app()  # a reload: a new session, the conversation named in the URL
    second.query_params["c"] = conversation_id
    second.run()
    assert not second.exception
    turn = second.session_state["conversation"].turns[-1]
    assert (turn.status, turn.answer) == ("answered", ANSWER)
    assert not any("Running in another tab" in c.value for c in second.caption)  # drawn from the task itself
    assert any("for the whole trip, flights, hotels and meals included." in m.value for m in second.markdown)
    stored = stored_turns(conversation_id)
    assert [(t["role"], t["status"]) for t in stored] == [("user", "answered"), ("assistant", "answered")]
    assert stored[-1]["content"].count(ANSWER) == 1 and stored[-1]["answer"] == ANSWER
    assert len(app_env.requests) == 1  # one run, never started again
    assert running[0].done.is_set()


def test_a_rerun_mid_run_draws_the_run_again_to_its_end(app_env, runners):  # noqa: F811
    app_env.script.append(SLOW_ANSWER)
    at = new_app()
    reruns = []

    def click_elsewhere():
        reruns.append(1)
        runners[-1].request_rerun(RerunData(widget_states=WidgetStates()))

    thread = when_streaming(app_env, click_elsewhere)
    at.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    assert not at.exception and reruns == [1]
    turn = at.session_state["conversation"].turns[-1]
    assert (turn.status, turn.answer) == ("answered", ANSWER)
    assert len([m for m in at.chat_message if m.name == "assistant"]) == 1  # drawn once, not twice
    stored = stored_turns(at.session_state["conversation"].id)
    assert [t["role"] for t in stored] == ["user", "assistant"] and stored[-1]["answer"] == ANSWER


def test_stop_from_the_tab_drawing_a_re_attached_run_stops_it(app_env, runners):  # noqa: F811
    very_slow = {"text": SLOW_ANSWER["text"] + " And more words to come, slowly, for a while.", "delay_s": 0.3}
    app_env.script.append(very_slow)
    first = new_app()
    thread = when_streaming(app_env, lambda: runners[-1].request_stop())
    first.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    conversation_id = first.session_state["conversation"].id
    second = new_app()
    second.query_params["c"] = conversation_id
    stop = threading.Thread(
        target=lambda: (time.sleep(1.0), runners[-1].request_rerun(RerunData(widget_states=click("run_stop")))),
        daemon=True,
    )
    stop.start()
    second.run()
    stop.join(5)
    assert not second.exception
    turn = second.session_state["conversation"].turns[-1]
    assert turn.status == "stopped" and turn.content and ANSWER not in turn.answer
    assert any("Stopped" in c.value for c in second.caption)
    assert stored_turns(conversation_id)[-1]["status"] == "stopped"


def click(key: str) -> WidgetStates:
    states = WidgetStates()
    state = states.widgets.add()
    state.id, state.trigger_value = f"$$ID-0123-{key}", True
    return states


def test_a_follow_up_sent_in_the_owner_tab_shows_in_a_tab_of_another_server_while_the_run_goes(
    app_env,
    runners,  # noqa: F811
):
    slower = {"text": SLOW_ANSWER["text"] + " Then more words, slowly, one by one, for a while.", "delay_s": 0.3}
    app_env.script.extend([slower, {"text": "Answer: 92 euros in all."}])
    first = new_app()
    thread = when_streaming(app_env, lambda: runners[-1].request_stop())
    first.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    conversation_id = first.session_state["conversation"].id
    (task,) = [task for task in run_registry().running() if task.key[1] == conversation_id]

    st.cache_resource.clear()  # from here on, this process is another server: its own store, no task
    other = new_app()
    other.query_params["c"] = conversation_id
    other.run()
    assert any("Running in another tab" in c.value for c in other.caption)
    assert not any("sent during the run" in c.value for c in other.caption)

    assert task.send("In euros, <b>please</b>.")  # what the owner tab does with a message typed during the run
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any("sent during the run" in c.value for c in other.caption):
        time.sleep(0.3)
        other.run()  # what the follower's timer does
    assert not task.done.is_set()  # still running
    assert any("sent during the run" in c.value for c in other.caption)
    assert any("Running in another tab" in c.value for c in other.caption)
    users = [m for m in other.chat_message if m.name == "user"]
    assert any("In euros, <\u200bb>please<\u200b/b>." in m.value for u in users for m in u.markdown)  # inert
    assert task.done.wait(30)
    other.run()
    turn = other.session_state["conversation"].turns[-1]
    assert (turn.status, turn.answer) == ("answered", "92 euros in all.")
    assert [(f.text, f.status) for f in turn.followups] == [("In euros, <b>please</b>.", "taken")]


def test_stop_from_a_tab_of_another_server_reaches_the_task_through_the_store(app_env, runners):  # noqa: F811
    # streams for about 20 s, so the run still goes when a loaded machine's second app has drawn
    slower = {"text": SLOW_ANSWER["text"] + " Then more words, slowly, one by one." * 6, "delay_s": 0.3}
    app_env.script.append(slower)
    first = new_app()
    thread = when_streaming(app_env, lambda: runners[-1].request_stop())
    first.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    conversation_id = first.session_state["conversation"].id
    (task,) = [task for task in run_registry().running() if task.key[1] == conversation_id]

    st.cache_resource.clear()  # another server: its own store, no task
    other = new_app()
    other.query_params["c"] = conversation_id
    other.run()
    asked = time.monotonic()
    other.button(key=f"stop-elsewhere-{task.turn.id}").click().run()
    assert any("Stop requested" in c.value for c in other.caption)
    assert task.done.wait(5) and time.monotonic() - asked < 3  # the task polls the store once a second
    final = task.final_turn()
    # what the run had streamed is kept; how far it got depends on the machine's load ("The tot…" once)
    assert final.status == "stopped" and final.content.startswith("Answer: The")
    other.run()
    assert other.session_state["conversation"].turns[-1].status == "stopped"
    assert stored_turns(conversation_id)[-1]["status"] == "stopped"


def test_another_user_naming_the_conversation_in_the_url_neither_sees_nor_reaches_the_run(
    app_env,
    runners,  # noqa: F811
    monkeypatch,
):
    slower = {"text": SLOW_ANSWER["text"] + " Then more words, slowly, one by one, for a while.", "delay_s": 0.3}
    app_env.script.append(slower)
    first = new_app()
    thread = when_streaming(app_env, lambda: runners[-1].request_stop())
    first.chat_input[0].set_value(QUESTION).run()
    thread.join(5)
    conversation_id = first.session_state["conversation"].id
    (task,) = [task for task in run_registry().running() if task.key[1] == conversation_id]

    import components.users

    monkeypatch.setattr(components.users, "current_user", lambda lang="en": "mallory@example.org")
    other = new_app()
    other.query_params["c"] = conversation_id
    other.run()
    assert not other.exception
    assert any("does not exist or is not yours" in w.value for w in other.warning)
    assert other.session_state["conversation"].turns == []
    assert not any("The total" in m.value for m in other.markdown)  # nothing of the run is drawn
    other.chat_input[0].set_value("<b>stop that</b>").run()  # a message here is mallory's own question
    assert task.followups()[0] == []  # never handed to alice's run
    assert task.done.wait(30) and task.final_turn().status == "answered"
