"""Typed conversation state. The app holds ALL of it in ``st.session_state``; the
engine gets a fresh copy of the history each turn and keeps nothing."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr, field_validator, model_validator

from engine.grounding import GroundingReport
from engine.llm.pricing import Cost, total_costs
from engine.react.record import TurnRecord, compact, read_record
from engine.react.run_state import Caution, SuspendedRun
from engine.react.types import ReActBlock
from engine.store.branches import siblings, visible
from engine.store.models import Feedback

TurnStatus = Literal["running", "answered", "error", "suspended", "replied", "stopped", "interrupted"]


class Preferences(BaseModel):
    """The analyst's choices in the UI (the Settings page and the sidebar), kept in the
    session; the environment's settings are ``engine.settings.Settings``."""

    theme: str | None = "handbook"
    language: str = "en"
    detail: Literal["brief", "normal", "detailed"] = "normal"
    show_thoughts: bool = True
    export_thoughts: bool = False
    files_to: Literal["conversation", "theme"] = "conversation"  # where files dropped into the chat go


class SentFollowUp(BaseModel):
    """A message the analyst sent while the turn's run went on (``engine/react/followups.py``):
    ``waiting`` for the next step boundary (it can be recalled or edited), then ``taken`` by the
    run; ``unread`` when the run stopped before it took it (kept, shown, never sent)."""

    id: str
    text: str
    status: Literal["waiting", "taken", "unread"] = "waiting"
    sent_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))


class Turn(BaseModel):
    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:10])
    parent_id: str | None = None  # the turn this one follows; an edit or a regenerate is a sibling
    role: Literal["user", "assistant"]
    content: str = ""  # the user's text, or the assistant's raw ReAct stream
    status: TurnStatus = "answered"
    answer: str = ""
    error: str | None = None
    iterations: int = 0
    tokens: int = 0
    elapsed: float = 0.0
    backend: str = ""
    cost: Cost | None = None  # what the turn's tokens cost, when models.json prices the model
    suspended: SuspendedRun | None = None
    grounding: GroundingReport | None = None
    cautions: list[Caution] | None = None  # what the analyst must know about the answer (None: a turn stored before)
    followups: list[SentFollowUp] = Field(default_factory=list)  # sent during the run, in order
    feedback: Feedback | None = None  # the analyst's rating of the answer (stored apart, by set_feedback)
    # The run's record as stored (``engine.react.record.compact``: its JSON text), typed when read
    # (``run_record``); None while it runs, and for a turn stored before turns kept one.
    record: str | dict[str, Any] | None = None
    created_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    ended_at: str | None = None
    # A run going on now in another session or on another server (the store says so when it
    # loads the turn): shown with a Stop, never saved back from here.
    live: bool = Field(default=False, exclude=True)
    _read: tuple[object, object, TurnRecord] | None = PrivateAttr(default=None)

    @field_validator("record", mode="before")
    @classmethod
    def _stored(cls, data: object) -> str | dict[str, Any] | None:
        """A record given typed is kept as stored; it is checked when it is read (opening a
        conversation reads none), and what cannot be one is no record."""
        if isinstance(data, TurnRecord):
            return compact(data)
        return data if isinstance(data, str | dict) else None

    def run_record(self) -> TurnRecord:
        """The turn's record (``read_record``): its own once its run ended, else (or when it is
        not one) read back from its raw stream; read once while the turn is unchanged."""
        fields = {"content": self.content, "answer": self.answer, "grounding": self.grounding}
        if self.status == "running":
            return read_record(fields)
        read = self._read
        if read is None or read[0] is not self.record or read[1] is not self.content:
            read = self._read = (self.record, self.content, read_record({**fields, "record": self.record}))
        return read[2]

    @property
    def blocks(self) -> list[ReActBlock]:
        return self.run_record().react_blocks() if self.role == "assistant" else []

    @property
    def shown_answer(self) -> str:
        """The answer the record holds (the turn's own field for a turn without one)."""
        return self.run_record().answer if self.record is not None and self.status != "running" else self.answer


class Conversation(BaseModel):
    """``tree`` holds every turn, in the order written; ``turns`` is the branch on show (the
    history the engine gets, what is drawn and exported). Given ``turns`` alone, they are one branch."""

    id: str | None = None  # the stored conversation's id, once its first turn is saved
    title: str = ""
    turns: list[Turn] = Field(default_factory=list)
    tree: list[Turn] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_branch(self) -> Conversation:
        if not self.tree:
            for before, turn in zip(self.turns, self.turns[1:], strict=False):
                turn.parent_id = turn.parent_id or before.id
            self.tree = list(self.turns)
        return self

    def _nodes(self) -> list[tuple[str, str | None]]:
        return [(turn.id, turn.parent_id) for turn in self.tree]

    def add(self, turn: Turn) -> None:
        """A new turn at the end of the branch on show."""
        turn.parent_id = self.turns[-1].id if self.turns else None
        self.turns.append(turn)
        self.tree.append(turn)

    def branch_at(self, index: int) -> None:
        """Show the branch only up to ``index`` (excluded): the next turn added is a sibling of the one there."""
        del self.turns[index:]

    def show(self, tip: str | None) -> None:
        """Show the branch through ``tip`` (the newest when None or unknown), with its newest turns below."""
        by_id = {turn.id: turn for turn in self.tree}
        self.turns = [by_id[turn_id] for turn_id in visible(self._nodes(), tip)]

    def siblings(self, turn: Turn) -> list[Turn]:
        """``turn`` and the other versions of it (edits, regenerates), oldest first."""
        by_id = {t.id: t for t in self.tree}
        return [by_id[turn_id] for turn_id in siblings(self._nodes(), turn.id) if turn_id in by_id]

    @property
    def tip(self) -> str | None:
        return self.turns[-1].id if self.turns else None

    def history(self) -> list[dict[str, Any]]:
        """OpenAI-style history for the engine: questions and final answers only, and the
        follow-ups a run took (pinned: compression keeps them)."""
        out: list[dict[str, Any]] = []
        for turn in self.turns:
            if turn.role == "user":
                out.append({"role": "user", "content": turn.content})
                continue
            taken = [f.text for f in turn.followups if f.status == "taken"]
            if taken:
                out.append({"role": "user", "content": "\n\n".join(taken), "pinned": True})
            if turn.role == "assistant" and (answer := turn.shown_answer):
                out.append({"role": "assistant", "content": answer})
        return out

    def costs(self) -> list[Cost]:
        """The conversation's total cost, one per currency; empty when no turn was priced."""
        return total_costs([turn.cost for turn in self.turns])

    @property
    def pending(self) -> Turn | None:
        """The assistant turn waiting for the user's answer, if any."""
        if self.turns and self.turns[-1].role == "assistant" and self.turns[-1].status == "suspended":
            return self.turns[-1]
        return None


def session() -> tuple[Conversation, Preferences]:
    import streamlit as st

    if "conversation" not in st.session_state:
        st.session_state.conversation = Conversation()
    if "settings" not in st.session_state:
        st.session_state.settings = Preferences()
    return st.session_state.conversation, st.session_state.settings
