"""Conversations last: a new session (a reload, a bookmark, another server) reopens the
conversation the URL names, and a question waiting for the analyst can be answered
after a restart, resuming the same run."""

import streamlit as st

from tests.apptest_helpers import new_app

ASK = {
    "text": "Thought: I need the quarter.",
    "tool_calls": [
        {"id": "ask000009", "name": "ask_user", "arguments": '{"question": "Which quarter?", "choices": ["Q1", "Q3"]}'}
    ],
}


def reopen(conversation_id: str):
    st.cache_resource.clear()  # a restarted server: no cached store, context or models
    at = new_app()
    at.query_params["c"] = conversation_id
    return at.run()


def test_a_conversation_reopens_from_its_url_in_a_new_session(app_env):
    app_env.script.extend([{"text": "Answer: Revenue was 11.6 M€ in Q3."}])
    at = new_app()
    at.chat_input[0].set_value("What was Q3 revenue?").run()
    conversation = at.session_state["conversation"]
    assert conversation.id and conversation.id in str(at.query_params["c"])
    again = reopen(conversation.id)
    assert not again.exception
    reopened = again.session_state["conversation"]
    assert [t.role for t in reopened.turns] == ["user", "assistant"]
    assert reopened.turns[1].answer == "Revenue was 11.6 M€ in Q3." and reopened.title.startswith("What was Q3 revenue")
    assert any("Revenue was" in m.value and "in Q3" in m.value for m in again.markdown)


def test_a_pending_question_is_answered_after_a_restart_and_the_same_run_resumes(app_env):
    app_env.script.extend([ASK, {"text": "Answer: Q3 revenue was 11.6 M€."}])
    at = new_app()
    at.chat_input[0].set_value("What was revenue?").run()
    conversation_id = at.session_state["conversation"].id
    again = reopen(conversation_id)
    assert any("Which quarter?" in i.value for i in again.info)
    again.button(key=[b.key for b in again.button if b.label == "Q3"][0]).click().run()
    assert not again.exception
    last = app_env.requests[-1]["messages"]
    assert (last[-1]["role"], last[-1]["content"], last[-1]["tool_call_id"]) == ("tool", "Q3", "ask000009")
    assert again.session_state["conversation"].turns[-1].answer == "Q3 revenue was 11.6 M€."


def test_an_unknown_or_foreign_conversation_id_opens_nothing(app_env):
    at = reopen("0123456789abcdef0123456789abcdef")
    assert not at.exception
    assert at.session_state["conversation"].turns == []
    assert any("not" in w.value.lower() for w in at.warning)
