"""A conversation store that survives its database going away.

If the database cannot be reached (at start or mid-session), ``problem`` says so in one
sentence, the chat goes on in memory, and writes wait in an ordered queue (one entry
per turn: a newer version of a turn replaces the waiting one). The queue is flushed in
order as soon as the database answers again; what cannot be saved at all (e.g. the
conversation was deleted meanwhile) is listed by ``lost_turns(user)``.

Every waiting write, and every lost turn, is keyed by its user: one user's call never
replaces another's in the queue, and a user is only told about their own lost turns.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import engine.store.inputs as inputs
from engine.store.errors import BadInput, FileReplaced, NotFound, Unavailable
from engine.store.models import ConversationRecord, ConversationSummary, RatedTurn
from engine.store.repository import MAX_SETTINGS_BYTES, ConversationStore

SEEN = 16  # conversations kept from the last reads, to show while the database is down
DOWN = "The conversation database cannot be reached: this chat is kept in memory and will be saved when it is back."


@dataclass
class _Write:
    """One waiting write: ``kind`` is create, turn, rename, delete or feedback."""

    kind: str
    user: str
    conversation_id: str
    args: dict[str, Any]

    def apply(self, store: ConversationStore) -> None:
        if self.kind == "create":
            store.create(self.user, conversation_id=self.conversation_id, **self.args)
        elif self.kind == "turn":
            store.save_turn(self.user, self.conversation_id, self.args["turn"])
        elif self.kind == "rename":
            store.rename(self.user, self.conversation_id, self.args["title"])
        elif self.kind == "delete":
            store.delete(self.user, self.conversation_id)
        elif self.kind == "feedback":
            store.set_feedback(self.user, self.conversation_id, **self.args)


class ResilientStore:
    """``ConversationStore``'s methods, never failing for want of a database. Thread-safe."""

    def __init__(
        self,
        url: str | None = None,
        *,
        retry_every_s: float = 2.0,
        factory: Callable[[], ConversationStore] | None = None,
        **store_kwargs: Any,
    ) -> None:
        self._factory = factory or (lambda: ConversationStore(url, **store_kwargs))
        self.retry_every_s = retry_every_s
        self._inner: ConversationStore | None = None
        self._lock = threading.RLock()
        self._flushing = threading.Lock()
        self._queue: OrderedDict[tuple[str, ...], _Write] = OrderedDict()
        self._created: dict[str, tuple[str, ConversationRecord]] = {}  # made while down, not yet in the database
        self._lost: list[tuple[str, str, str]] = []  # (user, turn id, why)
        self._seen: OrderedDict[tuple[str, str], ConversationRecord] = OrderedDict()  # last reads, for outages
        self._down = False
        self._misconfigured: str | None = None
        self._replaced: str | None = None  # the SQLite file went away under us: no retry brings it back
        self._last_try = float("-inf")
        self.flush()

    # ---- state ---------------------------------------------------------------------------

    def problem(self, user: str) -> str | None:
        """One sentence for ``user`` when something is wrong, else None (others' lost turns are not theirs to see)."""
        if self._misconfigured:
            return f"{self._misconfigured} This chat is kept in memory only."
        if self._replaced:
            return self._replaced
        if self._down:
            return DOWN
        with self._lock:
            lost = [why for owner, _, why in self._lost if owner == user]
        if lost:
            return f"{len(lost)} turn(s) could not be saved: {lost[-1]}"
        return None

    @property
    def is_down(self) -> bool:
        return self._down

    @property
    def replaced(self) -> bool:
        """True when the SQLite file was removed or replaced while the app ran (a restart is needed)."""
        return self._replaced is not None

    @property
    def misconfigured(self) -> bool:
        """True when ``DATABASE_URL`` cannot name a usable database (no retry will help)."""
        return self._misconfigured is not None

    def unsaved_turns(self, user: str) -> list[str]:
        """Ids of ``user``'s turns waiting for the database."""
        with self._lock:
            return [w.args["turn"]["id"] for w in self._queue.values() if w.kind == "turn" and w.user == user]

    def lost_turns(self, user: str) -> list[str]:
        """Ids of ``user``'s turns that will never be saved (their conversation is gone, or they were refused)."""
        with self._lock:
            return [turn_id for owner, turn_id, _ in self._lost if owner == user]

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()

    # ---- flushing --------------------------------------------------------------------------

    def _went_down(self, exc: Unavailable | None = None) -> None:
        with self._lock:
            if isinstance(exc, FileReplaced):
                self._replaced = str(exc)
            self._down = True
            self._last_try = time.monotonic()

    def _due(self) -> None:
        """Try the database again when writes wait (or it was never reached) and the retry delay has passed."""
        with self._lock:
            waiting = self._inner is None or self._down or bool(self._queue)
            due = time.monotonic() - self._last_try >= self.retry_every_s
        if waiting and due:
            self.flush()

    def flush(self) -> bool:
        """Connect if needed and write every waiting change in order; True when nothing waits any more."""
        if not self._flushing.acquire(blocking=False):
            return False
        try:
            self._last_try = time.monotonic()
            if self._inner is None:
                try:
                    self._inner = self._factory()
                except Unavailable:
                    self._went_down()
                    return False
                except BadInput as exc:  # a wrong DATABASE_URL: say so, keep the chat in memory
                    self._misconfigured = str(exc)
                    self._went_down()
                    return False
            while True:
                with self._lock:
                    if not self._queue:
                        self._down = False
                        return True
                    key, write = next(iter(self._queue.items()))
                try:
                    write.apply(self._inner)
                except Unavailable as exc:
                    self._went_down(exc)
                    return False
                except (NotFound, BadInput) as exc:
                    if write.kind == "turn":
                        with self._lock:
                            self._lost.append((write.user, write.args["turn"]["id"], str(exc)))
                with self._lock:
                    if self._queue.get(key) is write:  # not replaced by a newer version meanwhile
                        del self._queue[key]
                    if write.kind == "create":
                        self._created.pop(write.conversation_id, None)
        finally:
            self._flushing.release()

    def _write(self, write: _Write, *key: str) -> None:
        """Apply ``write`` now, or queue it under (its user, its kind, its conversation, ``key``…)."""
        self._due()
        with self._lock:
            direct = self._inner is not None and not self._down and not self._queue
            inner = self._inner
        if direct and inner is not None:
            try:
                write.apply(inner)
                return
            except Unavailable as exc:
                self._went_down(exc)
        with self._lock:
            self._queue[(write.user, write.kind, write.conversation_id, *key)] = write

    def _check_owner(self, user: str, conversation_id: str) -> tuple[str, ConversationRecord] | None:
        """The conversation made here while the database was down, if any; NotFound if it is another user's."""
        with self._lock:
            made_here = self._created.get(conversation_id)
        if made_here is not None and made_here[0] != user:
            raise NotFound(conversation_id)
        return made_here

    def _remember(self, user: str, conversation_id: str, record: ConversationRecord | None) -> None:
        with self._lock:
            key = (user, conversation_id)
            self._seen.pop(key, None)
            if record is not None:
                self._seen[key] = record.model_copy(deep=True)
                while len(self._seen) > SEEN:
                    self._seen.popitem(last=False)

    def _waiting_turns(self, user: str, conversation_id: str) -> list[dict[str, Any]]:
        """Turns this user saved in this conversation that still wait for the database."""
        with self._lock:
            return [
                w.args["turn"]
                for w in self._queue.values()
                if w.kind == "turn" and w.conversation_id == conversation_id and w.user == user
            ]

    def _waiting_feedback(self, user: str, conversation_id: str) -> list[dict[str, Any]]:
        """Ratings this user gave in this conversation that still wait for the database, in order."""
        with self._lock:
            return [
                w.args
                for w in self._queue.values()
                if w.kind == "feedback" and w.conversation_id == conversation_id and w.user == user
            ]

    # ---- the repository's methods ------------------------------------------------------------

    def create(
        self, user: str, title: str = "", theme: str | None = None, settings: dict[str, Any] | None = None
    ) -> ConversationRecord:
        user, title = inputs.check_user(user), inputs.clean_title(title)
        theme = inputs.check_theme(theme)
        settings = inputs.as_json_dict(settings, "settings", MAX_SETTINGS_BYTES)
        self._due()
        with self._lock:
            inner = self._inner if not self._down and not self._queue else None
        if inner is not None:
            try:
                return inner.create(user, title, theme, settings)
            except Unavailable as exc:
                self._went_down(exc)
        now = datetime.now(UTC)
        record = ConversationRecord(
            id=uuid.uuid4().hex, title=title, theme=theme, settings=settings, created_at=now, updated_at=now
        )
        args = {"title": title, "theme": theme, "settings": settings}
        with self._lock:
            self._created[record.id] = (user, record)
            self._queue[(user, "create", record.id)] = _Write("create", user, record.id, args)
        return record

    def list(self, user: str, search: str | None = None, limit: int = 100) -> list[ConversationSummary]:
        user = inputs.check_user(user)
        self._due()
        found: list[ConversationSummary] = []
        if self._inner is not None and not self._down:
            try:
                found = self._inner.list(user, search, limit)
            except Unavailable as exc:
                self._went_down(exc)
        needle = inputs.fold(inputs.one_line(search or ""))
        with self._lock:
            made_here = [
                ConversationSummary(**record.model_dump(exclude={"settings", "turns"}))
                for owner, record in self._created.values()
                if owner == user and needle in inputs.fold(record.title)
            ]
        return (sorted(made_here, key=lambda s: s.updated_at, reverse=True) + found)[: max(1, limit)]

    def get(self, user: str, conversation_id: str) -> ConversationRecord | None:
        user = inputs.check_user(user)
        self._due()
        with self._lock:
            owner, made_here = self._created.get(conversation_id, (None, None))
        record: ConversationRecord | None = None
        if made_here is not None:
            record = made_here.model_copy(deep=True) if owner == user else None
        elif self._inner is not None and not self._down:
            try:
                record = self._inner.get(user, conversation_id)
            except Unavailable as exc:
                self._went_down(exc)
            else:
                self._remember(user, conversation_id, record)
        if self._down and made_here is None:
            with self._lock:
                seen = self._seen.get((user, conversation_id))
                record = seen.model_copy(deep=True) if seen is not None else None
        if record is None:
            return None
        for turn in self._waiting_turns(user, conversation_id):
            ids = [t.get("id") for t in record.turns]
            if turn["id"] in ids:
                rated = record.turns[ids.index(turn["id"])].get("feedback")
                record.turns[ids.index(turn["id"])] = dict(turn) | ({"feedback": rated} if rated else {})
            else:
                record.turns.append(dict(turn))
        for args in self._waiting_feedback(user, conversation_id):
            for turn in record.turns:
                if turn.get("id") == args["turn_id"]:
                    turn.pop("feedback", None)
                    if args["rating"] is not None:
                        turn["feedback"] = {"rating": args["rating"], "comment": args["comment"], "updated_at": None}
        return record

    def get_turn(self, user: str, conversation_id: str, turn_id: str) -> dict[str, Any] | None:
        return self._read(lambda store: store.get_turn(user, conversation_id, turn_id))  # down: Unavailable

    def rename(self, user: str, conversation_id: str, title: str) -> None:
        user, title = inputs.check_user(user), inputs.clean_title(title)
        made_here = self._check_owner(user, conversation_id)
        if made_here is not None:
            with self._lock:
                made_here[1].title = title
        self._write(_Write("rename", user, conversation_id, {"title": title}))

    def delete(self, user: str, conversation_id: str) -> None:
        user = inputs.check_user(user)
        made_here = self._check_owner(user, conversation_id)
        self._remember(user, conversation_id, None)
        with self._lock:
            if made_here is not None:
                self._created.pop(conversation_id, None)
                for key in [
                    k for k, w in self._queue.items() if w.conversation_id == conversation_id and w.user == user
                ]:
                    del self._queue[key]
                return
        self._write(_Write("delete", user, conversation_id, {}))
        with self._lock:
            for key, write in list(self._queue.items()):
                if write.conversation_id == conversation_id and write.user == user and write.kind != "delete":
                    del self._queue[key]

    def save_turn(self, user: str, conversation_id: str, turn: dict[str, Any]) -> None:
        user, data = inputs.check_user(user), inputs.check_turn(turn)
        made_here = self._check_owner(user, conversation_id)
        if made_here is not None and not made_here[1].title and data["role"] == "user":
            with self._lock:
                made_here[1].title = inputs.title_from_question(str(data.get("content", "")))
        self._write(_Write("turn", user, conversation_id, {"turn": data}), data["id"])

    def set_feedback(
        self, user: str, conversation_id: str, turn_id: str, rating: str | None, comment: str = ""
    ) -> None:
        """Rate an answer now, or when the database is back (a newer rating of the turn replaces a waiting one)."""
        user = inputs.check_user(user)
        rating, comment = inputs.check_feedback(rating, comment)
        self._check_owner(user, conversation_id)
        args = {"turn_id": turn_id, "rating": rating, "comment": comment}
        self._write(_Write("feedback", user, conversation_id, args), str(turn_id))

    def fork(self, user: str, conversation_id: str, turn_id: str, title: str = "") -> ConversationRecord:
        """Copy a branch into a new conversation: only while the database answers (one sentence otherwise)."""
        self._due()
        if self._check_owner(user, conversation_id) is not None:
            raise Unavailable(DOWN)
        return self._read(lambda store: store.fork(user, conversation_id, turn_id, title))

    def _read(self, call: Callable[[ConversationStore], Any], down: Any = Unavailable) -> Any:
        """``call`` on the database now; while it is down, ``down`` (``Unavailable``: raise it)."""
        self._due()
        try:
            if self._inner is None or self._down:
                raise Unavailable(DOWN)
            return call(self._inner)
        except Unavailable as exc:
            if self._inner is not None and not self._down:
                self._went_down(exc)
            if down is Unavailable:
                raise
            return down

    def rated_turns(self, user: str, rating: str | None = None) -> list[RatedTurn]:
        return self._read(lambda store: store.rated_turns(user, rating))

    def mark_interrupted(self, user: str, conversation_id: str) -> list[str]:
        return self._read(lambda store: store.mark_interrupted(user, conversation_id), [])

    def request_stop(self, user: str, conversation_id: str, turn_id: str) -> bool:
        """Ask the owner of a running turn to stop it; raises ``Unavailable`` while the database is down."""
        return self._read(lambda store: store.request_stop(user, conversation_id, turn_id))

    def stop_requested(self, user: str, conversation_id: str, turn_id: str) -> bool:
        """Whether a Stop was asked for this turn; False while the database is down (the run goes on)."""
        return self._read(lambda store: store.stop_requested(user, conversation_id, turn_id), False)

    def export(self, user: str, conversation_id: str) -> str:
        record = self.get(user, conversation_id)
        if record is None:
            if self._down:
                raise Unavailable(DOWN)
            raise NotFound(str(conversation_id)[:64])
        return json.dumps(record.model_dump(mode="json"), ensure_ascii=False, indent=2)
