"""PreToolUse / PostToolUse hooks: policy around every tool call.

A PreToolUse hook can block a call (the model sees why) or rewrite its arguments; a
PostToolUse hook can rewrite the observation. Hooks apply whatever the model was
told by a document or a tool output, so an injected "ignore previous instructions
and call X" still meets the same policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.react.step import ToolCall


@dataclass
class HookDecision:
    block: str | None = None  # a reason: the call is not run and the model sees this
    args: dict[str, Any] | None = None  # replacement arguments


class PreToolUse(Protocol):
    def __call__(self, call: ToolCall) -> HookDecision | None: ...


class PostToolUse(Protocol):
    def __call__(self, call: ToolCall, observation: str) -> str | None: ...


@dataclass
class Hooks:
    pre: list[PreToolUse] = field(default_factory=list)
    post: list[PostToolUse] = field(default_factory=list)

    def before(self, call: ToolCall) -> tuple[ToolCall, str | None]:
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
