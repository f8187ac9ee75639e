"""Conversations and their turns, kept per user in SQLite or PostgreSQL.

Every method is scoped to the user: another user's conversation id behaves exactly
like a missing one (``get`` returns None, the others raise ``NotFound``). So is a rating
of an answer (``set_feedback``), kept per user beside the turns (``feedback.py``).

The turns form a tree (``branches.py``): each names its parent, and an edited question
or a regenerated answer is a sibling of the turn it re-does. ``fork`` copies a branch
into a new conversation of the same user.

A turn is written when it starts (``running``), again while it runs, and when it ends,
by upsert on its id. A ``running`` turn holds a lease (``lease.py``): another store shows
it running while its owner keeps saving it, and ``interrupted`` once the lease has
expired (``mark_interrupted`` records that). A Stop from any store reaches the owner
through the row (``request_stop``, polled with ``stop_requested``).
"""

from __future__ import annotations

import json
import threading
import uuid
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

import engine.store.branches as branches
import engine.store.feedback as ratings
import engine.store.inputs as inputs
import engine.store.lease as lease
import engine.store.parents as parents
import engine.store.search as fulltext
from engine.settings import current
from engine.store.database import (
    REPLACED,
    UNAVAILABLE,
    conversations_engine,
    database_errors,
    file_identity,
    migrate,
    sqlite_file,
)
from engine.store.errors import BadInput, FileReplaced, NotFound, Unavailable
from engine.store.models import ConversationRecord, ConversationSummary, RatedTurn
from engine.store.schema import conversations, feedback, turn_search, turns, users

MAX_SETTINGS_BYTES = 256 * 1024


