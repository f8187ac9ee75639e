"""Turning one model step's blocks into a decision: an answer, tool calls, or a
RetryException that tells the model what to fix."""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

from engine.errors import RetryException
from engine.tools.base import ToolRegistry

_FENCE = re.compile(r"^```[\w-]*\s*|\s*```$")


def resolve_tool_name(text: str, registry: ToolRegistry) -> tuple[str, str | None]:
    """The tool an ``Action:`` line names, and inline arguments if it holds ``tool(args)``."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = line.strip(" `*\"'[]")
    inline = None
    if "(" in line and line.endswith(")"):
        line, inline = line.split("(", 1)
        inline = inline[:-1].strip()
    name = line.strip(" `*\"'[]").strip()
    if not name:
        raise RetryException("the Action line is empty; write the tool name after 'Action:'.")
    for candidate in (name, name.lower(), name.replace(" ", "_").lower()):
        if candidate in registry:
            return candidate, inline
    if name.lower() in ("none", "n/a", "answer", "final answer"):
        raise RetryException("no tool is needed, so write 'Answer: ...' instead of an Action.")
    close = difflib.get_close_matches(name.lower(), registry.names(), n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    raise RetryException(f"there is no tool named '{name[:60]}'.{hint} The tools are: {', '.join(registry.names())}.")


def _first_json_object(text: str) -> str | None:
    start = text.find("{")
    if start < 0:
        return None
    depth, in_str, escape = 0, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def parse_action_input(text: str, tool_name: str, single_field: str | None, required: bool = True) -> dict[str, Any]:
    """Lenient JSON reading of an ``Action Input``; a bare string fills a one-string-field tool."""
    raw = _FENCE.sub("", text.strip()).strip()
    if raw.lower().startswith("json\n"):
        raw = raw[5:]
    if not raw:
        if required:
            raise RetryException(f"the Action Input for {tool_name} is empty; give its input as JSON.")
        return {}
    candidate = _first_json_object(raw)
    error = "no JSON object found"
    if candidate is not None:
        for attempt in (candidate, candidate.replace("'", '"') if '"' not in candidate else None):
            if attempt is None:
                continue
            try:
                value = json.loads(attempt)
            except ValueError as exc:
                error = str(exc)
                continue
            if isinstance(value, dict):
                return value
    elif raw.startswith("{"):
        error = "the JSON object is not closed"
    if single_field is not None and not raw.startswith("{"):
        return {single_field: raw.strip("\"'` ")}
    raise RetryException(
        f"the Action Input for {tool_name} is not valid JSON ({error[:80]}); write one JSON object on the "
        'Action Input line, e.g. {"expression": "17 * 23"}.'
    )
