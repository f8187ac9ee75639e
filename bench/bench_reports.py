"""Trust on real annual-report extracts: TAT-QA's test gold, asked through the CLI, scored with the
benchmark's published EM/F1 and with our trust classes.

Each context of ``/work/shared/datasets/report-qa/tatqa_test_gold.json`` becomes a theme in a
temporary data root (``THEMES_ROOT``, ``INDEX_ROOT``, ``DATABASE_URL`` moved there): the report
paragraphs with the table in place as a Markdown table (``report.md``) and the table as a CSV
file (``table.csv``), see ``bench/report_qa/themes.py``. The theme is ingested with
``python -m engine ingest --theme T FOLDER`` and every question is asked with
``python -m engine ask "Q" --theme T --format jsonl``. Both go through ``engine.cli.main`` with that
argv, in this process, so the models load once (``bench/report_qa/runner.py``);
``--per-process`` runs one process per call instead.

Scoring (``bench/report_qa/scoring.py`` and ``trust.py``): EM and F1 as the TAT-QA paper defines
them, over the prediction read from the answer's statement; and one trust class per answer:

- ``right``: the gold is the answer's statement (its first figure, or its text) and nothing flags it;
- ``evidence_only``: the gold stands somewhere in the answer (a quote, a row), or is stated but flagged;
- ``wrong_flagged``: the gold is not in the answer, and the done object flags it (``grounding``
  unsupported/partly/not_found, ``unsupported`` or ``invented_sources`` not empty, a ``cautions``
  field, a warning block after the answer, a status other than answered, or a "not found" answer);
- ``confidently_wrong``: the gold is not in the answer and nothing flags it.

``--strong`` replaces the embedded model with a scripted strong model on the Mistral path (the
real ``mistralai`` SDK against ``tests/fakes/llm_server.py``, see ``bench/report_qa/scripted.py``):
each question is asked twice, once answered rightly and once with a figure about 12% off.
It reports false alarms (right answers flagged) and misses (wrong answers not flagged).

The split: contexts with an even index are the tuning part, odd ones are held out (the default;
never tune on them). The order is the file's: no seed. ``--dataset`` names another file of the
same form, another split of the benchmark that is unseen as a whole (TAT-QA's dev split, from its
public repository, kept outside the project), and ``--part all`` takes its contexts in order, a
slice at a time (``--skip-contexts``, ``--limit-contexts``): run a slice once, then read it.

    python bench/bench_reports.py                          # held out, the first 4 contexts, embedded
    python bench/bench_reports.py --all                    # every held-out context (138, ~830 questions)
    python bench/bench_reports.py --strong --limit-contexts 10
    python bench/bench_reports.py --part tune --limit-contexts 2 --limit-questions 5 --out r.json
    python bench/bench_reports.py --dataset DEV.json --part all --skip-contexts 20 --limit-contexts 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.report_qa import dataset  # noqa: E402
from bench.report_qa.dataset import ANSWER_FROMS, ANSWER_TYPES, Context, Question  # noqa: E402
from bench.report_qa.runner import CLI, Run, bench_env  # noqa: E402
from bench.report_qa.scoring import is_numeric  # noqa: E402
from bench.report_qa.themes import theme_name, write_theme  # noqa: E402
from bench.report_qa.trust import TRUST_CLASSES, Verdict, classify  # noqa: E402

DEFAULT_CONTEXTS = 4  # held-out contexts of a default run (~24 questions, ~35 CPU s each): under ~15 min on 2 cores
ANSWER_CHARS = 300  # of an answer kept in the results


class Result(BaseModel):
    context: int
    theme: str
    uid: str
    question: str
    answer_type: str
    answer_from: str
    gold: list[str]
    scale: str
    derivation: str = ""
    variant: str  # "embedded", or the scripted "right" / "wrong"
    scripted: str | None = None  # the scripted model's answer
    answer: str
    status: str
    grounding: str | None
    seconds: float
    cpu_seconds: float = 0.0
    verdict: Verdict
    done: dict[str, Any] = {}  # the done object, for --rescore
    blocks: list[dict[str, Any]] = []  # the answer and warning blocks, in order (bounded)

    def question_model(self) -> Question:
        return Question(
            uid=self.uid, order=0, question=self.question, answer=self.gold, derivation=self.derivation,
            answer_type=self.answer_type, answer_from=self.answer_from, scale=self.scale,
        )  # fmt: skip


KEPT_BLOCKS = frozenset({"answer", "final_answer", "response", "conclusion", "warning", "draft", "error"})


# ---- running ------------------------------------------------------------------------------


def ingest(cli: CLI, context: Context, themes_root: Path) -> str:
    folder = write_theme(context, themes_root)
    theme = theme_name(context)
    run = cli(["ingest", "--theme", theme, str(folder)])
    if run.exit_code != 0:
        raise RuntimeError(f"ingest of {theme} failed: {run.stderr.strip()[-300:]}")
    return theme


def ask(cli: CLI, question: Question, theme: str) -> Run:
    return cli(
        ["ask", "--theme", theme, "--format", "jsonl", "--", question.question]
    )  # "--": a question may start with "-"


def result(context: Context, theme: str, q: Question, run: Run, variant: str, scripted: str | None) -> Result:
    answer = str(run.done.get("answer") or "")
    return Result(
        context=context.index,
        theme=theme,
        uid=q.uid,
        question=q.question,
        answer_type=q.answer_type,
        answer_from=q.answer_from,
        gold=q.spans,
        scale=q.scale,
        derivation=q.derivation,
        variant=variant,
        scripted=scripted,
        answer=answer[:ANSWER_CHARS],
        status=str(run.done.get("status")),
        grounding=run.done.get("grounding"),
        seconds=round(run.seconds, 2),
        cpu_seconds=run.cpu_seconds,
        verdict=classify(q, run.done, run.blocks),
        done=run.done | {"citations": (run.done.get("citations") or [])[:5]},
        blocks=[
            {"type": b.get("type"), "content": str(b.get("content", ""))[:500]}
            for b in run.blocks
            if b.get("type") in KEPT_BLOCKS
        ],
    )


def run_embedded(cli: CLI, contexts: list[Context], themes_root: Path, keep: Callable[[Result], None]) -> None:
    for context in contexts:
        theme = ingest(cli, context, themes_root)
        for q in context.questions:
            keep(result(context, theme, q, ask(cli, q, theme), "embedded", None))


def run_strong(
    cli: CLI, contexts: list[Context], themes_root: Path, server: Any, keep: Callable[[Result], None]
) -> None:
    """Each question twice: the scripted right answer, then the 12%-off one (when it has a figure)."""
    from bench.report_qa.scripted import VARIANTS, answer, script

    for context in contexts:
        theme = ingest(cli, context, themes_root)
        for q in context.questions:
            for variant in VARIANTS:
                text = answer(q, variant)
                if text is None:
                    continue
                server.script.clear()
                server.script.extend(script(q, text))
                keep(result(context, theme, q, ask(cli, q, theme), variant, text))


# ---- reporting ----------------------------------------------------------------------------


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def _groups(results: list[Result]) -> Iterable[tuple[str, list[Result]]]:
    yield "all", results
    for kind in ANSWER_TYPES:
        yield kind, [r for r in results if r.answer_type == kind]
    for source in ANSWER_FROMS:
        yield f"from {source}", [r for r in results if r.answer_from == source]


def trust_table(results: list[Result]) -> str:
    head = f"{'':<17}{'n':>5}{'EM':>7}{'F1':>7}" + "".join(f"{c:>19}" for c in TRUST_CLASSES)
    lines = [head + f"{'false alarms':>14}{'scale implicit':>16}"]
    for name, group in _groups(results):
        if not group:
            continue
        n = len(group)
        em = 100 * statistics.fmean(r.verdict.em for r in group)
        f1 = 100 * statistics.fmean(r.verdict.f1 for r in group)
        cells = "".join(f"{_pct(sum(r.verdict.trust == c for r in group), n):>19}" for c in TRUST_CLASSES)
        alarms = sum(r.verdict.false_alarm for r in group)
        implicit = sum(r.verdict.scale_implicit for r in group)
        lines.append(f"{name:<17}{n:>5}{em:>7.1f}{f1:>7.1f}{cells}{alarms:>14}{implicit:>16}")
    return "\n".join(lines)


def strong_table(results: list[Result]) -> str:
    """Right answers vouched for / flagged (false alarms); wrong answers caught / missed."""
    lines = [
        f"{'':<17}{'right n':>8}{'vouched':>15}{'false alarms':>15}{'not read right':>16}"
        f"{'wrong n':>9}{'caught':>15}{'missed':>15}{'missed numeric':>16}"
    ]
    for name, group in _groups(results):
        right = [r for r in group if r.variant == "right"]
        wrong = [r for r in group if r.variant == "wrong"]
        if not right and not wrong:
            continue
        vouched = sum(r.verdict.trust == "right" for r in right)
        alarms = sum(r.verdict.direct and r.verdict.flagged for r in right)
        misread = sum(not r.verdict.direct for r in right)  # the scripted gold not read as stated: a harness bug
        caught = sum(r.verdict.flagged for r in wrong)
        missed = [r for r in wrong if not r.verdict.flagged]
        numeric = sum(r.answer_type in ("arithmetic", "count") or _numeric_gold(r) for r in missed)
        lines.append(
            f"{name:<17}{len(right):>8}{_pct(vouched, len(right)):>15}{_pct(alarms, len(right)):>15}{misread:>16}"
            f"{len(wrong):>9}{_pct(caught, len(wrong)):>15}{_pct(len(missed), len(wrong)):>15}{numeric:>16}"
        )
    return "\n".join(lines)


def _numeric_gold(r: Result) -> bool:
    return is_numeric(r.question_model())


def _one_line(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def failures(results: list[Result], wanted: Callable[[Result], bool], limit: int) -> str:
    chosen = [r for r in results if wanted(r)]
    lines = [f"{len(chosen)} listed{' (first ' + str(limit) + ')' if len(chosen) > limit else ''}:"]
    for r in chosen[:limit]:
        gold = " | ".join(r.gold) + (f" ({r.scale})" if r.scale else "")
        lines.append(f"- [{r.theme} {r.answer_type}/{r.answer_from} {r.verdict.trust}] {_one_line(r.question, 110)}")
        lines.append(f"    gold: {_one_line(gold, 100)}    answer: {_one_line(r.answer, 150)}")
        if r.verdict.flags:
            lines.append(f"    flags: {', '.join(r.verdict.flags)}")
    return "\n".join(lines)


def timing(results: list[Result]) -> str:
    """Wall and CPU seconds per question: wall time depends on what else runs, CPU time much less."""
    if not results:
        return "no question asked"
    lines = []
    for name, values in (("wall", [r.seconds for r in results]), ("CPU", [r.cpu_seconds for r in results])):
        rest = values[1:] or values
        lines.append(
            f"{name} seconds per question: first {values[0]:.1f} (model load included), then median "
            f"{statistics.median(rest):.1f}, mean {statistics.fmean(rest):.1f}, max {max(rest):.1f}; "
            f"total {sum(values):.0f} s for {len(values)} runs"
        )
    return "\n".join(lines)


def report(results: list[Result], strong: bool, limit: int) -> str:
    parts = []
    if strong:
        parts += ["strong model, scripted (Mistral path, fake server):", strong_table(results), ""]
        parts += ["scripted right answers, by trust class:", trust_table([r for r in results if r.variant == "right"])]
        parts += ["", "misses (wrong answers not flagged):"]
        parts.append(failures(results, lambda r: r.variant == "wrong" and not r.verdict.flagged, limit))
        parts += ["", "false alarms (right answers flagged):"]
        parts.append(failures(results, lambda r: r.variant == "right" and r.verdict.flagged, limit))
    else:
        parts += ["embedded default:", trust_table(results), "", "confidently wrong:"]
        parts.append(failures(results, lambda r: r.verdict.trust == "confidently_wrong", limit))
    parts += ["", timing(results)]
    return "\n".join(parts)


def save(out: Path, meta: dict[str, Any], results: list[Result]) -> None:
    payload = meta | {"results": [r.model_dump() for r in results]}
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(out)  # a reader never sees half a file


def row(r: Result) -> str:
    return (
        f"{r.theme} {r.variant:<8} {r.answer_type:<10} {r.verdict.trust:<17} {r.seconds:>6.1f}s  "
        f"{_one_line(r.answer, 90)}"
    )


def rescore(path: Path, limit: int) -> int:
    """The report of saved results, every verdict computed again from the saved done objects."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        results = [Result.model_validate(r) for r in payload["results"]]
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: cannot read results from {path}: {exc}", file=sys.stderr)
        return 2
    for r in results:
        r.verdict = classify(r.question_model(), r.done, r.blocks)
    print(f"{payload.get('mode')}; part {payload.get('part')}: contexts {payload.get('contexts')}")
    print(report(results, any(r.variant != "embedded" for r in results), limit))
    return 0


