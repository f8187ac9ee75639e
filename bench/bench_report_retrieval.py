"""Retrieval on report extracts: does ``search_docs`` return the passage that answers?

For each question of the report-QA contexts (``bench/report_qa/``), the question is searched
in its context's theme (the report and its table, ingested as a user would), and the top 4
chunks are read for the gold: every figure of the gold's derivation or answer (as written in
the report), or, for a text answer, its words. A question whose gold the theme's own chunks
do not hold as written is left out (nothing to find). Two rankings of the same index, in the
same run:

- ``closeness``: the embedding model's nearest 4 chunks (``search_hits(..., pool=4)``);
- ``engine``: the nearest ``POOL`` chunks reordered with the query's words (``search_hits``).

Run: ``python bench/bench_report_retrieval.py --part tune`` (or ``heldout``, or ``all`` with
``--dataset``, ``--skip-contexts`` and ``--limit-contexts``). About 1 s a context.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.report_qa import dataset  # noqa: E402
from bench.report_qa.dataset import Context, Question  # noqa: E402
from bench.report_qa.themes import theme_name, write_theme  # noqa: E402

K = 4
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_CONSTANTS = {"1", "2", "3", "100", "1000"}


def numbers(text: str) -> set[str]:
    """The numbers of ``text`` as plain digits ("1,538.0" → "1538")."""
    out = set()
    for raw in _NUMBER.findall(text):
        plain = raw.replace(",", "").rstrip(".")
        if "." in plain:
            plain = plain.rstrip("0").rstrip(".")
        out.add(plain)
    return out


def _plain(text: str) -> str:
    return " ".join(text.lower().split())


def gold_needs(question: Question) -> tuple[str, set[str] | str] | None:
    """What the top chunks must hold: ("figures", {…}) or ("text", "…"); None when nothing to look for."""
    source = question.derivation if question.answer_type == "arithmetic" else " ".join(question.spans)
    wanted = numbers(source) - _CONSTANTS
    if wanted:
        return "figures", wanted
    if question.answer_type == "span" and len(question.spans) == 1 and len(question.spans[0]) >= 3:
        return "text", _plain(question.spans[0])
    return None


def holds(need: tuple[str, set[str] | str], text: str) -> bool:
    kind, wanted = need
    if kind == "figures":
        assert isinstance(wanted, set)
        return wanted <= numbers(text)
    assert isinstance(wanted, str)
    return wanted in _plain(text)


def measure(contexts: list[Context]) -> dict[str, Counter[str]]:
    from engine.rag.ingest import ingest_paths
    from engine.rag.manager import IndexManager
    from engine.tools.theme import search_hits

    counts: dict[str, Counter[str]] = {}
    misses: list[str] = []
    with tempfile.TemporaryDirectory(prefix="report-retrieval-") as tmp:
        root = Path(tmp)
        manager = IndexManager(root=root / "indexes")
        for context in contexts:
            folder = write_theme(context, root / "themes")
            theme = theme_name(context)
            ingest_paths(theme, [folder], manager=manager)
            every = "\n".join(c.text for c in manager.get(theme).chunks)
            for q in context.questions:
                need = gold_needs(q)
                if need is None or not holds(need, every):
                    continue
                group = counts.setdefault(f"from {q.answer_from}", Counter())
                total = counts.setdefault("all", Counter())
                for name, pool in (("closeness", K), ("engine", None)):
                    kwargs = {} if pool is None else {"pool": pool}
                    hits = search_hits(theme, q.question, K, manager=manager, **kwargs)
                    found = holds(need, "\n".join(h.chunk.text for h in hits))
                    group[name] += found
                    total[name] += found
                    if name == "engine" and not found:
                        misses.append(f"- [{theme} {q.answer_from}] {q.question}")
                group["asked"] += 1
                total["asked"] += 1
    print(f"engine misses ({len(misses)}):")
    print("\n".join(misses[:40]))
    return counts


def main(argv: list[str] | None = None) -> int:
    from bench.common import machine

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--part", choices=dataset.SELECTIONS, default="tune")
    parser.add_argument("--dataset", type=Path, default=dataset.DATASET_FILE)
    parser.add_argument("--skip-contexts", type=int, default=0)
    parser.add_argument("--limit-contexts", type=int)
    args = parser.parse_args(argv)
    contexts = dataset.select(
        dataset.load_contexts(args.dataset), args.part, args.limit_contexts, None, args.skip_contexts, None
    )
    print(f"machine: {machine()}; part {args.part}: {len(contexts)} contexts; gold in the top {K} chunks")
    counts = measure(contexts)
    print(f"{'':<18}{'asked':>7}{'closeness':>16}{'engine':>16}")
    for name, c in counts.items():
        asked = c["asked"]
        cells = "".join(f"{f'{c[k]}/{asked} ({100 * c[k] / asked:.0f}%)':>16}" for k in ("closeness", "engine"))
        print(f"{name:<18}{c['asked']:>7}{cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
