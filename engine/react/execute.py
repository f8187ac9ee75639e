"""Running one tool call. Every failure becomes an Observation the model can act on,
with a typed status; only cancellation (a Stop) escapes. Each call runs in its own span
of the run's trace. After the results, the notes
the engine adds (an empty result, a loop of identical calls, a periodic reflection, a
one-time answer checklist). ask_user is the one call the engine does not run: it
suspends the run, and the analyst's reply resumes it as the call's Observation."""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from opentelemetry.trace import Span

from engine.errors import ToolError
from engine.llm.base import Abilities
from engine.react.hooks import Hooks
from engine.react.prompts import message, render
from engine.react.run_state import RunState, SuspendedRun
from engine.react.step import Note, Observation, ObservationStatus, ToolCall
from engine.settings import EngineConfig
from engine.tools.ask_user import ASK_USER, AskUserArgs
from engine.tools.base import ToolRegistry
from engine.tools.results import ToolResult
from engine.tracing import RunTracer


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


async def traced_execute(
    tracing: RunTracer, parent: Span, call: ToolCall, registry: ToolRegistry, state: RunState,
    config: EngineConfig, hooks: Hooks, observation_chars: int, n: int,
) -> Observation:  # fmt: skip
    """One tool call, in its own span."""
    span = tracing.tool_call(parent, call.name, call.id, call.args)
    try:
        observation = await execute(call, registry, state, config, hooks, observation_chars, n)
    except BaseException as exc:
        tracing.end_tool_call(span, error=exc)
        raise
    tracing.end_tool_call(span, observation)
    return observation


async def run_calls(
    tracing: RunTracer, parent: Span, calls: list[ToolCall], registry: ToolRegistry, state: RunState,
    config: EngineConfig, hooks: Hooks, observation_chars: int,
) -> list[Observation]:  # fmt: skip
    """A step's tool calls, run concurrently, each numbered before any of them runs."""
    first = state.observation_count + 1
    return list(
        await asyncio.gather(
            *(
                traced_execute(tracing, parent, c, registry, state, config, hooks, observation_chars, first + i)
                for i, c in enumerate(calls)
            )
        )
    )


def observation_budget(config: EngineConfig, abilities: Abilities) -> int:
    """The longest Observation the model reads: the setting when set, else what the backend declares it copes with."""
    if "observation_max_chars" in config.model_fields_set or not abilities.observation_chars:
        return config.observation_max_chars
    return abilities.observation_chars


# ---- after the results --------------------------------------------------------------
def notes_after(state: RunState, observation: Observation, config: EngineConfig) -> list[Note]:
    notes: list[Note] = []
    if observation.status is ObservationStatus.EMPTY:
        notes.append(Note(kind="thought", text=render("empty_observation", tool=observation.tool)))
    count = state.call_counts.get(call_key(observation.tool, observation.args), 0)
    if count == config.cycle_warn_at:
        notes.append(Note(kind="warning", text=render("cycle_warning", tool=observation.tool, count=count)))
    if state.tool_calls % config.reflection_every == 0:
        notes.append(Note(kind="thought", text=render("reflection", count=state.tool_calls)))
    if not state.checklist_done and state.tool_calls >= config.checklist_after_tools:
        state.checklist_done = True
        notes.append(Note(kind="thought", text=render("checklist")))
    return notes


# ---- ask_user: the call that suspends the run -----------------------------------------
class Suspended(Exception):
    """ask_user was called: the run waits for the analyst's reply."""

    def __init__(self, suspended: SuspendedRun) -> None:
        super().__init__(suspended.question)
        self.suspended = suspended


def question_of(calls: list[ToolCall]) -> tuple[ToolCall, AskUserArgs] | None:
    call = next((c for c in calls if c.name == ASK_USER), None)
    if call is None:
        return None
    try:
        return call, AskUserArgs.model_validate(call.args)
    except Exception:
        raise ToolError(message("ask_user_args")) from None


def suspend(state: RunState, call: ToolCall, args: AskUserArgs) -> Suspended:
    return Suspended(SuspendedRun(state=state, question=args.question, choices=args.choices, call_id=call.id))


def reply_observation(state: RunState, suspended: SuspendedRun, answer: str) -> tuple[ToolCall, Observation]:
    """The analyst's reply as the Observation of the suspended ask_user call, recorded on its step."""
    step = state.steps[-1]
    call = next(c for c in step.calls if c.id == suspended.call_id)
    observation = Observation(
        call_id=call.id,
        tool=ASK_USER,
        args=call.args,
        text=answer.strip() or message("user_no_answer"),
        status=ObservationStatus.USER_REPLY,
        n=state.observation_count + 1,
    )
    step.observations.append(observation)
    return call, observation
