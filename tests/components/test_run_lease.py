"""A run keeps its turn's lease and hears a Stop asked through the store.

Unit tests with a fake clock bound the writes and reads; two real processes (an owner
running a turn the app's way, and this test as server B) check the rest on SQLite and
PostgreSQL: B sees A's run as running, a Stop from B ends it within a poll, and a
SIGKILL'd owner leaves a turn that B shows as interrupted once the lease expires, with
what the owner had produced."""

import os
import signal
import subprocess
import sys
import time

import pytest

from components.run_lease import RunLease
from components.state import Turn
from components.throttle import Throttle
from components.tracer import StreamlitChatTracer
from components.turn_runner import consume
from engine.react.run_state import EngineResult
from engine.store import ConversationStore
from engine.store.lease import POLL_S
from tests.components.lease_runner import step
from tests.components.test_tracer import FakeClock, Recorder
from tests.conftest import ROOT

LEASE = 1.5


def test_renewals_and_polls_are_bounded_whatever_the_token_rate():
    clock, saved, asked = FakeClock(), [], []
    lease = RunLease(
        lambda: saved.append(clock.now), lambda: asked.append(clock.now) or False, renew_every_s=5, clock=clock
    )
    for _ in range(12_000):  # a token every millisecond for 12 s
        clock.now += 0.001
        assert lease.tick() is False
    assert len(saved) == 2 and saved[0] == pytest.approx(5.0, abs=0.002)
    assert 11 <= len(asked) <= 12 and all(b - a >= POLL_S - 1e-9 for a, b in zip(asked, asked[1:], strict=False))


def test_the_stream_is_written_at_most_once_per_interval_and_only_when_it_grew():
    clock, saved = FakeClock(), []
    lease = RunLease(lambda: saved.append(clock.now), lambda: False, renew_every_s=5, write_every_s=0.5, clock=clock)
    for _ in range(3 * 1024):  # a token about every millisecond (exact in binary) for 3 s
        clock.now += 1 / 1024
        lease.tick(grown=True)
    assert saved == [0.5, 1.0, 1.5, 2.0, 2.5, 3.0] and (lease.writes, lease.renewals) == (6, 0)
    for _ in range(96):  # then 12 s of an idle stream (empty tokens): only the heartbeats write
        clock.now += 0.125
        lease.tick(grown=False)
    assert saved[6:] == [8.0, 13.0] and lease.renewals == 2
    clock.now += 0.125
    lease.tick(grown=True)  # a token after the idle spell: written at once, the last write is long past
    clock.now += 0.125
    lease.tick(grown=True)  # the next one waits for the interval
    assert saved[8:] == [15.125] and lease.writes == 7


def test_a_write_counts_as_a_heartbeat():
    clock, saved = FakeClock(), []
    lease = RunLease(lambda: saved.append(clock.now), lambda: False, renew_every_s=1, write_every_s=0.5, clock=clock)
    for _ in range(40):  # a token every 0.125 s for 5 s: written every 0.5 s, the heartbeat never due on top
        clock.now += 0.125
        lease.tick(grown=True)
    assert (lease.writes, lease.renewals) == (10, 0)


def test_without_a_write_interval_the_stream_is_saved_with_the_heartbeats_only():
    clock, saved = FakeClock(), []
    lease = RunLease(lambda: saved.append(clock.now), lambda: False, renew_every_s=2, clock=clock)
    for _ in range(5_000):
        clock.now += 0.001
        lease.tick(grown=True)
    assert (len(saved), lease.writes, lease.renewals) == (2, 0, 2)


def test_the_run_saves_its_stream_so_far_as_it_grows():
    clock, saved = FakeClock(), []
    turn = Turn(role="assistant", status="running")

    def tokens():
        for n in range(40):
            clock.now += 0.125
            yield step(n)

    lease = RunLease(
        lambda: saved.append(turn.content), lambda: False, renew_every_s=30, write_every_s=0.5, clock=clock
    )
    tracer = StreamlitChatTracer(Recorder([]), throttle=Throttle(0))
    consume(turn, tokens(), tracer, lambda: EngineResult(status="answered", answer="x"), lease=lease)
    assert len(saved) == 10 and lease.writes == 10  # 5 s of tokens, one write per 0.5 s
    assert saved[0] == "".join(step(n) for n in range(4))  # what had been produced when it was written
    assert all(b.startswith(a) and len(b) > len(a) for a, b in zip(saved, saved[1:], strict=False))


