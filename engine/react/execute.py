"""Running one tool call. Every failure becomes an Observation the model can act on,
with a typed status; only cancellation (a Stop) escapes."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine.errors import ToolError
from engine.llm.base import Abilities
from engine.react.hooks import Hooks
from engine.react.prompts import render
from engine.react.run_state import RunState
from engine.react.step import Observation, ObservationStatus, ToolCall
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry
from engine.tools.results import ToolResult


def call_key(name: str, args: dict[str, Any]) -> str:
    return hashlib.sha1(f"{name}:{json.dumps(args, sort_keys=True, default=str)}".encode()).hexdigest()[:16]


def cut(text: str, limit: int) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    return text[:limit].rstrip() + "\n" + render("observation_cut", n=len(text) - limit)


async def execute(
    call: ToolCall,
    registry: ToolRegistry,
    state: RunState,
    config: EngineConfig,
    hooks: Hooks,
    max_chars: int,
    n: int,
) -> Observation:
    """Run one tool call; ``n`` is the Observation's number in the run (calls of one step
    run concurrently, so each is numbered before any of them is recorded)."""
    state.tool_calls += 1
    key = call_key(call.name, call.args)
    count = state.call_counts.get(key, 0) + 1
    state.call_counts[key] = count
    tool = registry.get(call.name)
    asked = call
    status, result = ObservationStatus.ERROR, None
    if tool is None:
        text = render("unknown_tool", tool=call.name, tools=", ".join(registry.names()))
    elif call.raw_arguments is not None:
        text = render("invalid_arguments", tool=call.name)
    elif count >= config.cycle_block_at:
        status, text = ObservationStatus.NOT_RUN, render("cycle_blocked", tool=call.name, count=count - 1)
    else:
        call, blocked = hooks.before(call, tool, state, config.language)
        if blocked:
            status, text = ObservationStatus.BLOCKED, render("tool_blocked", reason=blocked)
        else:
            try:
                value = await tool.acall(call.args, config.tool_timeout_s)
                result = value if isinstance(value, ToolResult) else ToolResult(text=value)
                status, text = ObservationStatus.OK, result.text
            except ToolError as exc:
                text = render("tool_error", message=exc.message)
            except TimeoutError:
                text = render("tool_timeout", tool=call.name, seconds=f"{config.tool_timeout_s:g}")
            except Exception as exc:
                text = render("tool_failed", tool=call.name, kind=type(exc).__name__, detail=str(exc)[:200])
            rewritten = hooks.after(call, text)
            if rewritten != text:
                text, result = rewritten, None
    text = cut(text, max_chars)
    if status is ObservationStatus.OK and not text:
        status = ObservationStatus.EMPTY
    observation = Observation(
        call_id=asked.id,
        tool=asked.name,
        args=asked.args,
        text=text,
        status=status,
        n=n,
        computed=bool(tool is not None and tool.computes and status is ObservationStatus.OK),
        server=tool.server if tool is not None else None,
        operands_in_input=bool(tool is not None and tool.operands_in_input),
    )
    if result is not None and status is ObservationStatus.OK:
        observation.passages = result.passages
        observation.table = result.table
        observation.computed = observation.computed or result.computed
        observation.value, observation.statement = result.value, result.statement
    return observation


def observation_budget(config: EngineConfig, abilities: Abilities) -> int:
    """The longest Observation the model reads: the setting when set, else what the backend declares it copes with."""
    if "observation_max_chars" in config.model_fields_set or not abilities.observation_chars:
        return config.observation_max_chars
    return abilities.observation_chars
