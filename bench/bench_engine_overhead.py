"""2. Engine overhead per step: an instant scripted LLM, 5-step runs (4 tool calls then
an answer), repeated. Ours vs LlamaIndex's ReActAgent driven by the same script
through a custom LLM class, same calculator function, same run. Then ours with tracing
off (no exporter: the OpenTelemetry API's no-op tracer) and on (the SDK, a batch
processor and an in-memory exporter), alternated in the same run."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402

RUNS = 60
STEPS = 5


def script() -> list[str]:
    steps = [
        f"Thought: I need step {i}.\nAction: calculator\nAction Input: {json.dumps({'expression': f'{i} * 7'})}"
        for i in range(STEPS - 1)
    ]
    return steps + ["Thought: I can answer without using any more tools.\nAnswer: The total is 42."]


def calculator(expression: str) -> str:
    """Evaluates an arithmetic expression."""
    from engine.tools.calculator import evaluate

    return str(evaluate(expression))


def bench_ours(tracer=None) -> float:
    from engine.llm.scripted import ScriptedLLM
    from engine.react.agent import ReActEngine
    from engine.settings import EngineConfig
    from engine.tools.toolkits import general_toolkit
    from engine.tracing import RunTracer

    tools = general_toolkit()
    tracer = tracer or RunTracer()

    async def all_runs() -> None:
        for _ in range(RUNS):
            engine = ReActEngine(
                config=EngineConfig(),
                llm=ScriptedLLM(script(), chunk_chars=10_000, record=False),
                tools=tools,
                tracer=tracer,
            )
            async for _token in engine.stream("What is the total?"):
                pass
            assert engine.result.answer == "The total is 42.", engine.result

    async def warm() -> None:
        engine = ReActEngine(
            config=EngineConfig(), llm=ScriptedLLM(script(), chunk_chars=10_000, record=False), tools=tools
        )
        async for _ in engine.stream("warm up"):
            pass

    asyncio.run(warm())
    start = time.perf_counter()
    asyncio.run(all_runs())
    return (time.perf_counter() - start) / (RUNS * STEPS)


def bench_llamaindex() -> float:
    from typing import Any

    from llama_index.core.agent.workflow import ReActAgent
    from llama_index.core.llms import CompletionResponse, CompletionResponseGen, CustomLLM, LLMMetadata
    from llama_index.core.llms.callbacks import llm_completion_callback
    from llama_index.core.tools import FunctionTool

    class ScriptLLM(CustomLLM):
        replies: list[str] = []

        @property
        def metadata(self) -> LLMMetadata:
            return LLMMetadata(is_chat_model=False, context_window=32000, num_output=512)

        @llm_completion_callback()
        def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
            return CompletionResponse(text=self.replies.pop(0))

        @llm_completion_callback()
        def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
            text = self.replies.pop(0)

            def gen() -> CompletionResponseGen:
                yield CompletionResponse(text=text, delta=text)

            return gen()

    tool = FunctionTool.from_defaults(fn=calculator, name="calculator")

    async def one() -> str:
        agent = ReActAgent(tools=[tool], llm=ScriptLLM(replies=script()), streaming=True)
        handler = agent.run(user_msg="What is the total?")
        result = await handler
        return str(result)

    async def all_runs() -> None:
        for _ in range(RUNS):
            answer = await one()
            assert "42" in answer, answer

    asyncio.run(one())  # warm up
    start = time.perf_counter()
    asyncio.run(all_runs())
    return (time.perf_counter() - start) / (RUNS * STEPS)


def bench_tracing(rounds: int = 5) -> tuple[float, float, int]:
    """Per-step overhead with tracing off and on, alternated; the best of ``rounds`` each."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from engine.tracing import RunTracer

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(exporter))
    on_tracer = RunTracer(provider.get_tracer("bench"))
    off, on = [], []
    for _ in range(rounds):
        off.append(bench_ours(RunTracer()))
        on.append(bench_ours(on_tracer))
    provider.force_flush()
    spans = len(exporter.get_finished_spans())
    provider.shutdown()
    return min(off), min(on), spans


def main() -> None:
    print(f"machine: {machine()}")
    print(f"{RUNS} runs x {STEPS} steps, instant scripted LLM, same calculator")
    if "--tracing" in sys.argv[1:]:  # tracing off vs on only (no LlamaIndex needed)
        report_tracing()
        return
    ours = bench_ours()
    print(f"ours: {ours * 1e3:.3f} ms per step")
    theirs = bench_llamaindex()
    print(f"baseline (LlamaIndex ReActAgent): {theirs * 1e3:.3f} ms per step")
    print(f"ratio baseline/ours: {theirs / ours:.1f}x lower overhead")
    report_tracing()


def bench_off_path(n: int = 100_000) -> float:
    """Seconds per step spent in the tracing calls of one step (a model call and a tool
    call, a fifth of the turn's span) when no exporter is configured."""
    from engine.llm.base import Usage
    from engine.react.step import Observation
    from engine.tracing import RunTracer

    tracer, usage = RunTracer(), Usage()
    observation = Observation(call_id="c", tool="calculator", text="7")
    kw = {"max_tokens": 512, "temperature": 0.2}
    start = time.perf_counter()
    for _ in range(n):
        turn = tracer.turn("scripted", "script", "q")
        span = tracer.model_call(turn, "scripted", "script", kw)
        tracer.end_model_call(span, usage, "stop", "text")
        span = tracer.tool_call(turn, "calculator", "c", {})
        tracer.end_tool_call(span, observation)
        tracer.end_turn(turn, "answered", usage, 1, None)
    return (time.perf_counter() - start) / n


def report_tracing() -> None:
    off_path = bench_off_path()
    off, on, spans = bench_tracing()
    print(
        f"tracing calls of a step with no exporter: {off_path * 1e6:.2f} us "
        f"({off_path / off * 100:.2f}% of the step, counting a whole turn span per step)"
    )
    print(f"ours, tracing off (no exporter): {off * 1e3:.3f} ms per step")
    print(f"ours, tracing on (SDK, batch processor, {spans} spans exported): {on * 1e3:.3f} ms per step")
    print(f"tracing on costs {(on / off - 1) * 100:+.1f}% per step")


if __name__ == "__main__":
    main()
