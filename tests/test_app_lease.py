"""A turn another server is running, seen from this one: shown running (not interrupted),
with a Stop that reaches the owner through the store; shown interrupted only once its
lease has expired."""

import os
import time

import streamlit as st

from engine.store import ConversationStore
from engine.store.inputs import LOCAL_USER
from tests.apptest_helpers import new_app

RUNNING_ELSEWHERE = "Running in another tab or on another server"


def server_a(lease_s: float = 30.0) -> tuple[ConversationStore, str, str]:
    """Another app server on the same database, in the middle of a run."""
    a = ConversationStore(os.environ["DATABASE_URL"], lease_s=lease_s)
    conv = a.create(LOCAL_USER, "Q3 revenue")
    a.save_turn(LOCAL_USER, conv.id, {"id": "u1", "role": "user", "content": "What was Q3 revenue?"})
    running = {"id": "a1", "role": "assistant", "content": "Thought: checking the sales table\n", "status": "running"}
    a.save_turn(LOCAL_USER, conv.id, running)
    return a, conv.id, "a1"


def open_on_this_server(conversation_id: str):
    st.cache_resource.clear()
    at = new_app()
    at.query_params["c"] = conversation_id
    return at.run()


def captions(at) -> list[str]:
    return [c.value for c in at.caption]


def test_another_servers_live_run_shows_running_and_stops_through_the_store(app_env):
    a, conversation_id, turn_id = server_a()
    at = open_on_this_server(conversation_id)
    assert not at.exception
    assert any(RUNNING_ELSEWHERE in c for c in captions(at))
    assert not any("Interrupted" in c or "Stopped" in c for c in captions(at))
    shown = at.session_state["conversation"].turns[-1]
    assert (shown.status, shown.live) == ("running", True)
    assert a.stop_requested(LOCAL_USER, conversation_id, turn_id) is False
    at.button(key=f"stop-elsewhere-{turn_id}").click().run()
    assert not at.exception
    assert a.stop_requested(LOCAL_USER, conversation_id, turn_id) is True  # A's run reads it at its next poll
    assert any("Stop requested" in c for c in captions(at))
    # A stops its run and saves the turn; this page reads it again and shows it stopped, with its trace
    stopped = {
        "id": turn_id,
        "role": "assistant",
        "content": "Thought: checking the sales table\n",
        "status": "stopped",
    }
    a.save_turn(LOCAL_USER, conversation_id, stopped)
    at.run()
    assert not any(RUNNING_ELSEWHERE in c for c in captions(at))
    assert any(c.startswith(":material/stop_circle: Stopped") for c in captions(at))
    assert at.session_state["conversation"].turns[-1].status == "stopped"
    assert a.get(LOCAL_USER, conversation_id).turns[-1]["status"] == "stopped"  # this page saved nothing over it
    a.close()


def test_another_servers_run_whose_lease_expired_shows_interrupted(app_env, monkeypatch):
    monkeypatch.setenv("TURN_LEASE_S", "0.5")
    a, conversation_id, turn_id = server_a(lease_s=0.5)
    a.close()  # server A is gone: nothing renews the lease
    time.sleep(0.6)
    at = open_on_this_server(conversation_id)
    assert not at.exception
    assert any("Interrupted" in c for c in captions(at))
    assert not any(RUNNING_ELSEWHERE in c for c in captions(at))
    assert not any(b.key == f"stop-elsewhere-{turn_id}" for b in at.button)


def markdown_of_assistant(at) -> str:
    """Every markdown the assistant's turn draws, inside the trace's expanders too."""
    message = [m for m in at.chat_message if m.name == "assistant"][-1]
    return "\n".join(str(m.value) for m in message.markdown)


HOSTILE = 'Thought: found <script>alert("x")</script><img src="https://evil.example/?q=1" onerror="alert(1)">\n'


def test_a_live_run_elsewhere_is_redrawn_from_the_store_as_it_grows_then_shown_finished(app_env):
    a, conversation_id, turn_id = server_a()
    at = open_on_this_server(conversation_id)
    assert "checking the sales table" in markdown_of_assistant(at)
    so_far = "Thought: checking the sales table\nThought: the Q3 row says 1.2 M\n" + HOSTILE
    a.save_turn(
        LOCAL_USER, conversation_id, {"id": turn_id, "role": "assistant", "content": so_far, "status": "running"}
    )
    at.run()  # what the follower's timer does: read the turn again, draw it with the replay tracer
    assert not at.exception
    drawn = markdown_of_assistant(at)
    assert "the Q3 row says 1.2 M" in drawn and any(RUNNING_ELSEWHERE in c for c in captions(at))
    assert "<script" not in drawn and "<img" not in drawn and "<\u200bscript" in drawn  # shown as text, inert
    at.button(key=f"stop-elsewhere-{turn_id}").click().run()  # Stop still goes through the store
    assert a.stop_requested(LOCAL_USER, conversation_id, turn_id) is True
    done = {"id": turn_id, "role": "assistant", "content": so_far + "Answer: 1.2 M EUR.\n", "status": "answered"}
    a.save_turn(LOCAL_USER, conversation_id, done)
    at.run()
    assert not at.exception
    assert not any(RUNNING_ELSEWHERE in c for c in captions(at))
    assert "1.2 M EUR" in markdown_of_assistant(at)
    assert at.session_state["conversation"].turns[-1].status == "answered"
    a.close()


def test_a_follower_reads_the_one_running_turn_under_its_own_user(app_env, monkeypatch):
    a, conversation_id, turn_id = server_a()
    reads = []
    real = ConversationStore.get_turn

    def spy(self, user, conversation, turn):
        reads.append((user, conversation, turn))
        return real(self, user, conversation, turn)

    monkeypatch.setattr(ConversationStore, "get_turn", spy)
    at = open_on_this_server(conversation_id)
    assert not at.exception
    assert reads == [(LOCAL_USER, conversation_id, turn_id)]  # the finished user turn is never read again
    a.close()
