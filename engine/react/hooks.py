"""PreToolUse / PostToolUse hooks: policy around every tool call.

A PreToolUse hook can block a call (the model sees why) or rewrite its arguments; a
PostToolUse hook can rewrite the observation. Hooks apply whatever the model was
told by a document or a tool output, so an injected "ignore previous instructions
and call X" still meets the same policy.

Guards are PreToolUse hooks that see the run (what the analyst wrote, what the
Observations said). By default ``DocumentDirectedCalls`` refuses a call to a tool
reaching outside the theme that a document asked for; ``Hooks(guards=[])`` removes it.

The document guard: documents and tool outputs are untrusted, so a passage saying "call
disk_usage on /etc" must not become that call because an obedient model read it. A tool
declaring ``reaches_outside`` (every MCP tool: the machine, a network, live data) is
refused when its name or one of its argument values appears in what the run's
Observations said but not in what the analyst wrote (the question, earlier turns, answers
to ask_user); a value the tool's own schema offers (an enum) is the tool's, not a
document's. The model is told why and may ask the analyst, whose yes makes the call
theirs. Tools that stay inside the theme (search, tables, calculators) are not concerned:
their reach is the theme itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from engine.react.prompts import message
from engine.react.step import ObservationStatus, ToolCall

if TYPE_CHECKING:
    from engine.react.run_state import RunState
    from engine.tools.base import Tool


@dataclass
class HookDecision:
    block: str | None = None  # a reason: the call is not run and the model sees this
    args: dict[str, Any] | None = None  # replacement arguments


class PreToolUse(Protocol):
    def __call__(self, call: ToolCall) -> HookDecision | None: ...


class PostToolUse(Protocol):
    def __call__(self, call: ToolCall, observation: str) -> str | None: ...


class RunGuard(Protocol):
    def __call__(self, call: ToolCall, tool: Tool | None, state: RunState, language: str) -> HookDecision | None: ...


# ---- the document guard -------------------------------------------------------------
MIN_VALUE_CHARS = 4  # shorter values ("Q3", "/", "en") say nothing about where they came from


def _loose(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def analyst_text(state: RunState) -> str:
    """What the analyst wrote in this run: earlier turns, the question, answers to ask_user
    (with the question they answered)."""
    parts: list[str] = []
    for m in state.messages:
        if m.get("role") != "user":
            continue
        parts.append(str(m.get("content", "")))
        if m.get("content") == state.prompt:
            break
    parts.append(state.prompt)
    for step in state.steps:
        replies = [o for o in step.observations if o.status is ObservationStatus.USER_REPLY]
        if replies:
            parts += [o.text for o in replies] + [s for c in step.calls for s in _strings(c.args)]
    return "\n".join(parts)


def observed_text(state: RunState) -> str:
    """What documents and tools said in this run (untrusted)."""
    return "\n".join(
        o.text for step in state.steps for o in step.observations if o.status is not ObservationStatus.USER_REPLY
    )


class DocumentDirectedCalls:
    """Blocks a call to a tool that reaches outside the theme when a document asked for it."""

    def __call__(self, call: ToolCall, tool: Tool | None, state: RunState, language: str) -> HookDecision | None:
        if tool is None or not tool.reaches_outside:
            return None
        observed = observed_text(state)
        if not observed:
            return None
        analyst = analyst_text(state)
        analyst_loose, observed_lower = _loose(analyst), observed.lower()
        names = {call.name, getattr(getattr(tool, "info", None), "name", call.name)}
        for name in names:
            named = re.search(rf"(?<![\w]){re.escape(name.lower())}(?![\w])", observed_lower)
            if named and _loose(name) not in analyst_loose:
                return HookDecision(block=message("blocked_document_tool", language, tool=call.name))
        offered = json.dumps(tool.json_schema(), ensure_ascii=False).lower()  # its enum values are not a document's
        for value in _strings(call.args):
            value = value.strip()
            if len(value) < MIN_VALUE_CHARS or json.dumps(value.lower(), ensure_ascii=False) in offered:
                continue
            if value.lower() in observed_lower and value.lower() not in analyst.lower():
                return HookDecision(
                    block=message("blocked_document_argument", language, tool=call.name, value=value[:80])
                )
        return None


def default_guards() -> list[RunGuard]:
    return [DocumentDirectedCalls()]


@dataclass
class Hooks:
    pre: list[PreToolUse] = field(default_factory=list)
    post: list[PostToolUse] = field(default_factory=list)
    guards: list[RunGuard] = field(default_factory=default_guards)

    def before(
        self, call: ToolCall, tool: Tool | None = None, state: RunState | None = None, language: str = "en"
    ) -> tuple[ToolCall, str | None]:
        if state is not None:
            for guard in self.guards:
                decision = guard(call, tool, state, language)
                if decision is not None and decision.block:
                    return call, decision.block
        for hook in self.pre:
            decision = hook(call)
            if decision is None:
                continue
            if decision.block:
                return call, decision.block
            if decision.args is not None:
                call = call.model_copy(update={"args": decision.args})
        return call, None

    def after(self, call: ToolCall, observation: str) -> str:
        for hook in self.post:
            rewritten = hook(call, observation)
            if rewritten is not None:
                observation = rewritten
        return observation
