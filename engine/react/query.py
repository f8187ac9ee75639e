"""The loop's model calls: a step's call, whose tokens stream out under canonical labels as
they come while the step records what the model decided, and the forced final answer's.
Each runs in its own span of the run's trace (``engine/tracing.py``); with no exporter
configured the spans cost nothing measurable."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from opentelemetry.trace import Span

from engine.errors import FixableError, FormatError
from engine.llm.base import LLM, LLMError, Usage
from engine.react.finalize import FinalAnswer
from engine.react.prompts import is_placeholder, message
from engine.react.protocols import WireProtocol
from engine.react.protocols.reader import StopStep
from engine.react.run_state import RunState
from engine.react.step import Step
from engine.react.stream import ReasoningStream, StreamWriter
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry
from engine.tracing import RunTracer


async def query(
    llm: LLM,
    protocol: WireProtocol,
    config: EngineConfig,
    state: RunState,
    registry: ToolRegistry,
    writer: StreamWriter,
    step: Step,
) -> AsyncIterator[str]:
    """The model call: its tokens stream out as they come; the step records what it decided."""
    limit = config.max_tokens_per_step
    if llm.abilities.step_tokens and "max_tokens_per_step" not in config.model_fields_set:
        limit = min(limit, llm.abilities.step_tokens)
    kw: dict[str, Any] = {"max_tokens": limit, "temperature": config.temperature}
    kw.update(protocol.call_kwargs(registry, config, llm.abilities))
    reader = protocol.reader(writer)
    thinking = ReasoningStream(writer)
    meta: dict[str, Any] = {}
    replied = "assistant_prefix" in kw  # the reply has begun: thinking can no longer go live before it
    if replied:
        yield reader.feed(kw["assistant_prefix"])
    stream = llm.astream_generate(state.messages, **kw)
    try:
        async for chunk in stream:
            if "meta" in chunk:
                meta = chunk["meta"] or {}
                continue
            if chunk.get("reasoning"):
                yield thinking.feed(chunk["reasoning"], replied)
            delta = chunk.get("delta", "")
            if delta and not replied:
                replied = True
                yield thinking.end()
            yield reader.feed(delta)
        yield thinking.end() + reader.close()
    except StopStep:
        meta.setdefault("finish_reason", "stop")
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()
    step.reasoning = thinking.text
    step.usage.add(meta.get("usage") or {})
    state.usage.add(meta.get("usage") or {})
    step.finish_reason = meta.get("finish_reason")
    yield protocol.finish(reader, meta)
    decision = protocol.interpret(reader, meta, registry)
    if decision.answer is not None and is_placeholder(decision.answer):
        raise FormatError(message("format_answer_placeholder", placeholder=message("answer_placeholder")))
    step.thought, step.model_text, step.calls = decision.thought, decision.model_text, decision.calls
    step.answer, step.answer_cut = decision.answer, decision.answer_cut
    if decision.answer is None:
        yield thinking.late_block()
    yield protocol.announce(writer, decision)


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
