"""A turn's run as a task of the server: its stream read by any page as it grows, its
follow-ups, its Stop from any thread, the turn saved by the task alone, and the
registry that finds it (and forgets it once it ended long enough ago)."""

from __future__ import annotations

import threading
import time

from components.run_lease import RunLease
from components.run_task import RunRegistry, RunTask
from components.state import Turn
from engine.react.followups import Inbox
from engine.react.run_state import EngineResult


class FakeEngine:
    def __init__(self) -> None:
        self.followups = Inbox()
        self._result: EngineResult | None = None

    @property
    def result(self) -> EngineResult:
        """As the engine's: what was still waiting when the run ended is left (``Inbox.close``)."""
        if self._result is None:
            left = self.followups.close()
            taken = self.followups.taken()
            self._result = EngineResult(status="answered", answer="42", followups=taken, followups_left=left)
        return self._result

    def inject(self, text: str):
        return self.followups.put(text)


def slow(before: list[str], gate: threading.Event | None = None, after: tuple[str, ...] = ()):
    """``before``'s tokens, then (with ``gate``) heartbeats until it is set, then ``after``'s."""

    def start(engine: FakeEngine):
        for token in before:
            time.sleep(0.02)
            yield token
        while gate is not None and not gate.wait(0.05):
            yield ""  # a heartbeat while the model thinks
        yield from after

    return start


def task_with(start, saved: list[Turn], engine: FakeEngine | None = None) -> RunTask:
    engine = engine or FakeEngine()

    def save(turn: Turn) -> None:
        saved.append(turn.model_copy(deep=True))

    def lease(renew):
        return RunLease(renew, lambda: False, renew_every_s=60, write_every_s=None)

    return RunTask("alice", "c1", Turn(role="assistant", status="running"), lambda: engine, start, save, lease)


def test_pages_read_the_stream_as_it_grows_and_the_task_saves_the_answer_once():
    saved: list[Turn] = []
    registry = RunRegistry()
    task = registry.start(task_with(slow(["Answer: ", "4", "2"]), saved))
    assert registry.find("alice", "c1", task.turn.id) is task and registry.find("alice", "c2", task.turn.id) is None
    assert registry.find("bob", "c1", task.turn.id) is None  # another user's run is not found
    seen, got = 0, []
    while True:
        parts, done = task.read(seen, 1.0)
        got += parts
        seen += len(parts)
        if done:
            break
    assert "".join(got) == "Answer: 42"
    final = task.final_turn()
    assert (final.status, final.answer, final.content) == ("answered", "42", "Answer: 42")
    assert [t.status for t in saved] == ["answered"]  # the lease never came due: one save, at the end
    assert registry.running() == []


def test_stop_from_another_thread_ends_the_run_at_the_next_heartbeat_keeping_what_it_produced():
    gate = threading.Event()
    saved: list[Turn] = []
    task = RunRegistry().start(task_with(slow(["Thought: ", "half"], gate, ("never",)), saved))
    parts, seen = [], 0
    while "".join(parts) != "Thought: half":
        got, _ = task.read(seen, 1.0)
        parts, seen = parts + got, seen + len(got)
    started = time.monotonic()
    task.stop()  # the model is quiet: only heartbeats come
    assert task.done.wait(2) and time.monotonic() - started < 1.0
    final = task.final_turn()
    assert (final.status, final.content) == ("stopped", "Thought: half")
    assert saved[-1].status == "stopped" and not gate.is_set()


def test_follow_ups_go_to_the_engine_and_a_late_one_is_refused():
    gate = threading.Event()
    engine = FakeEngine()
    saved: list[Turn] = []
    task = RunRegistry().start(task_with(slow([], gate, ("Answer: 42",)), saved, engine))
    deadline = time.monotonic() + 5
    while task._engine is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert task.send("<b>and in euros?</b>")
    followups, version = task.followups()
    assert [f.text for f in followups] == ["<b>and in euros?</b>"] and version == 1
    assert [f.text for f in engine.followups.pending()] == ["<b>and in euros?</b>"]
    assert task.edit(followups[0].id, "in euros") and engine.followups.pending()[0].text == "in euros"
    assert task.recall(followups[0].id) and task.followups()[0] == [] and engine.followups.pending() == []
    assert not task.recall("nope") and not task.edit("nope", "x")
    assert task.send("per day?")
    time.sleep(0.2)  # a heartbeat or two: the task saves what changed
    assert any([f.text for f in t.followups] == ["per day?"] for t in saved)
    gate.set()
    assert task.done.wait(5)
    assert [(f.text, f.status) for f in task.final_turn().followups] == [("per day?", "unread")]  # kept till claimed
    assert [f.text for f in task.claim_next()] == ["per day?"] and task.claim_next() == []  # the next question, once
    assert not task.send("too late")


def test_the_registry_forgets_a_run_only_once_it_ended_long_enough_ago():
    saved: list[Turn] = []
    registry = RunRegistry(keep_s=0.2)
    task = registry.start(task_with(slow(["Answer: 1"]), saved))
    assert task.done.wait(5)
    assert registry.find("alice", "c1", task.turn.id) is task  # a page still drawing it takes its final turn
    time.sleep(0.3)
    assert registry.find("alice", "c1", task.turn.id) is None
