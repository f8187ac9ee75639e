"""The one record of a run: typed steps.

The loop records each step once. The prompt messages (through the wire protocol),
the raw stream (through ``StreamWriter``) and so the UI blocks are derived from
these records; nothing re-parses what the engine wrote to learn what it did. A turn's
steps are kept with the stored turn (``engine.react.record``).
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from engine.llm.base import Usage
from engine.react.prompts import message
from engine.tools.results import Passage, TableData


class ToolCall(BaseModel):
    id: str
    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str | None = None  # a native call's arguments as sent, when they were not a JSON object

    @property
    def arguments_json(self) -> str:
        if self.raw_arguments is not None:
            return self.raw_arguments
        return json.dumps(self.args, ensure_ascii=False)


class ObservationStatus(StrEnum):
    OK = "ok"
    EMPTY = "empty"
    ERROR = "error"  # the tool failed or was misused; the text says how to fix it
    BLOCKED = "blocked"  # a PreToolUse hook refused the call
    NOT_RUN = "not_run"  # the loop guard refused a repeated call
    USER_REPLY = "user_reply"  # the analyst's answer to ask_user


class Observation(BaseModel):
    call_id: str
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    text: str  # exactly what the model reads (already cut to the limit)
    status: ObservationStatus = ObservationStatus.OK
    n: int = 0  # 1-based number of this Observation in the run
    passages: list[Passage] = Field(default_factory=list)
    table: TableData | None = None
    computed: bool = False
    value: str | None = None  # ToolResult.value
    statement: str | None = None  # ToolResult.statement
    server: str | None = None  # the MCP server whose tool answered; None for a built-in tool
    operands_in_input: bool = False  # the tool computes with figures its input gives (``Tool.operands_in_input``)

    @property
    def is_evidence(self) -> bool:
        return self.status in (ObservationStatus.OK, ObservationStatus.USER_REPLY)


class Note(BaseModel):
    """What the engine injects after a step: a corrective Thought or a Warning."""

    kind: Literal["thought", "warning"]
    text: str


class Step(BaseModel):
    number: int
    thought: str = ""
    reasoning: str = ""  # a reasoning model's thinking, streamed as a Thought; never the answer, never evidence
    model_text: str = ""  # the model's step as canonical ReAct text (text protocol messages)
    calls: list[ToolCall] = Field(default_factory=list)
    observations: list[Observation] = Field(default_factory=list)
    notes: list[Note] = Field(default_factory=list)
    answer: str | None = None
    answer_cut: bool = False
    feedback: str | None = None  # why the model's output could not be used
    unsure: bool = False  # the engine's own step could not apply every condition of the question
    usage: Usage = Field(default_factory=Usage)
    finish_reason: str | None = None


def observations(steps: list[Step]) -> list[Observation]:
    return [o for s in steps for o in s.observations]


def findings(steps: list[Step], limit: int = 8) -> list[str]:
    """One line per useful Observation, for a fallback answer. Documents are named, never
    quoted: their text stays in the Observations."""
    lines = []
    for obs in observations(steps):
        if not obs.is_evidence or not obs.text:
            continue
        call = f"{obs.tool}({json.dumps(obs.args, ensure_ascii=False)[:120]})"
        if obs.status is ObservationStatus.USER_REPLY:
            lines.append(message("finding_reply", text=obs.text[:200]))
        elif obs.passages:
            sources = ", ".join(dict.fromkeys(p.source for p in obs.passages))
            lines.append(message("finding_passages", call=call, n=len(obs.passages), sources=sources))
        else:
            lines.append(message("finding_result", call=call, text=obs.text[:200]))
    return lines[-limit:]
