"""Typed records the store hands out, and the protocol the front end programs against."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, field_validator


class ConversationSummary(BaseModel):
    """One line of the conversation list (no turns)."""

    id: str
    title: str
    theme: str | None = None
    created_at: datetime
    updated_at: datetime

    @field_validator("created_at", "updated_at")
    @classmethod
    def _utc(cls, moment: datetime) -> datetime:
        """The database keeps naive UTC times: they are read as UTC."""
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


class ConversationRecord(ConversationSummary):
    """A conversation with its settings and its turns, in order.

    Each turn is the dict the app saved (``id``, ``role``, ``status`` and every other
    field, e.g. the raw stream, the answer, footer figures, a suspended run, the run's
    record: ``engine.react.record``), so a new turn field needs no migration, and ``parent_id``: the turns form a tree (``branches.py``).
    ``feedback``, on an answer the user rated, comes from the feedback table: a turn's save
    never writes it.
    """

    settings: dict[str, Any] = Field(default_factory=dict)
    turns: list[dict[str, Any]] = Field(default_factory=list)


Rating = Literal["up", "down"]


class Feedback(BaseModel):
    """A user's rating of one answer, with an optional comment; kept beside the turn, not in it."""

    rating: Rating
    comment: str = ""
    updated_at: datetime | None = None


class RatedTurn(BaseModel):
    """A rated answer with what it answered: the export behind ``python -m engine feedback``."""

    conversation_id: str
    title: str
    theme: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    question: str
    turn: dict[str, Any]
    feedback: Feedback


class ConversationRepository(Protocol):
    """What the front end calls; ``ConversationStore`` and ``ResilientStore`` both provide it."""

    def create(
        self, user: str, title: str = "", theme: str | None = None, settings: dict[str, Any] | None = None
    ) -> ConversationRecord: ...

    def list(self, user: str, search: str | None = None, limit: int = 100) -> list[ConversationSummary]: ...

    def get(self, user: str, conversation_id: str) -> ConversationRecord | None: ...

    def get_turn(self, user: str, conversation_id: str, turn_id: str) -> dict[str, Any] | None: ...

    def rename(self, user: str, conversation_id: str, title: str) -> None: ...

    def delete(self, user: str, conversation_id: str) -> None: ...

    def save_turn(self, user: str, conversation_id: str, turn: dict[str, Any]) -> None: ...

    def fork(self, user: str, conversation_id: str, turn_id: str, title: str = "") -> ConversationRecord: ...

    def mark_interrupted(self, user: str, conversation_id: str) -> list[str]: ...

    def request_stop(self, user: str, conversation_id: str, turn_id: str) -> bool: ...

    def stop_requested(self, user: str, conversation_id: str, turn_id: str) -> bool: ...

    def export(self, user: str, conversation_id: str) -> str: ...

    def set_feedback(
        self, user: str, conversation_id: str, turn_id: str, rating: Rating | None, comment: str = ""
    ) -> None: ...
