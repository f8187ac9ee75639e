"""Leases of running turns, with two stores on one database standing for two app servers.

Server B shows server A's running turn as running while A keeps saving it, and as
interrupted (with what A saved last) once A stops and the lease expires. A Stop asked
by B is what A reads at its next poll, and only for the asking user's running turn."""

import time

import pytest

from engine.store import ConversationStore
from engine.store.lease import LeaseView, owner_id, renew_every

LEASE = 0.6  # short, so that expiry costs the tests well under a second


def running(turn_id: str, content: str) -> dict:
    return {"id": turn_id, "role": "assistant", "content": content, "status": "running"}


@pytest.fixture
def servers(db_url):
    a, b = ConversationStore(db_url, lease_s=LEASE), ConversationStore(db_url, lease_s=LEASE)
    yield a, b
    a.close()
    b.close()


def statuses(store: ConversationStore, conversation_id: str) -> list[tuple[str, str, bool]]:
    return [(t["id"], t["status"], t.get("live", False)) for t in store.get("alice", conversation_id).turns]


def test_b_sees_a_heartbeating_run_as_running_then_interrupted_once_the_lease_expires(servers, db_url):
    a, b = servers
    assert a.owner != b.owner
    conv = a.create("alice", "lease")
    a.save_turn("alice", conv.id, {"id": "u1", "role": "user", "content": "q"})
    content = "Thought: step 0\n"
    a.save_turn("alice", conv.id, running("a1", content))
    deadline = time.monotonic() + 2.5 * LEASE  # well past one lease: only the heartbeats keep it running
    while time.monotonic() < deadline:
        assert statuses(b, conv.id) == [("u1", "answered", False), ("a1", "running", True)]
        assert b.mark_interrupted("alice", conv.id) == []
        time.sleep(LEASE / 4)
        content += "Thought: more\n"
        a.save_turn("alice", conv.id, running("a1", content))  # the heartbeat: A saves the turn as it goes
    assert statuses(a, conv.id)[-1] == ("a1", "running", True)  # A runs it: running for A too
    time.sleep(LEASE + 0.1)  # A stops heartbeating (it died, or lost the database)
    shown = b.get("alice", conv.id).turns[-1]
    assert (shown["status"], shown["content"], "live" in shown) == ("interrupted", content, False)
    assert b.mark_interrupted("alice", conv.id) == ["a1"]
    assert b.mark_interrupted("alice", conv.id) == []
    fresh = ConversationStore(db_url, lease_s=60)
    assert fresh.get("alice", conv.id).turns[-1]["status"] == "interrupted"  # recorded, whatever the lease
    fresh.close()


def test_a_finished_turn_is_never_live_and_a_heartbeat_brings_an_expired_one_back(servers):
    a, b = servers
    conv = a.create("alice")
    a.save_turn("alice", conv.id, running("a1", "Thought: x\n"))
    time.sleep(LEASE + 0.1)
    assert statuses(b, conv.id) == [("a1", "interrupted", False)]
    a.save_turn("alice", conv.id, running("a1", "Thought: x\nThought: back\n"))  # A was only slow
    assert statuses(b, conv.id) == [("a1", "running", True)]
    a.save_turn("alice", conv.id, {"id": "a1", "role": "assistant", "content": "Answer: 4", "status": "answered"})
    assert statuses(b, conv.id) == [("a1", "answered", False)]


def test_a_stop_asked_by_b_is_read_by_a_at_its_next_poll(servers):
    a, b = servers
    conv = a.create("alice")
    a.save_turn("alice", conv.id, running("a1", "Thought: working\n"))
    assert a.stop_requested("alice", conv.id, "a1") is False
    assert b.request_stop("alice", conv.id, "a1") is True
    assert a.stop_requested("alice", conv.id, "a1") is True
    a.save_turn("alice", conv.id, running("a1", "Thought: working\nThought: more\n"))  # a heartbeat keeps it asked
    assert a.stop_requested("alice", conv.id, "a1") is True
    a.save_turn("alice", conv.id, {"id": "a1", "role": "assistant", "content": "…", "status": "stopped"})
    assert b.request_stop("alice", conv.id, "a1") is False  # no longer running: nothing to stop


