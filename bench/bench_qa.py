"""QA over documents the project has never seen: how many answers are right, and how many
wrong answers the product flags instead of stating them as fact.

Ingests ``bench/qa/docs`` as theme ``qa`` into a temporary ``INDEX_ROOT`` with
``python -m engine ingest``, then asks every question of ``bench/qa/questions.json``
through ``python -m engine ask ... --format jsonl`` (one process per question, the CLI
contract) and scores the last ``done`` object (see ``bench/qa/scoring.py``).

    python bench/bench_qa.py                            # default embedded backend
    python bench/bench_qa.py --backend scripted-wrong   # a model that invents figures and sources
    python bench/bench_qa.py --ids calc_cost,nf_ceo --limit 5 --out results.json

``scripted-wrong`` speaks through the real ``mistralai`` SDK to the fake server of
``tests/fakes/llm_server.py``: the target there is every answer flagged. MCP servers are
off (their data is the demo theme's, not this one). Retrieval (is the question's source
among the top-4 ``search_docs`` passages) is measured in-process with ``bench/qa_retrieval.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import qa_retrieval  # noqa: E402
from bench.qa.qa_set import QAQuestion, load_questions, select  # noqa: E402
from bench.qa.scoring import Verdict, summarise, verdict  # noqa: E402

BACKENDS = ("embedded", "scripted-wrong")
QUESTION_TIMEOUT_S = 600
OPTIONS = {"detail": "normal"}  # the detail level asked of every answer (--detail)


class QAResult(BaseModel):
    id: str
    kind: str
    language: str
    verdict: Verdict
    status: str
    answer: str
    seconds: float
    source_in_top4: bool | None = None  # None: not a document question
    grounding: str | None = None
    unsupported: list[str] | None = None
    citations: int | None = None
    warnings: list[str] = []


def theme_folder(index_root: Path) -> Path:
    """A themes root beside ``index_root`` whose theme ``qa`` is the QA documents, as an analyst
    keeps a theme's files in ``data/themes/<theme>/``: the table tools read its CSV files there."""
    themes = index_root.parent / (index_root.name + "-themes")
    themes.mkdir(exist_ok=True)
    link = themes / qa_retrieval.THEME
    if not link.exists():
        link.symlink_to(qa_retrieval.DOCS_DIR, target_is_directory=True)
    return themes


