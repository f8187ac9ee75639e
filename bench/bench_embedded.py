"""3. The embedded model (Gemma 3 270M Q4_K_M, llama.cpp): decode speed through our
engine vs a bare llama-cpp-python call on the same prompt, and time to first token
of step 2 vs step 1 of one run (the KV cache of the previous step is reused)."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from engine.llm.base import BaseLLM  # noqa: E402
from engine.llm.embedded import EmbeddedLLM, default_model_path, load_llama, render_prompt  # noqa: E402
from engine.react.agent import ReActEngine  # noqa: E402
from engine.settings import EngineConfig  # noqa: E402
from engine.tools.toolkits import general_toolkit  # noqa: E402

MAX_TOKENS = 96


class Timed(BaseLLM):
    """Delegates to the embedded backend and records when each call's first token came."""

    def __init__(self, inner: EmbeddedLLM) -> None:
        self.inner = inner
        self.name, self.model = inner.name, inner.model
        # decode speed through the loop: the model's own steps, not the engine's evidence-first shortcuts
        self.abilities = inner.abilities.model_copy(update={"small": False, "max_steps": None})
        self.calls: list[dict] = []

    def stream_generate(self, messages, **kw):
        record = {
            "start": time.perf_counter(),
            "first": None,
            "last": None,
            "tokens": 0,
            "messages": messages,
            "kw": kw,
        }
        self.calls.append(record)
        for chunk in self.inner.stream_generate(messages, **kw):
            if chunk.get("delta"):  # one chunk per token; a step the engine ends early has no final usage
                now = time.perf_counter()
                record["first"] = record["first"] or now
                record["last"] = now
                record["tokens"] += 1
            yield chunk


def engine_run(question: str) -> Timed:
    llm = Timed(EmbeddedLLM())
    engine = ReActEngine(
        config=EngineConfig(temperature=0.0, max_tokens_per_step=MAX_TOKENS, max_iterations=3),
        llm=llm,
        tools=general_toolkit(),
    )

    async def go() -> None:
        async for _ in engine.stream(question):
            pass

    asyncio.run(go())
    return llm


def bare(prompt: str, stop: list[str]) -> tuple[float, int]:
    llama = load_llama(default_model_path())
    first = last = None
    tokens = 0
    for chunk in llama.create_completion(
        prompt,
        max_tokens=MAX_TOKENS,
        temperature=0.0,
        top_k=40,
        top_p=0.95,
        repeat_penalty=1.1,
        stop=stop,
        stream=True,
    ):
        if chunk["choices"][0].get("text"):
            now = time.perf_counter()
            first = first or now
            last = now
            tokens += 1
    return (last - first), tokens


def main() -> None:
    print(f"machine: {machine()}")
    load_llama(default_model_path())
    # TTFT: a fresh question, so step 1 has nothing cached.
    run = engine_run("What is 48 * 12?")
    ttft = [c["first"] - c["start"] for c in run.calls if c["first"]]
    if len(ttft) >= 2:
        print(
            f"time to first token: step 1 {ttft[0] * 1e3:.0f} ms, step 2 {ttft[1] * 1e3:.0f} ms (ratio {ttft[1] / ttft[0]:.2f})"
        )
    # Decode: the same prompt through the engine and bare, alternating, best of 3.
    ours_rates, bare_rates = [], []
    for i in range(3):
        question = f"Explain in detail why revenue can grow while margin falls, case {i}."
        llama = load_llama(default_model_path())
        llama.reset()
        run = engine_run(question)
        first = run.calls[0]
        if first["tokens"] > 1 and first["last"] > first["first"]:
            ours_rates.append((first["tokens"] - 1) / (first["last"] - first["first"]))
        prompt = render_prompt(first["messages"], first["kw"].get("assistant_prefix", ""))
        llama.reset()
        seconds, tokens = bare(prompt, list(first["kw"].get("stop") or []))
        if tokens > 1 and seconds > 0:
            bare_rates.append((tokens - 1) / seconds)
    ours, theirs = max(ours_rates), max(bare_rates)
    print(
        f"decode through the engine: {ours:.1f} tokens/s; bare llama-cpp-python: {theirs:.1f} tokens/s; ratio {ours / theirs:.2f}"
    )


if __name__ == "__main__":
    main()
