"""A turn's run as a task of the app server: a thread that outlives the script run
that started it, so a rerun, a reload or a page switch never ends it.

The tasks of a server process are kept by one ``RunRegistry``, in Streamlit's resource
cache (``run_registry``: ``st.cache_resource`` is documented as one object shared by
every session of the server), never in a module-level global. A page finds the task of
a running turn there (by user, conversation and turn: only its own user's) and draws it (``components/run_follow.py``).

The task keeps its stream in memory (``StreamLog``) and a page re-attaches from there,
not from the store: the tokens are in this process already, so a re-attached page (a
reload, another tab of this server, a page switch and back) draws every token as soon
as it is produced, with the same tracer fed the same tokens as the tab that asked (the
owner's token-by-token drawing is unchanged), and following costs no database read.
The store still gets the stream at its bounded rate (``components/run_lease.py``) for
the pages of other servers (``components/live_follow.py``), and the final turn once.

The task owns its turn: it alone saves it (start, lease, follow-ups, end). A page hands
it what the analyst does (a follow-up, a recall, an edit, a Stop); each is applied under
the task's lock, so a save never sees a turn half changed."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Literal

import streamlit as st

from components.run_lease import RunLease
from components.state import SentFollowUp, Turn
from components.turn_runner import consume
from engine.react.parser import ReActStreamParser
from engine.react.run_state import EngineResult

KEEP_S = 120.0  # a finished task stays findable this long: a page still drawing it takes its final turn from here
ENDED = ("answered", "suspended")  # a run that ended so: what it left unread is the next question

Start = Callable[[Any], Iterator[str]]  # the engine's stream of this turn (a question, or a reply that resumes)
Saver = Callable[[Turn], str | None]  # saves the turn; the store's one sentence when it could not
LeaseMaker = Callable[[Callable[[], None]], RunLease]  # the lease, given how to save the turn


class StreamLog:
    """The run's stream as the task keeps it: every token in order, read by the one parser
    (the turn's record is made of its blocks), waking the pages that draw it."""

    def __init__(self, changed: threading.Condition) -> None:
        self.parser = ReActStreamParser()
        self._parts: list[str] = []
        self._changed = changed

    @property
    def raw(self) -> str:
        with self._changed:
            return "".join(self._parts)

    def feed(self, token: str) -> None:
        with self._changed:
            self._parts.append(token)
            self.parser.feed(token)
            self._changed.notify_all()

    def close(self) -> None:
        self.parser.close()

    def since(self, n: int) -> list[str]:
        return self._parts[n:]


def settle_followups(turn: Turn, taken: list[Any], left: list[Any], ended: bool) -> list[str]:
    """The run is over: what it took is marked taken, what it left unread. When it ``ended``
    (answered, or asked the analyst), the ids of what it left are returned: the next question,
    once a page claims it (``RunTask.claim_next``); until then, and after a Stop or an error, they
    stay in the turn, unread, so a message no page asked again is never lost."""
    taken_ids, left_ids = {f.id for f in taken}, {f.id for f in left}
    for item in turn.followups:
        if item.status == "waiting":
            item.status = "taken" if item.id in taken_ids else "unread"
    return [f.id for f in turn.followups if f.id in left_ids] if ended else []


class RunTask:
    """One turn's run in a thread of this server: its stream, its follow-ups, its Stop."""

    def __init__(
        self,
        user: str,
        conversation_id: str,
        turn: Turn,
        make_engine: Callable[[], Any],
        start: Start,
        save: Saver,
        lease: LeaseMaker,
        warmup: Callable[[], float] | None = None,
    ) -> None:
        self.key = (user, conversation_id, turn.id)  # a page finds only its own user's runs
        self.turn = turn.model_copy(deep=True)  # the task's own: pages get copies
        self.phase: Literal["warming", "running"] = "warming" if warmup is not None else "running"
        self.problem: str | None = None  # the store's last sentence, shown by the pages
        self.ended_at: float | None = None
        self.version = 0  # grows with each change to the follow-ups (pages redraw them)
        self._make_engine, self._start, self._save, self._lease, self._warmup = make_engine, start, save, lease, warmup
        self._changed = threading.Condition(threading.RLock())
        self.log = StreamLog(self._changed)
        self._engine: Any = None
        self._stop = threading.Event()
        self.done = threading.Event()
        self._dirty = False  # follow-ups changed since the last save
        self._next: list[str] = []
        self.thread = threading.Thread(target=self.run, daemon=True, name=f"run-{turn.id}")

    # ---- what pages ask ----------------------------------------------------------------
    def read(self, seen: int, timeout_s: float) -> tuple[list[str], bool]:
        """The tokens after the first ``seen``, waiting up to ``timeout_s`` for one; and whether the run is over."""
        with self._changed:
            if not self.done.is_set() and not self.log.since(seen):
                self._changed.wait(timeout_s)
            return self.log.since(seen), self.done.is_set()

    def wait_change(self, version: int, timeout_s: float) -> None:
        with self._changed:
            if self.version == version and not self.done.is_set():
                self._changed.wait(timeout_s)

    @property
    def stopping(self) -> bool:
        return self._stop.is_set() and not self.done.is_set()

    def stop(self) -> None:
        """End the run as its Stop does: at the next token or heartbeat, keeping what it produced."""
        self._stop.set()

    def followups(self) -> tuple[list[SentFollowUp], int]:
        with self._changed:
            return [f.model_copy() for f in self.turn.followups], self.version

    def send(self, text: str) -> bool:
        """Hand the run a follow-up; False when it has its answer already (``text`` is then the next question)."""
        with self._changed:
            item = self._engine.inject(text) if self._engine is not None and not self.done.is_set() else None
            if item is None:
                return False
            self.turn.followups.append(SentFollowUp(id=item.id, text=text))
            self._touched()
            return True

    def recall(self, followup_id: str) -> bool:
        with self._changed:
            if not self._waiting(followup_id) or self._engine.followups.recall(followup_id) is None:
                return False
            self.turn.followups = [f for f in self.turn.followups if f.id != followup_id]
            self._touched()
            return True

    def edit(self, followup_id: str, text: str) -> bool:
        with self._changed:
            if not self._waiting(followup_id) or not self._engine.followups.edit(followup_id, text):
                return False
            next(f for f in self.turn.followups if f.id == followup_id).text = text
            self._touched()
            return True

    def final_turn(self) -> Turn:
        with self._changed:
            return self.turn.model_copy(deep=True)

    def claim_next(self) -> list[SentFollowUp]:
        """What the run left for the next question, handed to the one page that asks first (which
        takes them out of the turn and saves it)."""
        with self._changed:
            ids, self._next = set(self._next), []
            return [f.model_copy() for f in self.turn.followups if f.id in ids]

    # ---- the run -------------------------------------------------------------------------
    def _waiting(self, followup_id: str) -> bool:
        found = any(f.id == followup_id and f.status == "waiting" for f in self.turn.followups)
        return found and self._engine is not None and not self.done.is_set()

    def _touched(self) -> None:
        self._dirty = True
        self.version += 1
        self._changed.notify_all()

    def _save_now(self) -> None:
        with self._changed:
            self.problem = self._save(self.turn)

    def _listen(self) -> None:
        """On each token, in the run's thread: mark what the run took, save what changed."""
        with self._changed:
            taken = {f.id for f in self._engine.followups.taken()} if self._engine is not None else set()
            for item in self.turn.followups:
                if item.status == "waiting" and item.id in taken:
                    item.status = "taken"
                    self._touched()
            dirty, self._dirty = self._dirty, False
        if dirty:
            self._save_now()

    def run(self) -> None:
        turn, waited, engine = self.turn, 0.0, None
        try:
            if self._warmup is not None:
                waited = self._warmup()
            self.phase = "running"
            try:
                engine = self._make_engine()
            except Exception as exc:  # the engine cannot even start: one readable sentence, history kept
                message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
                failed = EngineResult(status="error", error=message)
                consume(turn, iter([f"Error: {message}\n"]), self.log, lambda: failed)
            else:
                with self._changed:
                    self._engine = engine
                lease = self._lease(self._save_now)
                tokens = self._start(engine)
                consume(
                    turn, tokens, self.log, lambda: engine.result, lease=lease, listen=self._listen, stop=self._stop
                )
        except Exception as exc:  # a fault of the page's side of the run: the turn says so and keeps what it has
            turn.status, turn.error = "error", str(exc) or type(exc).__name__
        finally:
            turn.elapsed += waited  # the analyst waited for it too
            result = engine.result if engine is not None else EngineResult()
            with self._changed:
                self._next = settle_followups(turn, result.followups, result.followups_left, turn.status in ENDED)
                self._engine = None
            self._save_now()
            with self._changed:
                self.ended_at = time.monotonic()
                self.done.set()
                self._changed.notify_all()


class RunRegistry:
    """The runs of this server process, by (user, conversation, turn). Thread-safe."""

    def __init__(self, keep_s: float = KEEP_S) -> None:
        self.keep_s = keep_s
        self._lock = threading.Lock()
        self._tasks: dict[tuple[str, str, str], RunTask] = {}

    def start(self, task: RunTask) -> RunTask:
        with self._lock:
            self._prune()
            self._tasks[task.key] = task
        task.thread.start()
        return task

    def find(self, user: str, conversation_id: str | None, turn_id: str) -> RunTask | None:
        with self._lock:
            self._prune()
            return self._tasks.get((user, conversation_id or "", turn_id))

    def running(self) -> list[RunTask]:
        with self._lock:
            return [task for task in self._tasks.values() if not task.done.is_set()]

    def _prune(self) -> None:
        """Forget the runs that ended more than ``keep_s`` ago (their turns are in the store)."""
        cutoff = time.monotonic() - self.keep_s
        for key in [k for k, task in self._tasks.items() if task.ended_at is not None and task.ended_at < cutoff]:
            del self._tasks[key]


@st.cache_resource(show_spinner=False)
def run_registry() -> RunRegistry:
    """The one registry of this server process, shared by every session (Streamlit's resource cache)."""
    return RunRegistry()
