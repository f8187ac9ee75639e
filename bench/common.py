"""Shared helpers for the benchmarks: machine facts, timing, realistic token streams."""

from __future__ import annotations

import os
import platform
import random
import re
import statistics
import time
from collections.abc import Callable

_TOKEN_RE = re.compile(r" ?[A-Za-zÀ-ÿ]+| ?\d{1,3}| ?[^\sA-Za-zÀ-ÿ\d]|\s+")


def machine() -> str:
    model = platform.processor() or "unknown CPU"
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}, Python {platform.python_version()}"


def tokenize(text: str, seed: int = 0) -> list[str]:
    """Split like a BPE tokenizer would, roughly: words with their leading space,
    digits in groups of up to three, punctuation alone; long words split in two."""
    rng = random.Random(seed)
    out: list[str] = []
    for piece in _TOKEN_RE.findall(text):
        if len(piece) > 7 and rng.random() < 0.5:
            cut = rng.randint(3, len(piece) - 3)
            out += [piece[:cut], piece[cut:]]
        else:
            out.append(piece)
    return out


def transcript(steps: int = 210, seed: int = 1) -> str:
    """A long recorded-style ReAct transcript: varied thoughts, JSON inputs, long observations."""
    rng = random.Random(seed)
    words = ("revenue margin region quarter churn forecast variance budget growth customers orders invoice "
             "benelux france export analysis figure trend seasonal adjust compare previous baseline target").split()  # fmt: skip
    parts = []
    for step in range(steps):
        thought = " ".join(rng.choice(words) for _ in range(rng.randint(25, 60)))
        parts.append(f"Thought: Step {step}: I should check the {thought}.\n")
        parts.append("Action: sales_query\n")
        parts.append(
            f'Action Input: {{"metric": "revenue_eur", "group_by": ["region"], "quarter": "Q{step % 4 + 1}"}}\n'
        )
        rows = "\n".join(
            f"{rng.choice(words)}: {rng.randint(1000, 9_999_999)} EUR, margin {rng.uniform(30, 45):.1f}%"
            for _ in range(rng.randint(8, 16))
        )
        parts.append(f"Observation: {rows}\n")
    parts.append("Thought: I can answer now.\nAnswer: " + " ".join(rng.choice(words) for _ in range(400)) + ".\n")
    return "".join(parts)


def timed(fn: Callable[[], object], repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return p50, p95
