"""Reading the tool call a model wrote in text: the tool's name and its Action Input."""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

import json_repair

from engine.errors import FormatError
from engine.react.prompts import message
from engine.tools.base import ToolRegistry

_WHOLE_FENCE = re.compile(r"```[\w-]*[ \t]*\n?(.*?)\n?[ \t]*```", re.DOTALL)


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
        raise FormatError(message("format_action_empty"))
    for candidate in (name, name.lower(), name.replace(" ", "_").lower()):
        if candidate in registry:
            return candidate, inline
    if name.lower() in ("none", "n/a", "answer", "final answer"):
        raise FormatError(message("format_no_tool_needed"))
    close = difflib.get_close_matches(name.lower(), registry.names(), n=1)
    hint = message("format_did_you_mean", name=close[0]) if close else ""
    raise FormatError(message("format_unknown_tool", name=name[:60], hint=hint, tools=", ".join(registry.names())))


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


def strip_fence(text: str) -> str:
    """The input without a code fence around it: both fences go, or neither (an
    opening fence whose closing fence was cut off goes alone)."""
    text = text.strip()
    whole = _WHOLE_FENCE.fullmatch(text)
    if whole:
        text = whole.group(1).strip()
    elif text.startswith("```") and text.count("```") == 1:
        text = text.split("\n", 1)[1].strip() if "\n" in text else text[3:].strip()
    if text.lower().startswith("json\n"):
        text = text[5:].lstrip()
    return text


def _json_object(candidate: str) -> dict[str, Any] | None:
    """A JSON object, read strictly, then leniently (literal newlines in strings), then repaired."""
    for attempt in (lambda: json.loads(candidate), lambda: json.loads(candidate, strict=False)):
        try:
            value = attempt()
        except ValueError:
            continue
        return value if isinstance(value, dict) else None
    try:
        value = json_repair.loads(candidate)
    except Exception:  # the repair library gives up: the model is asked to fix it
        return None
    return value if isinstance(value, dict) and (value or candidate.replace(" ", "") == "{}") else None


def parse_action_input(text: str, tool_name: str, single_field: str | None, required: bool = True) -> dict[str, Any]:
    """Tolerant reading of an ``Action Input``: JSON, repaired JSON, or a bare string
    that fills a one-string-field tool (kept as written, quotes and backticks included)."""
    raw = strip_fence(text)
    if not raw:
        if required:
            raise FormatError(message("format_input_empty", tool=tool_name))
        return {}
    if raw.startswith("{") or (single_field is None and "{" in raw):
        candidate = _first_json_object(raw) or raw[raw.find("{") :]
        value = _json_object(candidate)
        if value is not None:
            return value
    elif single_field is not None:
        if raw.startswith('"') and raw.endswith('"') and len(raw) > 1:
            try:
                decoded = json.loads(raw)
            except ValueError:
                decoded = None
            if isinstance(decoded, str):
                return {single_field: decoded}
        return {single_field: raw}
    raise FormatError(message("format_input_not_json", tool=tool_name))