# ---- main ---------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--part", choices=dataset.SELECTIONS, default="heldout", help="all: every context of --dataset, in order"
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--limit-contexts", type=int, default=DEFAULT_CONTEXTS, help=f"default {DEFAULT_CONTEXTS}")
    size.add_argument("--all", action="store_true", help="every context of the part")
    parser.add_argument("--limit-questions", type=int, help="at most N questions in all")
    parser.add_argument(
        "--skip-contexts", type=int, default=0, help="start after the first N contexts of the part (a fresh slice)"
    )
    parser.add_argument(
        "--questions-matching", metavar="REGEX", help="only the questions this finds (tuning part only)"
    )
    parser.add_argument("--strong", action="store_true", help="the scripted strong model on the Mistral path")
    parser.add_argument("--per-process", action="store_true", help="one `python -m engine` process per call")
    parser.add_argument("--dataset", type=Path, default=dataset.DATASET_FILE)
    parser.add_argument("--out", type=Path, help="write every result as JSON to this file, as the run goes")
    parser.add_argument("--show", type=int, default=40, help="failures listed (default 40)")
    parser.add_argument("--quiet", action="store_true", help="no line per question")
    parser.add_argument(
        "--rescore", type=Path, metavar="RESULTS", help="score the runs of an --out file again; ask nothing"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    from bench.common import machine

    args = parse_args(argv)
    if args.rescore:
        return rescore(args.rescore, args.show)
    try:
        if args.out and not args.out.parent.is_dir():
            raise ValueError(f"the folder of --out does not exist: {args.out.parent}")
        contexts = dataset.select(
            dataset.load_contexts(args.dataset),
            args.part,
            None if args.all else args.limit_contexts,
            args.limit_questions,
            args.skip_contexts,
            args.questions_matching,
        )
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    questions = sum(len(c.questions) for c in contexts)
    mode = "strong (scripted, Mistral path)" if args.strong else "embedded default"
    print(f"machine: {machine()}; {mode}; part {args.part}: {len(contexts)} contexts, {questions} questions")
    meta = {"mode": mode, "part": args.part, "contexts": [c.index for c in contexts], "questions": questions}
    results: list[Result] = []

    def keep(r: Result) -> None:
        results.append(r)
        if not args.quiet:
            print(row(r), flush=True)
        if args.out:
            save(args.out, meta, results)

    with tempfile.TemporaryDirectory(prefix="report-qa-") as tmp:
        root = Path(tmp)
        (root / "themes").mkdir()
        if args.strong:
            from tests.fakes.llm_server import FakeLLMServer

            with FakeLLMServer() as server:
                cli = CLI(bench_env(root, f"http://127.0.0.1:{server.port}"), ROOT, args.per_process)
                run_strong(cli, contexts, root / "themes", server, keep)
        else:
            cli = CLI(bench_env(root), ROOT, args.per_process)
            run_embedded(cli, contexts, root / "themes", keep)
    print()
    print(report(results, args.strong, args.show))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