@pytest.mark.parametrize(
    ("user", "conversation", "turn"),
    [
        ("bob", None, "a1"),
        ("alice", None, "u1"),
        ("alice", "0" * 32, "a1"),
        ("alice", "../x", "a1"),
        ("alice", None, "x" * 10_000),
    ],
)
def test_a_stop_reaches_only_a_running_turn_of_the_users_own_conversation(servers, user, conversation, turn):
    a, b = servers
    conv = a.create("alice")
    a.save_turn("alice", conv.id, {"id": "u1", "role": "user", "content": "q"})
    a.save_turn("alice", conv.id, running("a1", "Thought: working\n"))
    assert b.request_stop(user, conversation or conv.id, turn) is False
    assert b.stop_requested(user, conversation or conv.id, turn) is False
    assert a.stop_requested("alice", conv.id, "a1") is False


def test_b_follows_a_s_stream_one_turn_at_a_time_as_a_writes_it(servers):
    a, b = servers
    conv = a.create("alice")
    a.save_turn("alice", conv.id, {"id": "u1", "role": "user", "content": "q"})
    a.save_turn("alice", conv.id, running("a1", "Thought: step 0\n"))
    followed = b.get_turn("alice", conv.id, "a1")
    assert (followed["content"], followed["status"], followed["live"]) == ("Thought: step 0\n", "running", True)
    a.save_turn("alice", conv.id, running("a1", "Thought: step 0\nThought: step 1\n"))
    assert b.get_turn("alice", conv.id, "a1")["content"].endswith("step 1\n")
    a.save_turn("alice", conv.id, {"id": "a1", "role": "assistant", "content": "Answer: 4", "status": "answered"})
    done = b.get_turn("alice", conv.id, "a1")
    assert (done["status"], "live" in done, done["parent_id"]) == ("answered", False, "u1")
    assert b.get_turn("alice", conv.id, "a1") == next(t for t in b.get("alice", conv.id).turns if t["id"] == "a1")
    time.sleep(LEASE + 0.1)
    a.save_turn("alice", conv.id, running("a2", "Thought: x\n"))
    a.close()
    time.sleep(LEASE + 0.1)
    assert b.get_turn("alice", conv.id, "a2")["status"] == "interrupted"  # the lease, as on opening


@pytest.mark.parametrize(
    ("user", "conversation", "turn"),
    [("bob", None, "a1"), ("alice", "0" * 32, "a1"), ("alice", "../x", "a1"), ("alice", None, "x" * 10_000)],
)
def test_a_follower_reads_only_a_turn_of_the_users_own_conversation(servers, user, conversation, turn):
    a, b = servers
    conv = a.create("alice")
    a.save_turn("alice", conv.id, running("a1", "Thought: secret figures\n"))
    assert b.get_turn(user, conversation or conv.id, turn) is None


def test_a_store_shows_a_turn_it_owns_but_no_longer_runs_as_interrupted_at_once():
    view = LeaseView(owner="h:1:aa", running_here=frozenset({"t1"}), lease_s=30, now=_now())
    assert view.shown("t1", "running", "h:1:aa", _now()) == ("running", True)
    assert view.shown("t2", "running", "h:1:aa", _now()) == ("interrupted", False)  # its run ended unsaved
    assert view.shown("t3", "running", "h:2:bb", _now()) == ("running", True)
    assert view.shown("t4", "running", None, None) == ("interrupted", False)  # saved before leases existed
    assert view.shown("t5", "answered", "h:2:bb", _now()) == ("answered", False)


def test_owner_ids_differ_per_store_and_renewals_fit_in_a_lease():
    assert owner_id() != owner_id()
    assert renew_every(30) == 5.0 and renew_every(0.6) == pytest.approx(0.2)


def _now():
    from datetime import UTC, datetime

    return datetime.now(UTC).replace(tzinfo=None)
