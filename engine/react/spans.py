"""The loop's model calls and tool calls, each in its own span of the run's trace
(``engine/tracing.py``); with no exporter configured the spans cost nothing measurable."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from opentelemetry.trace import Span

from engine.errors import FixableError
from engine.llm.base import LLM, LLMError, Usage
from engine.react.execute import execute
from engine.react.finalize import FinalAnswer
from engine.react.hooks import Hooks
from engine.react.protocols import WireProtocol
from engine.react.query import query
from engine.react.run_state import RunState
from engine.react.step import Observation, Step, ToolCall
from engine.react.stream import StreamWriter
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry
from engine.tracing import RunTracer


async def traced_query(
    tracing: RunTracer, parent: Span, llm: LLM, protocol: WireProtocol, config: EngineConfig,
    state: RunState, registry: ToolRegistry, writer: StreamWriter, step: Step,
) -> AsyncIterator[str]:  # fmt: skip
    """The model call of ``step``, in its own span."""
    settings = {"max_tokens": config.max_tokens_per_step, "temperature": config.temperature}
    span = tracing.model_call(parent, llm.name, llm.model, settings)
    error: BaseException | None = None
    try:
        async for token in query(llm, protocol, config, state, registry, writer, step):
            yield token
    except BaseException as exc:
        error = exc if not isinstance(exc, (FixableError, GeneratorExit, asyncio.CancelledError)) else None
        raise
    finally:
        tracing.end_model_call(span, step.usage, step.finish_reason, step.model_text or "", error)


async def traced_final(
    tracing: RunTracer, parent: Span, final: FinalAnswer, state: RunState, writer: StreamWriter, reason: str
) -> AsyncIterator[str]:
    """The forced final answer's model call, in its own span (what it spent, what it wrote, how it failed)."""
    settings = {"max_tokens": final.config.max_tokens_per_step, "temperature": final.config.temperature}
    span = tracing.model_call(parent, final.llm.name, final.llm.model, settings)
    before = state.usage.model_copy()
    try:
        async for token in final.stream(state, writer, reason):
            if token:
                yield token
    finally:
        spent = Usage(
            prompt_tokens=state.usage.prompt_tokens - before.prompt_tokens,
            completion_tokens=state.usage.completion_tokens - before.completion_tokens,
        )
        failed = LLMError(final.error, final.error_kind or "server") if final.error else None
        tracing.end_model_call(span, spent, None, final.text, failed)


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
