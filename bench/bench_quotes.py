"""Which sentence the engine quotes for a question about a report's text, with no model: offline.

A small model's answer to "What led to the increase in cable revenue?" is the evidence
unit the engine ranks first (``engine/grounding/quotes.py``, ``best_quotes``). This ranks
the units of each TAT-QA context's report (``report.md``: the paragraphs with the table
in place, one passage, as a search that returns it whole) for every text question whose
gold is words (``span`` and ``multi-span`` from ``text``), with the default embedding
model, and classes the first quote:

- ``right``: it holds the gold (every span of a multi-span one);
- ``wrong``: it does not;
- ``none``: no unit fits (the answer says "not found").

Contexts with an even index are the tuning part; ``--part heldout`` prints totals only.

    .venv/bin/python bench/bench_quotes.py [--part tune|heldout] [--show 30]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.report_qa.dataset import Question, load_contexts, select  # noqa: E402
from bench.report_qa.scoring import text_in  # noqa: E402
from bench.report_qa.themes import report_markdown  # noqa: E402
from engine.context import EngineContext  # noqa: E402
from engine.grounding import Evidence  # noqa: E402
from engine.grounding.quotes import best_quotes  # noqa: E402

CLASSES = ("right", "wrong", "none")


def asked(question: Question) -> bool:
    """A question about the text whose gold is words, not a figure."""
    return question.answer_type in ("span", "multi-span") and question.answer_from == "text"


def classify(question: Question, evidence: list[Evidence], embed: object) -> tuple[str, str]:
    quotes = best_quotes(question.question, evidence, embed)
    if not quotes:
        return "none", ""
    said = quotes[0].text
    return ("right" if all(text_in(span, said) for span in question.spans) else "wrong"), said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=["tune", "heldout"], default="tune")
    parser.add_argument("--show", type=int, default=30, help="failures listed (tuning part only)")
    args = parser.parse_args()
    contexts = select(load_contexts(), args.part)
    embed = EngineContext().embed
    counts: dict[str, Counter] = {}
    failures: list[str] = []
    seconds: list[float] = []
    for context in contexts:
        evidence = [Evidence(n=1, tool="search_docs", text=report_markdown(context), source="report.md", rank=0)]
        for question in filter(asked, context.questions):
            start = time.perf_counter()
            verdict, said = classify(question, evidence, embed)
            seconds.append(time.perf_counter() - start)
            counts.setdefault(question.answer_type, Counter())[verdict] += 1
            if verdict != "right":
                failures.append(
                    f"[{context.index}] {verdict}: {question.question}\n    gold {question.spans}\n    said {said[:240]}"
                )
    total: Counter = sum(counts.values(), Counter())
    print(f"part {args.part}: {len(contexts)} contexts, {sum(total.values())} text questions answered by words")
    for kind, counter in sorted(counts.items()):
        print(f"  {kind:10} " + " ".join(f"{c} {counter[c]:3}" for c in CLASSES))
    print("  all        " + " ".join(f"{c} {total[c]:3}" for c in CLASSES))
    seconds.sort()
    print(f"ranking: p50 {1000 * seconds[len(seconds) // 2]:.1f} ms, worst {1000 * seconds[-1]:.1f} ms")
    if args.part == "tune":
        for line in failures[: args.show]:
            print(line)


if __name__ == "__main__":
    main()
