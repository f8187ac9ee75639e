"""What the engine's table plan gives on real report extracts, with no model: offline.

For a small backend the engine plans one ``compute_table`` call from the question
(``engine/tools/tables/question_plan.py``), and the answer states its result. This runs
that plan, and only that, on every question of the TAT-QA contexts of one part: each
context's report (its table in Markdown and the paragraphs around it) and its table as a
CSV are loaded into a table catalog as a theme's files are, the question is planned with
the default embedding model, and the planned computation is run. Each question is classed:

- ``right``: the computation's statement states the gold answer first (the benchmark's
  ``stated_directly``);
- ``wrong``: a plan ran and stated something else, the class that becomes a confident
  wrong figure unless the answer check flags it (the gold's sign conventions land here
  too: a decrease the gold writes positive);
- ``error``: a plan was made and the tool refused it (its readable error);
- ``none``: no plan; the model and the quote answer instead.

Figures are by answer type and source. Contexts with an even index are the tuning part;
``--part heldout`` reports the odd ones as totals only, without the failures, so they
stay unread. ``--dataset`` names another file of the same form (another split of the
benchmark) and ``--part all`` takes its contexts in order, a slice at a time.

    .venv/bin/python bench/bench_plans.py [--part tune|heldout] [--skip-contexts N]
        [--limit-contexts N] [--show 40]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.report_qa.dataset import DATASET_FILE, SELECTIONS, Question, load_contexts, select  # noqa: E402
from bench.report_qa.scoring import stated_directly  # noqa: E402
from bench.report_qa.themes import write_theme  # noqa: E402
from engine.context import EngineContext  # noqa: E402
from engine.errors import ToolError  # noqa: E402
from engine.tools.tables.catalog import TableCatalog  # noqa: E402
from engine.tools.tables.compute_tool import ComputeArgs, ComputeTable  # noqa: E402
from engine.tools.tables.question_plan import plan  # noqa: E402

CLASSES = ("right", "wrong", "error", "none")


def classify(question: Question, tool: ComputeTable, encode: object) -> tuple[str, str]:
    """The class of one question's plan, and what it stated (or why not)."""
    planned = plan(question.question, tool.catalog, encode)
    if planned is None:
        return "none", ""
    try:
        result = tool.run(ComputeArgs.model_validate(planned.args))
    except (ToolError, ValueError) as exc:
        return "error", str(exc)
    said = result.statement or result.text
    return ("right" if stated_directly(said, question) else "wrong"), said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=SELECTIONS, default="tune", help="all: every context of --dataset")
    parser.add_argument("--dataset", type=Path, default=DATASET_FILE)
    parser.add_argument("--skip-contexts", type=int, default=0)
    parser.add_argument("--limit-contexts", type=int, default=None, help="default: every context of the part")
    parser.add_argument("--show", type=int, default=40, help="failures listed (tuning part only)")
    parser.add_argument("--out", type=Path, help="write each question's class as JSON lines to this file")
    parser.add_argument("--show-none", action="store_true", help="also list the arithmetic questions left unplanned")
    args = parser.parse_args()
    contexts = select(load_contexts(args.dataset), args.part, args.limit_contexts, skip_contexts=args.skip_contexts)
    encode = EngineContext().embed
    counts: dict[tuple[str, str], Counter] = {}
    failures: list[str] = []
    seconds: list[float] = []
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as root:
        for context in contexts:
            folder = write_theme(context, Path(root))
            tool = ComputeTable(TableCatalog.from_paths([folder]))
            for question in context.questions:
                start = time.perf_counter()
                verdict, said = classify(question, tool, encode)
                seconds.append(time.perf_counter() - start)
                counts.setdefault((question.answer_type, question.answer_from), Counter())[verdict] += 1
                lines.append(json.dumps({"context": context.index, "question": question.question, "class": verdict}))
                if verdict in ("wrong", "error") or (
                    args.show_none and verdict == "none" and question.answer_type == "arithmetic"
                ):
                    failures.append(
                        f"[{context.index}] {verdict} {question.answer_type}/{question.answer_from}: "
                        f"{question.question}\n    gold {question.spans} {question.scale} | {question.derivation}"
                        f"\n    said {said[:300]}"
                    )
    total: Counter = sum(counts.values(), Counter())
    print(
        f"part {args.part}: {len(contexts)} contexts ({contexts[0].index}–{contexts[-1].index}), {sum(total.values())} questions"
    )
    for (kind, source), counter in sorted(counts.items()):
        print(f"  {kind:10} {source:10} " + " ".join(f"{c} {counter[c]:3}" for c in CLASSES))
    print("  all                   " + " ".join(f"{c} {total[c]:3}" for c in CLASSES))
    seconds.sort()
    print(f"plan and run: p50 {1000 * seconds[len(seconds) // 2]:.1f} ms, worst {1000 * seconds[-1]:.1f} ms")
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.part != "heldout":  # "all" is a slice chosen to be read (--dataset, --skip-contexts)
        for line in failures[: args.show]:
            print(line)


if __name__ == "__main__":
    main()
