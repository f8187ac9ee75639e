"""Argument validation whose error message stays one short sentence, whatever the input.

A huge or deeply wrong argument (120,000 bad list items) makes pydantic report one
problem per item; the model needs only the first few, each cut short.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from engine.errors import ToolError
from engine.tools.base import Tool
from engine.tools.messages import say

MAX_PROBLEMS = 3
MAX_PART_CHARS = 80


def _short(text: str) -> str:
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= MAX_PART_CHARS else text[: MAX_PART_CHARS - 1] + "…"


def describe_briefly(tool: str, error: ValidationError) -> str:
    """The first problems of ``error``, naming each argument, then how many more there are."""
    problems = error.errors(include_url=False, include_input=False)
    parts = []
    for err in problems[:MAX_PROBLEMS]:
        where = _short(".".join(str(p) for p in err.get("loc", ())) or "input")
        parts.append(say("args_problem", where=where, problem=_short(str(err.get("msg", "invalid")))))
    more = len(problems) - MAX_PROBLEMS
    suffix = say("args_more", n=more) if more > 0 else ""
    return say("args_invalid", tool=tool, problems="; ".join(parts) + suffix)


class BoundedTool(Tool):
    """A ``Tool`` whose validation errors are bounded in size."""

    def validate(self, raw: dict[str, Any]) -> BaseModel:
        try:
            return self.Args.model_validate(raw)
        except ValidationError as exc:
            raise ToolError(describe_briefly(self.name, exc)) from None
