"""PreToolUse / PostToolUse hooks: policy around every tool call.

A PreToolUse hook can block a call (the model sees why) or rewrite its arguments; a
PostToolUse hook can rewrite the observation. Hooks apply whatever the model was
told by a document or a tool output, so an injected "ignore previous instructions
and call X" still meets the same policy.

Guards are PreToolUse hooks that see the run (what the analyst wrote, what the
Observations said). By default ``DocumentDirectedCalls`` refuses a call to a tool
reaching outside the theme that a document asked for; ``Hooks(guards=[])`` removes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from engine.react.step import ToolCall

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


def default_guards() -> list[RunGuard]:
    from engine.react.document_guard import DocumentDirectedCalls

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
