"""Consuming one run's token stream into a turn, so that whatever happens (an
answer, an error, a Stop, a rerun) the turn keeps what was produced."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Protocol

from components.run_lease import RunLease
from components.state import Turn
from engine.react.parser import ReActStreamParser
from engine.react.record import compact, run_record
from engine.react.run_state import EngineResult


class Feed(Protocol):
    """Where a run's tokens go: the page's tracer (``StreamlitChatTracer``) or a task's ``StreamLog``."""

    parser: ReActStreamParser

    @property
    def raw(self) -> str: ...

    def feed(self, token: str) -> None: ...

    def close(self) -> None: ...


def apply_result(turn: Turn, result: EngineResult) -> None:
    turn.status = result.status
    turn.answer = result.answer
    turn.error = result.error
    turn.grounding = result.grounding
    turn.cautions = list(result.cautions)
    apply_figures(turn, result)


def apply_figures(turn: Turn, result: EngineResult) -> None:
    """The footer's figures, which a stopped run has too."""
    turn.iterations = result.iterations
    turn.tokens = result.usage.total_tokens
    turn.elapsed = result.elapsed
    turn.backend = result.backend
    turn.cost = result.cost
    turn.suspended = result.suspended
    turn.ended_at = datetime.now(UTC).isoformat(timespec="seconds")


def keep_record(turn: Turn, tracer: Feed, result: EngineResult) -> None:
    """The run's record into the turn: the engine's steps, and the blocks the tracer drew
    from the stream the turn keeps (a resumed turn's first part included)."""
    tracer.parser.close()  # a stopped stream: its last line is a block too, as on replay
    record = run_record(result.steps, tracer.parser.blocks, turn.content, turn.answer, turn.grounding, result.usage)
    turn.record = compact(record)


def consume(
    turn: Turn,
    tokens: Iterator[str],
    tracer: Feed,
    result: Callable[[], EngineResult],
    heartbeat: Callable[[], None] | None = None,
    lease: RunLease | None = None,
    listen: Callable[[], None] | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Feed ``tokens`` to ``tracer`` and store them in ``turn``.

    A Stop (Streamlit raises a BaseException into the script) closes the stream,
    which cancels the engine, and marks the turn stopped with its partial trace.
    Empty tokens are heartbeats from an idle stream: ``heartbeat`` touches the page
    so that Streamlit can deliver a Stop even while a tool is still running. With
    ``lease``, each token also keeps the turn's lease and, at its bounded rate, writes the
    stream so far for the run's followers (``turn.content`` is that stream when it saves), and a Stop asked through the store ends the run the same way. ``listen``
    runs on each token too: it hears what the analyst does in the page meanwhile (follow-ups).
    ``stop`` set (a task's Stop, from any thread) ends the run the same way, at the next token or heartbeat."""
    prior = turn.content
    if prior:  # a resumed run continues the turn's stream on a new line
        tracer.feed(prior if prior.endswith("\n") else prior + "\n")
    turn.status = "running"
    turn.record = None  # until the run ends: a resumed turn's record is made again, whole
    finished = False

    def snapshot() -> None:  # the stream so far, into the turn a renewal saves
        turn.content = tracer.raw

    try:
        for token in tokens:
            if token:
                tracer.feed(token)
            elif heartbeat is not None:
                heartbeat()
            if listen is not None:
                listen()
            if lease is not None and lease.tick(snapshot, grown=bool(token)):
                break
            if stop is not None and stop.is_set():
                break
        else:
            tracer.close()
            finished = True
    finally:
        close = getattr(tokens, "close", None)
        if close is not None:
            close()
        turn.content = tracer.raw
        if finished:
            apply_result(turn, ended := result())
            keep_record(turn, tracer, ended)
        elif turn.status == "running":
            turn.status = "stopped"
            apply_figures(turn, ended := result())
            keep_record(turn, tracer, ended)