def clean_env(index_root: Path, server_url: str | None = None) -> dict[str, str]:
    """The environment of one CLI run: no backend variable unless ``server_url`` (the fake Mistral server)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MISTRAL_", "OPENAI_"))}
    env.update(INDEX_ROOT=str(index_root), MCP_SERVERS="off", HF_HUB_OFFLINE="1", PYTHONUNBUFFERED="1")
    env.update(THEMES_ROOT=str(theme_folder(index_root)))
    if server_url:
        env.update(MISTRAL_API_KEY="x", MISTRAL_SERVER_URL=server_url, LLM_MAX_RETRY_S="1")
    return env


def ask(question: QAQuestion, env: dict[str, str]) -> tuple[dict[str, Any], list[dict[str, Any]], float]:
    """Runs one question through the CLI; returns the done object, the blocks before it and the seconds."""
    cmd = [sys.executable, "-m", "engine", "ask", question.question, "--theme", qa_retrieval.THEME]
    cmd += ["--language", question.language, "--format", "jsonl", "--detail", OPTIONS["detail"]]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=QUESTION_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"status": "error", "answer": f"timed out after {QUESTION_TIMEOUT_S} s"}, [], QUESTION_TIMEOUT_S
    seconds = time.perf_counter() - start
    lines = []
    for line in proc.stdout.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue  # a stray print is not a block
    if lines and lines[-1].get("type") == "done":
        return lines[-1], lines[:-1], seconds
    reason = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}, no done object"])[-1]
    return {"status": "error", "answer": reason}, lines, seconds


def run(
    questions: list[QAQuestion],
    backend: str,
    index_root: Path,
    top4: dict[str, bool],
    on_result: Callable[[list[QAResult]], None] = lambda results: None,
) -> list[QAResult]:
    """Asks every question in turn; ``on_result`` sees the results so far after each one."""
    server = None
    if backend == "scripted-wrong":
        from bench.qa.scripted_wrong import wrong_script
        from tests.fakes.llm_server import FakeLLMServer

        server = FakeLLMServer()
        url = server.start()
    env = clean_env(index_root, url if server else None)
    results = []
    try:
        for q in questions:
            if server is not None:
                server.script.clear()
                server.script.extend(wrong_script(q))
            done, blocks, seconds = ask(q, env)
            unsupported = done.get("unsupported")
            result = QAResult(
                id=q.id,
                kind=q.kind,
                language=q.language,
                verdict=verdict(q, done, blocks),
                status=str(done.get("status")),
                answer=str(done.get("answer") or ""),
                seconds=round(seconds, 1),
                source_in_top4=top4.get(q.id),
                grounding=done.get("grounding"),
                unsupported=[str(u) for u in unsupported] if isinstance(unsupported, list) else None,
                citations=len(done["citations"]) if isinstance(done.get("citations"), list) else None,
                warnings=[str(b.get("content", ""))[:120] for b in blocks if b.get("type") == "warning"],
            )
            results.append(result)
            print(row(result), flush=True)
            on_result(results)
    finally:
        if server is not None:
            server.stop()
    return results


HEADER = f"{'id':<26} {'kind':<14} {'verdict':<17} {'top4':<5} {'s':>6}  answer"


def row(r: QAResult) -> str:
    top4 = "-" if r.source_in_top4 is None else ("yes" if r.source_in_top4 else "no")
    answer = " ".join(r.answer.split())[:80]
    return f"{r.id:<26} {r.kind:<14} {r.verdict:<17} {top4:<5} {r.seconds:>6.1f}  {answer}"


def summary_line(questions: list[QAQuestion], results: list[QAResult]) -> str:
    by_id = {q.id: q for q in questions}
    counts = summarise([(by_id[r.id], r.verdict) for r in results])
    return (
        f"right {counts['right']}/{counts['total']} · wrong but flagged {counts['flagged']} · "
        f"confidently wrong {counts['confidently_wrong']} · correctly said not found "
        f"{counts['not_found_right']}/{counts['not_found_total']}"
    )


def by_kind(results: list[QAResult]) -> str:
    kinds = dict.fromkeys(r.kind for r in results)
    cells = []
    for kind in kinds:
        mine = [r for r in results if r.kind == kind]
        right = sum(r.verdict == "right" for r in mine)
        confident = sum(r.verdict == "confidently_wrong" for r in mine)
        cells.append(f"{kind} {right}/{len(mine)} right, {confident} confidently wrong")
    return "by kind: " + "; ".join(cells)


def save(out: Path, backend: str, questions: list[QAQuestion], results: list[QAResult], top4: dict[str, bool]) -> None:
    payload = {
        "backend": backend,
        "summary": summary_line(questions, results),
        "retrieval": qa_retrieval.recall_split(questions, top4, "@4"),
        "results": [r.model_dump() for r in results],
    }
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(out)  # a reader never sees half a file


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=BACKENDS, default="embedded")
    parser.add_argument("--limit", type=int, help="run at most N questions")
    parser.add_argument("--ids", help="comma-separated question ids")
    parser.add_argument("--out", type=Path, help="write the results as JSON to this file")
    parser.add_argument(
        "--detail", choices=["brief", "normal", "detailed"], default="normal", help="detail level asked"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    from bench.common import machine

    args = parse_args(argv)
    OPTIONS["detail"] = args.detail
    try:
        questions = select(load_questions(), args.ids, args.limit)
        if args.out and not args.out.parent.is_dir():
            raise ValueError(f"the folder of --out does not exist: {args.out.parent}")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"machine: {machine()}; backend: {args.backend}; {len(questions)} questions")
    with tempfile.TemporaryDirectory(prefix="qa-index-") as tmp:
        index_root = Path(tmp) / "index"
        index_root.mkdir()
        qa_retrieval.ingest_qa(index_root)
        search, _, sources, _ = qa_retrieval.engine_ranker(index_root)
        top4 = qa_retrieval.source_hits(questions, sources, search)
        print(HEADER, flush=True)

        def keep(results: list[QAResult]) -> None:
            if args.out:
                save(args.out, args.backend, questions, results, top4)

        results = run(questions, args.backend, index_root, top4, on_result=keep)
    print(summary_line(questions, results))
    print(by_kind(results))
    print("retrieval, the answer's source among the top-4 passages of search_docs:")
    print(qa_retrieval.format_results({"search_docs": qa_retrieval.recall_split(questions, top4, "@4")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
