"""What one run is asked (``RunOptions``), its serialisable state (``RunState``) and what it
gives back (``EngineResult``, with its cautions). The engine keeps nothing between calls: a
suspended run (AskUser) is this state, handed to the app and back.

The public constructor argument stays ``ragkwargs``, a dict (the seed's contract:
``ReActEngine(config, llmapikey, token, ragkwargs)``); the engine reads it once into
``RunOptions`` and uses only that. Keys it does not know are ignored, as before."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.grounding import GroundingReport
from engine.llm.base import Usage
from engine.llm.pricing import Cost
from engine.react.step import Step
from engine.react.types import ReActBlock

Status = Literal["answered", "error", "suspended", "stopped"]


class RunOptions(BaseModel):
    model_config = ConfigDict(extra="ignore")

    theme: str | None = None  # the document collection the run searches
    language: str | None = None  # the answer's language; unset: the config's
    detail: str | None = None  # brief, normal or detailed; unset: the config's
    attachments: list[Path] = Field(default_factory=list)  # the conversation's own files
    attachments_index: Path | None = None  # their index, once built

    @classmethod
    def from_ragkwargs(cls, ragkwargs: dict[str, Any] | None) -> RunOptions:
        given = dict(ragkwargs or {})
        given["attachments"] = given.get("attachments") or []
        return cls.model_validate(given)

    def style(self) -> dict[str, str]:
        """The config fields these options set: the language and detail given."""
        return {k: v for k, v in (("language", self.language), ("detail", self.detail)) if v}


class FollowUp(BaseModel):
    """A message the analyst sent while the run was going (``engine/react/followups.py``)."""

    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:10])
    text: str


class RunState(BaseModel):
    prompt: str
    mode: str  # the wire protocol's name
    messages: list[dict[str, Any]]
    tool_names: list[str]
    steps: list[Step] = Field(default_factory=list)
    iterations: int = 0
    tool_calls: int = 0
    format_retries: int = 0
    unreadable: int = 0  # consecutive replies not in the protocol's format at all
    fallen_from: str | None = None  # the protocol the run began with, when it fell back from it
    call_counts: dict[str, int] = Field(default_factory=dict)
    checklist_done: bool = False
    usage: Usage = Field(default_factory=Usage)
    elapsed_before: float = 0.0

    @property
    def observation_count(self) -> int:
        return sum(len(s.observations) for s in self.steps)


class SuspendedRun(BaseModel):
    """A run waiting for the user's reply to an ask_user question."""

    state: RunState
    question: str
    choices: list[str] | None = None
    call_id: str


CautionKind = Literal["replaced", "unsupported", "invented", "unsure", "several", "filter", "not_found", "question_cut"]


class Caution(BaseModel):
    """Something the analyst must know about the answer, shown wherever the answer is
    (with the trace hidden too). Derived once, by ``review``, from the answer's check."""

    kind: CautionKind
    text: str  # in the answer's language
    # "replaced" only: the fact that replaced the draft is verified (a computed result, a
    # figure picked from its cell or sentence and traced there, or a sentence restating the
    # question), so the reason is about the draft
    draft_only: bool = False

    @property
    def about_answer(self) -> bool:
        """False for the reason a draft was replaced by a verified fact: a note about the draft.
        A draft replaced by a quote, a sentence or a doubt stays a caution about the answer:
        the passage may not answer the question (unless the sentence restates the question
        it answers, word for word: ``engine.grounding.restated.restates_question``)."""
        return not (self.kind == "replaced" and self.draft_only)


class EngineResult(BaseModel):
    status: Status = "answered"
    answer: str = ""
    error: str | None = None
    error_source: Literal["backend", "internal"] | None = None
    blocks: list[ReActBlock] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    iterations: int = 0
    usage: Usage = Field(default_factory=Usage)
    elapsed: float = 0.0
    suspended: SuspendedRun | None = None
    backend: str = ""
    grounding: GroundingReport | None = None  # the answer's figures traced to the evidence, or flagged
    cautions: list[Caution] = Field(default_factory=list)  # what the analyst must know about the answer
    followups: list[FollowUp] = Field(default_factory=list)  # the analyst's messages this run took, in order
    followups_left: list[FollowUp] = Field(default_factory=list)  # sent too late for this run: the next turn's
    cost: Cost | None = None  # from the model's prices in models.json and the reported usage; None without either
