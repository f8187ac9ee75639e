"""How the fact-first answer picks its figure from the passage that holds the gold answer.

For every TAT-QA question whose gold answer is one figure read from one table cell or
one sentence, the row (with the table's first row as its header) or the sentence is
handed to ``stated_fact`` as the best quote, as a small model's replaced answer would be.
Each pick is classed:

- ``stated``: the one figure stated is the gold figure;
- ``not_sure``: several candidates, the gold one among them (the answer says "Not sure");
- ``wrong``: one figure stated, not the gold one (confidently wrong at this step);
- ``missed``: candidates without the gold figure, or no figure at all.

Contexts with an even index are the tuning part; ``--held-out`` reports on the odd ones,
which nobody tunes on (aggregate counts only).

    .venv/bin/python bench/bench_facts.py [--held-out]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.grounding.facts import stated_fact  # noqa: E402
from engine.grounding.figures import extract_figures  # noqa: E402
from engine.grounding.models import Quote  # noqa: E402
from engine.grounding.units import unit_spans  # noqa: E402

DATA = Path("/work/shared/datasets/report-qa/tatqa_test_gold.json")
CLASSES = ("stated", "not_sure", "wrong", "missed")


def _values(text: str) -> set[str]:
    """The numbers of the figures in ``text`` as written, without sign, currency or scale word
    (the gold answer gives its scale apart: "5.7" for "$5.7 million")."""
    out = set()
    for found in extract_figures(text.replace("(", "").replace(")", "")):
        number = re.search(r"\d[\d,. \u00a0]*", found.text)
        if number:
            out.add(re.sub(r"[, \u00a0]", "", number.group(0)).rstrip("."))
    return out


def _quote(text: str) -> Quote:
    return Quote(text=text, evidence=1, source="report.md", score=1.0, preface="")


def _table_passage(context: dict, question: dict) -> str | None:
    cells = [m["table"] for m in question["mappings"] if "table" in m]
    if len(cells) != 1 or len(cells[0]) != 2 or not isinstance(cells[0][0], int):
        return None  # the answer is one cell
    row, _ = cells[0]
    table = context["table"]["table"]
    if row == 0:
        return None
    return " | ".join(table[0]) + "\n" + " | ".join(table[row])


def _text_passage(context: dict, question: dict) -> str | None:
    """The sentence holding the gold answer, when one paragraph span holds it."""
    spans = [(k, v) for m in question["mappings"] for k, v in m.items() if k.startswith("paragraph")]
    if len(spans) != 1 or not spans[0][1] or not isinstance(spans[0][1][0], int):
        return None
    key, (start, _) = spans[0][0], spans[0][1][:2]
    order = key.split("_")[1]
    paragraph = next((p["text"] for p in context["paragraphs"] if str(p["order"]) == order), None)
    if paragraph is None:
        return None
    for s, e, _ in unit_spans(paragraph):
        if s <= start < e:
            return " ".join(paragraph[s:e].split())  # a sentence unit is one line
    return None


def classify(question: dict, passage: str) -> str | None:
    gold = _values(str(question["answer"][0] if isinstance(question["answer"], list) else question["answer"]))
    if len(gold) != 1:
        return None
    fact = stated_fact(question["question"], _quote(passage))
    values = [_values(c.figure or c.text) for c in fact.candidates]
    if fact.picked is not None:
        return "stated" if gold & values[0] else "wrong"
    if fact.several and any(gold & v for v in values):
        return "not_sure"
    return "missed"


def run(held_out: bool) -> dict[str, Counter]:
    contexts = json.loads(DATA.read_text(encoding="utf-8"))
    counts: dict[str, Counter] = {"table": Counter(), "text": Counter()}
    for i, context in enumerate(contexts):
        if (i % 2 == 1) != held_out:
            continue
        for question in context["questions"]:
            if question["answer_type"] != "span" or question["answer_from"] not in counts:
                continue
            source = question["answer_from"]
            passage = (_table_passage if source == "table" else _text_passage)(context, question)
            verdict = classify(question, passage) if passage else None
            if verdict is not None:
                counts[source][verdict] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--held-out", action="store_true", help="the odd contexts nobody tunes on")
    args = parser.parse_args()
    counts = run(args.held_out)
    print(f"part: {'held-out (odd contexts)' if args.held_out else 'tuning (even contexts)'}")
    for source, counter in counts.items():
        total = sum(counter.values())
        shares = " · ".join(f"{c} {counter[c]} ({100 * counter[c] / max(total, 1):.0f}%)" for c in CLASSES)
        print(f"{source:5} n={total:4}  {shares}")


if __name__ == "__main__":
    main()
