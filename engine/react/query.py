"""One model call: its tokens stream out under canonical labels as they come, and the
step records what the model decided."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from engine.llm.base import LLM
from engine.react.protocols import WireProtocol
from engine.react.protocols.reader import StopStep
from engine.react.reasoning import ReasoningStream
from engine.react.run_state import RunState
from engine.react.step import Step
from engine.react.stream import StreamWriter
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry


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
    step.thought, step.model_text, step.calls = decision.thought, decision.model_text, decision.calls
    step.answer, step.answer_cut = decision.answer, decision.answer_cut
    if decision.answer is None:
        yield thinking.late_block()
    yield protocol.announce(writer, decision)