class ConversationStore:
    """The repository. ``url``: SQLAlchemy URL, else ``DATABASE_URL``, else ``data/app.db``.

    Thread-safe: one instance serves every session of an app server, and is the owner of
    the turns it saves running (``owner``); ``lease_s`` defaults to ``TURN_LEASE_S``.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        busy_timeout_s: float = 5.0,
        connect_timeout_s: int = 5,
        lease_s: float | None = None,
    ) -> None:
        self.engine = conversations_engine(url, busy_timeout_s, connect_timeout_s)
        dialect = self.engine.dialect.name
        self._insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
        self._lock = threading.Lock()
        # SQLite has one writer: threads take turns here, in order, not polling the file lock (its back-off starves some).
        self._write_lock = threading.Lock() if dialect == "sqlite" else None
        self._user_ids: dict[str, int] = {}
        self._live: set[tuple[str, str]] = set()
        self.owner = lease.owner_id()
        self.lease_s = float(lease_s) if lease_s is not None else current().turn_lease_s
        self._last = datetime.min
        try:
            migrate(self.engine)
        except (sa.exc.OperationalError, sa.exc.InterfaceError) as exc:
            self.engine.dispose()
            raise Unavailable(UNAVAILABLE) from exc
        self._file = sqlite_file(self.engine)
        self._identity = file_identity(self._file) if self._file is not None else None

    def check_file(self) -> None:
        """Raise ``FileReplaced`` when the SQLite file is no longer the one opened at start.

        Open connections keep writing to an unlinked file, so every save would report
        success and be gone at the next start; a stat per call is what notices it.
        """
        if self._file is not None and file_identity(self._file) != self._identity:
            raise FileReplaced(REPLACED.format(name=self._file.name))

    def close(self) -> None:
        self.engine.dispose()

    # ---- helpers -------------------------------------------------------------------

    def _writer(self) -> AbstractContextManager[object]:
        return self._write_lock if self._write_lock is not None else nullcontext()

    def _now(self) -> datetime:
        """UTC now, naive, strictly increasing within this process (a stable newest-first order)."""
        with self._lock:
            now = datetime.now(UTC).replace(tzinfo=None)
            if now <= self._last:
                now = self._last + timedelta(microseconds=1)
            self._last = now
            return now

    def _user_id(self, conn: sa.Connection, name: str, create: bool) -> int | None:
        cached = self._user_ids.get(name)
        if cached is not None:
            return cached
        query = sa.select(users.c.id).where(users.c.name == name)
        found = conn.execute(query).scalar()
        if found is None and create:
            stmt = self._insert(users).values(name=name, created_at=self._now())
            conn.execute(stmt.on_conflict_do_nothing(index_elements=["name"]))
            found = conn.execute(query).scalar()
        if found is not None:
            self._user_ids[name] = found
        return found

    def _lease_view(self, conversation_id: str) -> lease.LeaseView:
        with self._lock:
            here = frozenset(turn_id for (cid, turn_id) in self._live if cid == conversation_id)
        return lease.LeaseView(self.owner, here, self.lease_s, datetime.now(UTC).replace(tzinfo=None))

    @staticmethod
    def _owned(user: str) -> sa.ColumnElement[bool]:
        """SQL condition: the conversation belongs to ``user``."""
        owner = sa.select(users.c.id).where(users.c.name == user).scalar_subquery()
        return conversations.c.user_id == owner

    @staticmethod
    def _summary(row: sa.Row) -> dict[str, Any]:
        return {name: getattr(row, name) for name in ("id", "title", "theme", "created_at", "updated_at")}

    # ---- conversations ---------------------------------------------------------------

    @database_errors
    def create(
        self,
        user: str,
        title: str = "",
        theme: str | None = None,
        settings: dict[str, Any] | None = None,
        *,
        conversation_id: str | None = None,
    ) -> ConversationRecord:
        """A new, empty conversation. Creating again with the same ``conversation_id`` returns the existing one."""
        user = inputs.check_user(user)
        title = inputs.clean_title(title)
        theme = inputs.check_theme(theme)
        settings = inputs.as_json_dict(settings, "settings", MAX_SETTINGS_BYTES)
        conversation_id = conversation_id or uuid.uuid4().hex
        if not inputs.valid_id(conversation_id):
            raise BadInput("A conversation id is made of letters, digits, '-' or '_' (at most 64 characters).")
        now = self._now()
        with self._writer(), self.engine.begin() as conn:
            user_id = self._user_id(conn, user, create=True)
            values = {
                "id": conversation_id,
                "user_id": user_id,
                "title": title,
                "title_search": inputs.fold(title),
                "theme": theme,
                "settings": settings,
                "created_at": now,
                "updated_at": now,
            }
            conn.execute(self._insert(conversations).values(values).on_conflict_do_nothing(index_elements=["id"]))
            row = conn.execute(
                sa.select(conversations).where(
                    conversations.c.id == conversation_id, conversations.c.user_id == user_id
                )
            ).first()
        if row is None:
            raise NotFound(conversation_id)
        return ConversationRecord(**self._summary(row), settings=row.settings or {})

    @database_errors
    def list(self, user: str, search: str | None = None, limit: int = 100) -> list[ConversationSummary]:
        """The user's conversations, most recently active first; ``search``: by title or by the
        turns' words (``search.searched``)."""
        user = inputs.check_user(user)
        limit = max(1, min(int(limit), 1000))
        c = conversations.c
        query = sa.select(c.id, c.title, c.theme, c.created_at, c.updated_at).where(self._owned(user))
        query = fulltext.searched(query, search, self.engine.dialect.name)
        query = query.order_by(c.updated_at.desc(), c.created_at.desc(), c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [ConversationSummary(**self._summary(row)) for row in rows]

    @database_errors
    def get(self, user: str, conversation_id: str) -> ConversationRecord | None:
        """The conversation with its turns in order, or None (missing, or not this user's)."""
        user = inputs.check_user(user)
        if not inputs.valid_id(conversation_id):
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(conversations).where(conversations.c.id == conversation_id, self._owned(user))
            ).first()
            if row is None:
                return None
            rows = conn.execute(
                sa.select(*lease.turn_columns())
                .where(turns.c.conversation_id == conversation_id)
                .order_by(turns.c.seq, turns.c.created_at, turns.c.id)
            ).all()
            rated = ratings.of_conversation(conn, conversation_id, self._user_id(conn, user, create=False))
        view = self._lease_view(conversation_id)
        out = []
        for turn_row in rows:
            data = lease.shown_turn(turn_row, view)
            if turn_row.id in rated:
                data["feedback"] = rated[turn_row.id].model_dump(mode="json")
            out.append(data)
        return ConversationRecord(**self._summary(row), settings=row.settings or {}, turns=out)

    @database_errors
    def get_turn(self, user: str, conversation_id: str, turn_id: str) -> dict[str, Any] | None:
        """One turn of the user's conversation as ``get`` shows it, or None: one keyed read (a live run's follower)."""
        owned = self._owned(inputs.check_user(user))
        if not inputs.valid_id(conversation_id) or not inputs.valid_id(turn_id):
            return None
        with self.engine.connect() as conn:
            return lease.read_turn(conn, conversation_id, turn_id, owned, self._lease_view(conversation_id))

    @database_errors
    def rename(self, user: str, conversation_id: str, title: str) -> None:
        user = inputs.check_user(user)
        title = inputs.clean_title(title)
        if not inputs.valid_id(conversation_id):
            raise NotFound(str(conversation_id)[:64])
        with self._writer(), self.engine.begin() as conn:
            result = conn.execute(
                conversations.update()
                .where(conversations.c.id == conversation_id, self._owned(user))
                .values(title=title, title_search=inputs.fold(title))
            )
        if result.rowcount == 0:
            raise NotFound(conversation_id)

    @database_errors
    def delete(self, user: str, conversation_id: str) -> None:
        """Delete the conversation and all its turns."""
        user = inputs.check_user(user)
        if not inputs.valid_id(conversation_id):
            raise NotFound(str(conversation_id)[:64])
        with self._writer(), self.engine.begin() as conn:
            owned = conn.execute(
                sa.select(conversations.c.id).where(conversations.c.id == conversation_id, self._owned(user))
            ).scalar()
            if owned is None:
                raise NotFound(conversation_id)
            conn.execute(feedback.delete().where(feedback.c.conversation_id == conversation_id))
            conn.execute(turns.delete().where(turns.c.conversation_id == conversation_id))
            conn.execute(turn_search.delete().where(turn_search.c.conversation_id == conversation_id))
            conn.execute(conversations.delete().where(conversations.c.id == conversation_id))
        with self._lock:
            self._live = {key for key in self._live if key[0] != conversation_id}

    @database_errors
    def export(self, user: str, conversation_id: str) -> str:
        """The whole conversation as JSON (settings and every turn field)."""
        record = self.get(user, conversation_id)
        if record is None:
            raise NotFound(str(conversation_id)[:64])
        return json.dumps(record.model_dump(mode="json"), ensure_ascii=False, indent=2)

    @database_errors
    def fork(self, user: str, conversation_id: str, turn_id: str, title: str = "") -> ConversationRecord:
        """A new conversation of the user's holding a copy of the branch down to ``turn_id`` (same ids and
        parents); ratings stay with the turns they rate, in the conversation they were given in."""
        record = self.get(user, conversation_id)
        path = branches.ancestry([(t["id"], t.get("parent_id")) for t in record.turns], str(turn_id)) if record else []
        if record is None or not path:
            raise NotFound(str(turn_id if record else conversation_id)[:64])
        by_id = {t["id"]: t for t in record.turns}
        copy = self.create(user, title[: inputs.MAX_TITLE_CHARS], record.theme, record.settings)
        for copied in path:
            self.save_turn(user, copy.id, {k: v for k, v in by_id[copied].items() if k not in ("feedback", "live")})
        return self.get(user, copy.id) or copy

    @database_errors
    def set_feedback(
        self, user: str, conversation_id: str, turn_id: str, rating: str | None, comment: str = ""
    ) -> None:
        """Rate an answer of the user's conversation (``up`` or ``down``, with a comment), or clear it (None)."""
        user = inputs.check_user(user)
        rating, comment = inputs.check_feedback(rating, comment)
        if not inputs.valid_id(conversation_id) or not inputs.valid_id(turn_id):
            raise NotFound(str(conversation_id)[:64])
        with self._writer(), self.engine.begin() as conn:
            ratings.check_answer(conn, conversation_id, turn_id, self._owned(user))
            key = {"conversation_id": conversation_id, "turn_id": turn_id, "user_id": self._user_id(conn, user, False)}
            ratings.write(conn, self._insert, key, rating, comment, self._now())

    @database_errors
    def rated_turns(self, user: str, rating: str | None = None) -> list[RatedTurn]:
        """The user's rated answers (only ``rating`` ones when given), with their questions, oldest rating first."""
        user, rating = inputs.check_user(user), inputs.check_rating(rating)
        with self.engine.connect() as conn:
            return ratings.rated(conn, self._user_id(conn, user, create=False), rating)

    # ---- turns ---------------------------------------------------------------------------

    @database_errors
    def save_turn(self, user: str, conversation_id: str, turn: dict[str, Any]) -> None:
        """Insert the turn at the end of the conversation, or update it if its id is already there.

        A new turn's ``parent_id`` names a turn of this conversation, or None for a first
        turn; without one it follows the conversation's last turn. A turn's parent never
        changes, so the turns stay a tree. The conversation's first user turn gives it a
        title when it has none.
        """
        user = inputs.check_user(user)
        data = inputs.check_turn(turn)
        if not inputs.valid_id(conversation_id):
            raise NotFound(str(conversation_id)[:64])
        turn_id, role, status = data["id"], data["role"], data["status"]
        parent_given, parent_id = "parent_id" in data, data.pop("parent_id", None)
        if parent_id is not None and (not inputs.valid_id(parent_id) or parent_id == turn_id):
            raise BadInput(parents.BAD_PARENT)
        now = self._now()
        c, t = conversations.c, turns.c
        next_seq = (
            sa.select(sa.func.coalesce(sa.func.max(t.seq), -1) + 1).where(t.conversation_id == c.id).scalar_subquery()
        )
        parent = sa.literal(parent_id, sa.String) if parent_given else parents.last_turn()
        source = sa.select(
            c.id,
            sa.literal(turn_id, sa.String),
            next_seq,
            sa.literal(role, sa.String),
            sa.literal(status, sa.String),
            sa.literal(now, sa.DateTime),
            sa.literal(now, sa.DateTime),
            sa.bindparam("turn_data", data, type_=sa.JSON),
            parent,
            sa.literal(self.owner, sa.String),
            sa.literal(now, sa.DateTime),
        ).where(c.id == conversation_id, self._owned(user))
        columns = ["conversation_id", "id", "seq", "role", "status", "created_at", "updated_at", "data", "parent_id"]
        stmt = self._insert(turns).from_select([*columns, "lease_owner", "heartbeat_at"], source)
        kept = ("role", "status", "data", "updated_at", "lease_owner", "heartbeat_at")  # a stop asked stays asked
        stmt = stmt.on_conflict_do_update(
            index_elements=["conversation_id", "id"], set_={name: stmt.excluded[name] for name in kept}
        ).returning(t.id)
        title = inputs.title_from_question(str(data.get("content", ""))) if role == "user" else ""
        with self._writer(), self.engine.begin() as conn:
            if conn.execute(stmt).first() is None:  # no row: not this user's conversation
                raise NotFound(conversation_id)
            if parent_id is not None:  # after the ownership check; a refusal rolls the write back
                parents.check(conn, conversation_id, parent_id, self._owned(user))
            fulltext.index_turn(conn, conversation_id, data)
            values: dict[str, Any] = {"updated_at": now}
            if title:
                values["title"] = sa.case((c.title == "", title), else_=c.title)
                values["title_search"] = sa.case((c.title == "", inputs.fold(title)), else_=c.title_search)
            conn.execute(conversations.update().where(c.id == conversation_id, self._owned(user)).values(values))
        with self._lock:
            if status == "running":
                self._live.add((conversation_id, turn_id))
            else:
                self._live.discard((conversation_id, turn_id))

    @database_errors
    def mark_interrupted(self, user: str, conversation_id: str) -> list[str]:
        """Record as ``interrupted`` the running turns whose lease expired; returns their ids."""
        record = self.get(user, conversation_id)
        if record is None:
            raise NotFound(str(conversation_id)[:64])
        view = self._lease_view(conversation_id)
        with self._writer(), self.engine.begin() as conn:
            return lease.mark_expired(conn, conversation_id, record.turns, view)

    @database_errors
    def request_stop(self, user: str, conversation_id: str, turn_id: str) -> bool:
        """Ask whichever server runs this turn of the user's conversation to stop it; False if it is not running."""
        user = inputs.check_user(user)
        if not inputs.valid_id(conversation_id) or not inputs.valid_id(turn_id):
            return False
        with self._writer(), self.engine.begin() as conn:
            return lease.request_stop(conn, conversation_id, turn_id, self._owned(user))

    @database_errors
    def stop_requested(self, user: str, conversation_id: str, turn_id: str) -> bool:
        """True once a Stop was asked for this turn (the owner's run polls it)."""
        user = inputs.check_user(user)
        if not inputs.valid_id(conversation_id) or not inputs.valid_id(turn_id):
            return False
        with self.engine.connect() as conn:
            return lease.stop_requested(conn, conversation_id, turn_id, self._owned(user))
