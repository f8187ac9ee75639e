"""The answer check on real report extracts (TAT-QA, development half only): offline, no model.

For each arithmetic question of an even-index context (odd ones are held out and never
read), the evidence is built the way the engine sees it: the table rendered as pipe rows
under its header (a table tool's output), each paragraph a passage. The gold answer is
checked (it should be vouched: "verified"), and the gold answer times 1.12 (it should be
flagged). Prints both rates and the failures.

    python bench/grounding_tatqa.py [--limit 150] [--show 20]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.grounding import Evidence, check_answer  # noqa: E402
from engine.grounding.figures import extract_figures  # noqa: E402

_ROOT = Path(__file__).resolve().parents[1]
_DATA = Path("shared") / "datasets" / "report-qa" / "tatqa_test_gold.json"
DATA = next((up / _DATA for up in _ROOT.parents if (up / _DATA).exists()), _ROOT.parent / _DATA)
_SCALE_WORDS = {"thousand": " thousand", "million": " million", "billion": " billion", "percent": "%"}


def evidence_of(context: dict) -> list[Evidence]:
    rows = context["table"]["table"]
    table = "\n".join(" | ".join(" ".join(str(cell).split()) for cell in row) for row in rows)
    out = [Evidence(n=1, tool="query_table", text=table, source="table.csv", computed=True)]
    for p in sorted(context["paragraphs"], key=lambda p: p["order"]):
        out.append(
            Evidence(n=len(out) + 1, tool="search_docs", text=p["text"], source="report.md", location=f"¶ {p['order']}")
        )
    return out


def written(value: Decimal, decimals: int, scale: str) -> str:
    number = f"{abs(value):,.{decimals}f}"
    return number + _SCALE_WORDS.get(scale, "")


def cases(path: Path, limit: int, kind: str = "arithmetic") -> list[tuple[int, dict, list[Evidence]]]:
    """``kind`` "arithmetic": computed answers; "span": answers that quote one figure of the evidence."""
    contexts = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for i in range(0, len(contexts), 2):  # even indexes only: the odd ones are held out
        evidence = evidence_of(contexts[i])
        for q in contexts[i]["questions"]:
            answer = q["answer"]
            if kind == "arithmetic" and q["answer_type"] == "arithmetic" and isinstance(answer, int | float):
                if answer != 0:  # 12% off zero is zero
                    out.append((i, q, evidence))
            elif kind == "span" and q["answer_type"] == "span" and len(answer) == 1 and _one_figure(answer[0]):
                out.append((i, q, evidence))
    step = max(1, len(out) // limit)
    return out[::step][:limit]


def _one_figure(text: str) -> bool:
    return len(extract_figures(text)) == 1 and len(text) < 40


def literal_alarms(path: Path, limit: int) -> tuple[int, list[tuple]]:
    """Right answers that quote one figure ("$0.5 million"): how many the check flags."""
    rows = cases(path, limit, "span")
    alarms = []
    for i, q, evidence in rows:
        answer = f"The answer is {q['answer'][0]}."
        report = check_answer(answer, q["question"], evidence)
        if report.grounding != "verified":
            alarms.append((i, q["question"], answer, report.unsupported, report.notes))
    return len(rows), alarms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--show", type=int, default=20)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    rows = cases(args.data, args.limit)
    vouched, flagged = 0, 0
    missed_right, missed_wrong = [], []
    costs = []
    for i, q, evidence in rows:
        gold = Decimal(str(q["answer"]))
        decimals = max(0, -gold.as_tuple().exponent)  # type: ignore[operator]
        right = f"The answer is {written(gold, decimals, q['scale'])}."
        off, places = gold * Decimal("1.12"), decimals
        while round(off, places) == round(gold, places) or abs(round(off, places) - gold) <= Decimal(5) / 10 ** (
            places + 1
        ):  # written at the gold's precision, 12% off would read as the gold figure itself: one more decimal
            places += 1
        wrong = f"The answer is {written(off, places, q['scale'])}."
        start = time.process_time()
        report = check_answer(right, q["question"], evidence)
        costs.append(time.process_time() - start)
        if report.grounding == "verified":
            vouched += 1
        else:
            missed_right.append((i, q["question"], right, q["derivation"], report.unsupported, report.notes))
        bad = check_answer(wrong, q["question"], evidence)
        if bad.grounding != "verified":
            flagged += 1
        else:
            why = [c.derivation or c.quote[:80] for c in bad.citations]
            missed_wrong.append((i, q["question"], wrong, q["derivation"], why, []))
    n = len(rows)
    costs.sort()
    print(f"{n} arithmetic questions from {len({r[0] for r in rows})} even-index contexts")
    print(f"gold answers vouched (verified): {vouched}/{n} = {vouched / n:.1%}")
    print(f"gold x 1.12 flagged: {flagged}/{n} = {flagged / n:.1%}")
    print(f"check cost (CPU): p50 {costs[n // 2] * 1e3:.2f} ms, worst {costs[-1] * 1e3:.2f} ms")
    quoted, alarms = literal_alarms(args.data, args.limit)
    print(f"quoted gold figures (span answers) flagged: {len(alarms)}/{quoted}")
    for title, items in (
        ("right answers not vouched", missed_right),
        ("wrong answers vouched", missed_wrong),
        ("quoted right figures flagged", alarms),
    ):
        print(f"\n{title} ({len(items)}):")
        for item in items[: args.show]:
            print("  ", *item, sep=" | ")


if __name__ == "__main__":
    main()
