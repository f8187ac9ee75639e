"""4. Retrieval and ingest. Query latency p50/p95 at 10k and 100k chunks (query
embedding excluded): our theme index vs numpy brute force over the same vectors, with
recall@10 of our index against exact search. Ingest throughput (chunks/s) vs the
embedding model's raw ``encode`` on the same texts."""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine, percentiles  # noqa: E402
from engine.rag.chunking import Chunk  # noqa: E402
from engine.rag.store import DocumentInfo, ThemeIndex  # noqa: E402

DIM = 384
QUERIES = 300


def clustered(n: int, rng: np.random.Generator) -> np.ndarray:
    """Embedding-like data: topics (cluster centres) with spread, unit length."""
    centres = rng.normal(size=(max(50, n // 100), DIM)).astype(np.float32)
    vectors = centres[rng.integers(0, len(centres), n)] + 0.6 * rng.normal(size=(n, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def build(n: int, vectors: np.ndarray) -> ThemeIndex:
    chunks = [Chunk(chunk_id=f"d#{i}", source="d", location="x", text="", content_hash="h") for i in range(n)]
    doc = DocumentInfo(source="d", size=0, sha256="", chunks=n, ingested_at="")
    return ThemeIndex.empty("bench", "bench", DIM).replaced(set(), chunks, vectors, [doc])


def retrieval(n: int) -> None:
    rng = np.random.default_rng(n)
    vectors = clustered(n, rng)
    start = time.perf_counter()
    index = build(n, vectors)
    build_s = time.perf_counter() - start
    queries = vectors[rng.integers(0, n, QUERIES)] + 0.3 * rng.normal(size=(QUERIES, DIM)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    ours_t, brute_t, recalls = [], [], []
    for q in queries:
        t0 = time.perf_counter()
        hits = index.search(q, 10)
        t1 = time.perf_counter()
        scores = vectors @ q
        top = np.argpartition(-scores, 10)[:10]
        top = top[np.argsort(-scores[top])]
        t2 = time.perf_counter()
        ours_t.append(t1 - t0)
        brute_t.append(t2 - t1)
        got = {int(h.chunk.chunk_id.split("#")[1]) for h in hits}
        recalls.append(len(got & set(top.tolist())) / 10)
    o50, o95 = percentiles(ours_t)
    b50, b95 = percentiles(brute_t)
    print(
        f"{n:>7,} chunks ({index.manifest.index_kind}, built in {build_s:.1f} s): ours p50 {o50 * 1e3:.2f} ms p95 {o95 * 1e3:.2f} ms; "
        f"numpy brute force p50 {b50 * 1e3:.2f} ms p95 {b95 * 1e3:.2f} ms; p95 ratio brute/ours {b95 / o95:.1f}x; "
        f"recall@10 {np.mean(recalls):.3f}"
    )


def ingest_throughput() -> None:
    from engine.rag.embeddings import get_embedder
    from engine.rag.ingest import ingest_paths
    from engine.rag.manager import IndexManager

    rng = random.Random(3)
    words = "revenue margin region quarter churn forecast budget growth customers orders policy travel hotel".split()
    embedder = get_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        docs = root / "docs"
        docs.mkdir()
        for f in range(30):
            sections = []
            for s in range(12):
                paras = "\n\n".join(
                    " ".join(rng.choice(words) for _ in range(rng.randint(40, 90))) + "." for _ in range(3)
                )
                sections.append(f"## Section {s}\n\n{paras}")
            (docs / f"doc{f}.md").write_text(f"# Document {f}\n\n" + "\n\n".join(sections))
        manager = IndexManager(root=root / "idx")
        embedder.encode(["warm up"])
        start = time.perf_counter()
        report = ingest_paths("bench", [docs], manager=manager, embedder=embedder)
        ours = report.chunks_added / (time.perf_counter() - start)
        texts = [c.text for c in manager.get("bench").chunks]
        start = time.perf_counter()
        embedder.encode(texts)
        raw = len(texts) / (time.perf_counter() - start)
    print(
        f"ingest: {report.chunks_added} chunks from 30 files at {ours:.0f} chunks/s; raw encode {raw:.0f} chunks/s; ratio {ours / raw:.2f}"
    )


def main() -> None:
    print(f"machine: {machine()}")
    for n in (10_000, 100_000):
        retrieval(n)
    ingest_throughput()


if __name__ == "__main__":
    main()