def test_a_stop_asked_through_the_store_stops_the_run_the_usual_way_keeping_its_stream():
    clock, saved, closed = FakeClock(), [], []
    turn = Turn(role="assistant", status="running")

    def tokens():
        try:
            for n in range(10_000):
                clock.now += 0.125  # exact in binary: the deadlines fall on whole tokens
                yield step(n)
        finally:
            closed.append(True)

    lease = RunLease(lambda: saved.append(turn.content), lambda: clock.now >= 3.0, renew_every_s=1.0, clock=clock)
    tracer = StreamlitChatTracer(Recorder([]), throttle=Throttle(0))
    consume(turn, tokens(), tracer, lambda: EngineResult(status="stopped", iterations=3), lease=lease)
    assert (turn.status, turn.iterations, closed) == ("stopped", 3, [True])
    assert turn.content == "".join(step(n) for n in range(24))  # the Stop was heard at its first poll from 3 s on
    assert saved == ["".join(step(n) for n in range(8 * k)) for k in (1, 2, 3)]  # each renewal: the stream so far


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'app.db'}"
    return request.getfixturevalue("pg_server").create_database("lease")


def start_owner(url: str) -> tuple[subprocess.Popen, str, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.components.lease_runner", url, str(LEASE)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = proc.stdout.readline().split()
    assert len(first) == 2, proc.stderr.read()[-2000:]
    assert proc.stdout.readline().strip() == "READY", proc.stderr.read()[-2000:]
    return proc, first[0], first[1]


def is_steps(content: str) -> int:
    """How many whole steps ``content`` holds, checking it is exactly steps 0, 1, 2, … in order."""
    n = content.count("\n")
    assert content == "".join(step(i) for i in range(n))
    return n


def test_server_b_stops_server_as_run_through_the_store_within_a_poll(db_url):
    proc, conversation_id, turn_id = start_owner(db_url)
    b = ConversationStore(db_url, lease_s=LEASE)
    try:
        shown = b.get("alice", conversation_id).turns[-1]
        assert (shown["id"], shown["status"], shown.get("live")) == (turn_id, "running", True)
        asked = time.monotonic()
        assert b.request_stop("alice", conversation_id, turn_id) is True
        out, err = proc.communicate(timeout=30)
        waited = time.monotonic() - asked
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-2000:]
    status, closed, length = out.split()
    assert (status, closed) == ("stopped", "True")
    assert waited < POLL_S + 1.0, waited  # heard at its next poll (once a second), then stopped at once
    shown = b.get("alice", conversation_id).turns[-1]
    assert (shown["status"], "live" in shown, len(shown["content"])) == ("stopped", False, int(length))
    assert is_steps(shown["content"]) > 0
    b.close()


def test_a_killed_owner_leaves_a_turn_interrupted_once_its_lease_expires_with_what_it_produced(db_url):
    proc, conversation_id, turn_id = start_owner(db_url)
    b = ConversationStore(db_url, lease_s=LEASE)
    assert b.get("alice", conversation_id).turns[-1]["status"] == "running"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    killed = time.monotonic()
    assert proc.returncode == -signal.SIGKILL
    time.sleep(max(0.0, killed + LEASE + 0.1 - time.monotonic()))
    turns = b.get("alice", conversation_id).turns
    assert [(t["id"], t["status"]) for t in turns] == [("u1", "answered"), (turn_id, "interrupted")]
    assert turns[0]["content"] == "a long question"  # nothing finished is lost
    assert is_steps(turns[1]["content"]) > 0  # what the owner had produced, up to its last renewal
    assert b.mark_interrupted("alice", conversation_id) == [turn_id]
    b.close()
