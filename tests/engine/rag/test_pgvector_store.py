"""The pgvector store on a real PostgreSQL: whole-file replaces, concurrent writers, a writer
killed mid-write, the model check, hostile names, bad input, outages, real embeddings vs FAISS."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from engine.rag.chunking import Chunk
from engine.rag.pg_schema import VectorStoreUnavailable
from engine.rag.pgvector_store import PgVectorStore
from engine.rag.store import DocumentInfo, IndexProblem, ThemeIndex
from tests.pg import pg_server_fixture

pg_server = pg_server_fixture("pgvec")
ROOT = Path(__file__).resolve().parents[3]
DIM = 16


@pytest.fixture
def store(pg_server):
    store = PgVectorStore(pg_server.create_database("vec"))
    yield store
    store.close()


def unit(rng: np.random.Generator, n: int, dim: int = DIM) -> np.ndarray:
    vectors = rng.normal(size=(n, dim)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def document(source: str, n: int, version: str = "v1", seed: int = 0, dim: int = DIM):
    """``n`` chunks of ``source`` whose texts carry ``version``, their vectors and DocumentInfo."""
    chunks = [
        Chunk(chunk_id=f"{source}#{i}", source=source, location=f"p{i}", text=f"{version} {i}", content_hash=version)
        for i in range(n)
    ]
    info = DocumentInfo(source=source, size=n, sha256=version, chunks=n, ingested_at="2026-01-01T00:00:00+00:00")
    return chunks, unit(np.random.default_rng(seed), n, dim), info


def put(theme, source: str, n: int, version: str = "v1", seed: int = 0) -> np.ndarray:
    chunks, vectors, info = document(source, n, version, seed, theme.dim)
    theme.replace(set(), chunks, vectors, [info])
    return vectors


def consistent(theme) -> dict[str, int]:
    """Every document's chunk rows match its DocumentInfo and come from one version."""
    docs = theme.documents
    for source, info in docs.items():
        chunks = theme.chunks_of(source)
        assert len(chunks) == info.chunks, source
        assert {c.content_hash for c in chunks} <= {info.sha256}, source
    assert theme.count == sum(d.chunks for d in docs.values())
    return {s: d.chunks for s, d in docs.items()}


# ---- meaning of the ThemeIndex interface ------------------------------------------------
def test_search_finds_the_vector_itself_and_scores_are_cosines(store):
    theme = store.open_theme("handbook", "test-model", DIM)
    vectors = put(theme, "a.md", 30)
    hits = theme.search(vectors[7], k=3)
    assert hits[0].chunk.chunk_id == "a.md#7" and hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[1].score == pytest.approx(float(vectors[7] @ vectors[int(hits[1].chunk.chunk_id.split("#")[1])]))
    assert len(theme.search(vectors[0], k=10**6)) == 30  # past pgvector's ef_search bound: no error


def test_replacing_a_file_swaps_all_its_chunks_and_keeps_the_others(store):
    theme = store.open_theme("t", "test-model", DIM)
    put(theme, "a.md", 5, "v1", seed=1)
    put(theme, "b.md", 3, "v1", seed=2)
    chunks, vectors, info = document("a.md", 2, "v2", seed=3)
    theme.replace({"a.md"}, chunks, vectors, [info])
    assert [c.text for c in theme.chunks_of("a.md")] == ["v2 0", "v2 1"]
    assert consistent(theme) == {"a.md": 2, "b.md": 3}
    manifest = theme.manifest
    assert manifest.count == 5 and manifest.dim == DIM and manifest.embedding_model == "test-model"
    assert manifest.documents["a.md"].sha256 == "v2"


def test_a_document_given_again_replaces_its_old_chunks_even_if_not_in_remove(store):
    theme = store.open_theme("t", "test-model", DIM)
    put(theme, "a.md", 4, "v1")
    put(theme, "a.md", 2, "v2", seed=5)
    assert consistent(theme) == {"a.md": 2}


def test_delete_document_and_drop_theme(store, pg_server):
    theme = store.open_theme("t", "test-model", DIM)
    put(theme, "a.md", 4)
    put(theme, "b.md", 4, seed=1)
    assert theme.delete_document("a.md") is True
    assert theme.delete_document("a.md") is False
    assert consistent(theme) == {"b.md": 4}
    theme.drop_theme()
    assert store.themes() == []
    with pytest.raises(IndexProblem, match="has no index yet"):
        store.load("t")
    with store.engine.connect() as conn:
        assert (
            conn.exec_driver_sql("SELECT count(*) FROM pg_indexes WHERE indexname LIKE 'rag_chunks_hnsw_%%'").scalar()
            == 0
        )
        assert conn.exec_driver_sql("SELECT count(*) FROM rag_chunks").scalar() == 0


def test_themes_are_isolated_and_each_gets_its_own_graph(store):
    one = store.open_theme("one", "test-model", DIM)
    two = store.open_theme("two", "other-model", 8)
    put(one, "a.md", 20)
    vectors = put(two, "a.md", 20, seed=9)
    hits = two.search(vectors[3], k=20)
    assert len(hits) == 20 and hits[0].chunk.chunk_id == "a.md#3"
    assert {h.chunk.text for h in hits} == {f"v1 {i}" for i in range(20)}
    assert one.count == 20 and two.count == 20
    with store.engine.connect() as conn:
        names = {r[0] for r in conn.exec_driver_sql("SELECT indexname FROM pg_indexes WHERE tablename = 'rag_chunks'")}
    assert {f"rag_chunks_hnsw_{one.theme_id}", f"rag_chunks_hnsw_{two.theme_id}"} <= names


def test_a_big_theme_is_searched_through_its_hnsw_graph(store):
    theme = store.open_theme("big", "test-model", 64)
    chunks, vectors, info = document("big.md", 6000, seed=4, dim=64)
    theme.replace(set(), chunks, vectors, [info])
    with store.engine.connect() as conn:
        plan = "\n".join(
            r[0]
            for r in conn.exec_driver_sql(
                "EXPLAIN SELECT chunk_id FROM rag_chunks WHERE theme = %(t)s "
                "ORDER BY embedding::vector(64) <#> %(q)s::vector(64) LIMIT 10",
                {"t": "big", "q": vectors[0]},
            )
        )
    assert f"rag_chunks_hnsw_{theme.theme_id}" in plan
    assert theme.search(vectors[123], k=1)[0].chunk.chunk_id == "big.md#123"


def test_the_same_top_hit_as_faiss_with_real_embeddings(store, embedder):
    texts = {
        "travel.md": "Hotel costs are capped at 180 EUR per night in Paris and 140 EUR elsewhere in France.",
        "sales.md": "Q3 revenue in the Benelux region grew by 12 percent compared to the previous quarter.",
        "hr.md": "Employees accrue 25 days of paid leave per year, plus public holidays.",
        "it.md": "Laptops are replaced every four years; request a new one through the service desk.",
    }
    chunks = [Chunk(chunk_id=f"{s}#0", source=s, location="top", text=t, content_hash=s) for s, t in texts.items()]
    docs = [DocumentInfo(source=s, size=len(t), sha256=s, chunks=1, ingested_at="now") for s, t in texts.items()]
    vectors = embedder.encode([c.text for c in chunks])
    theme = store.open_theme("handbook", embedder.name, embedder.dim)
    theme.replace(set(), chunks, vectors, docs)
    faiss_index = ThemeIndex.empty("handbook", embedder.name, embedder.dim).replaced(set(), chunks, vectors, docs)
    for question, expected in (
        ("What is the hotel cap per night in Paris?", "travel.md"),
        ("How much did Benelux sales grow in the third quarter?", "sales.md"),
        ("How many holidays do I get?", "hr.md"),
    ):
        query = embedder.encode([question])[0]
        ours, theirs = theme.search(query, k=4), faiss_index.search(query, k=4)
        assert ours[0].chunk.source == theirs[0].chunk.source == expected
        assert [h.chunk.chunk_id for h in ours] == [h.chunk.chunk_id for h in theirs]
        assert [h.score for h in ours] == pytest.approx([h.score for h in theirs], abs=1e-4)


# ---- the model check, names and bad input -------------------------------------------------
def test_another_embedding_model_is_one_readable_sentence(store):
    store.open_theme("t", "all-MiniLM-L6-v2", 384)
    with pytest.raises(IndexProblem) as caught:
        store.open_theme("t", "bge-base", 768)
    message = str(caught.value)
    assert "indexed with all-MiniLM-L6-v2 (384 dimensions), not bge-base (768)" in message
    assert "\n" not in message
    with pytest.raises(IndexProblem, match="query vector has 768 dimensions"):
        store.load("t").search(np.ones(768, dtype=np.float32), k=3)


def test_a_view_another_server_made_stale_never_ranks_a_query_against_the_new_model(store):
    """Server A holds a view of theme t (model m1); server B drops t and ingests it again with m2
    (same dimension). A's next search must not rank its m1 query against m2 vectors."""
    other = PgVectorStore(store.engine.url.render_as_string(hide_password=False))
    try:
        a_view = store.open_theme("t", "model-one", DIM)
        put(a_view, "a.md", 4)
        b_view = other.load("t")
        b_view.drop_theme()
        put(other.open_theme("t", "model-two", DIM), "a.md", 4, version="v2", seed=5)
        query = unit(np.random.default_rng(9), 1)[0]
        with pytest.raises(IndexProblem) as caught:
            a_view.search(query, k=2)
        assert str(caught.value) == (
            "Theme 't' was indexed again with model-two since this server opened it with model-one; ask again."
        )
        assert a_view.embedding_model == "model-two" and a_view.manifest.embedding_model == "model-two"
        assert [hit.chunk.text for hit in a_view.search(query, k=4)] != []  # follows the new theme
        assert {hit.chunk.content_hash for hit in a_view.search(query, k=4)} == {"v2"}
        other.load("t").drop_theme()
        with pytest.raises(IndexProblem, match="has no index yet"):
            a_view.search(query, k=2)
    finally:
        other.close()


@pytest.mark.parametrize(
    "name", ["../../etc/passwd", "x'; DROP TABLE rag_chunks; --", 'a "quoted" name', "théme ünicode", "C:\\themes\\x"]
)
def test_hostile_theme_names_are_only_data(store, name):
    theme = store.open_theme(name, "test-model", DIM)
    vectors = put(theme, "a.md", 3)
    assert store.load(name).search(vectors[1], k=1)[0].chunk.chunk_id == "a.md#1"
    assert store.themes() == [name]
    theme.drop_theme()
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT to_regclass('rag_chunks') IS NOT NULL").scalar()


@pytest.mark.parametrize("name", ["", "x" * 201, "a\x00b"])
def test_impossible_theme_names_are_refused(store, name):
    with pytest.raises(IndexProblem, match="theme name must be"):
        store.open_theme(name, "test-model", DIM)


def test_bad_replace_input_is_refused_and_loses_nothing(store):
    theme = store.open_theme("t", "test-model", DIM)
    put(theme, "a.md", 4)
    chunks, vectors, info = document("a.md", 3, "v2")
    nan = vectors.copy()
    nan[1, 2] = np.nan
    orphan = Chunk(chunk_id="z#0", source="z.md", location="", text="", content_hash="")
    cases = [
        ((chunks, vectors[:2], [info]), "one 16-dimension vector per chunk"),
        ((chunks, vectors[:, :8], [info]), "one 16-dimension vector per chunk"),
        ((chunks, nan, [info]), "NaN or infinite"),
        ((chunks + [orphan], np.vstack([vectors, vectors[:1]]), [info]), "without its DocumentInfo"),
        ((chunks, vectors, [info, info]), "same document twice"),
        ((chunks, vectors, [info.model_copy(update={"chunks": 9})]), "different number of chunks"),
        ((chunks[:1] * 3, vectors, [info]), "same chunk_id"),
    ]
    for (c, v, d), message in cases:
        with pytest.raises(ValueError, match=message):
            theme.replace({"a.md"}, c, v, d)
    assert [c.text for c in theme.chunks_of("a.md")] == ["v1 0", "v1 1", "v1 2", "v1 3"]


def test_odd_text_round_trips_and_nul_becomes_a_replacement_character(store):
    theme = store.open_theme("t", "test-model", DIM)
    text = "naïve 数据 🚀 <script>alert(1)</script> \\x00 '%s' {q}\n" * 200 + "nul:\x00:end"
    chunk = Chunk(chunk_id="a.md/b c#0", source="a.md/b c", location="§ 2 > 'x'", text=text, content_hash="h")
    info = DocumentInfo(source="a.md/b c", size=1, sha256="h", chunks=1, ingested_at="now")
    theme.replace(set(), [chunk], unit(np.random.default_rng(0), 1), [info])
    (stored,) = theme.chunks_of("a.md/b c")
    assert stored.text == text.replace("\x00", "\ufffd") and stored.location == "§ 2 > 'x'"


# ---- an unreachable or restarted server ----------------------------------------------------
@pytest.mark.parametrize(
    "url",
    [
        "postgresql://analyst:s3cret-pw@127.0.0.1:1/rag",
        "postgresql://analyst:s3cret-pw@/rag?host=/nonexistent/socket-dir",
    ],
)
def test_an_unreachable_server_is_one_sentence_without_the_password(url):
    with pytest.raises(VectorStoreUnavailable) as caught:
        PgVectorStore(url)
    message = str(caught.value)
    assert "cannot be reached" in message and "DATABASE_URL" in message
    assert "s3cret-pw" not in message and "\n" not in message and "Traceback" not in message


def test_other_database_urls_are_one_sentence():
    with pytest.raises(IndexProblem, match="needs a PostgreSQL DATABASE_URL, not a sqlite one"):
        PgVectorStore("sqlite:///data/app.db")
    with pytest.raises(IndexProblem, match="not a database URL"):
        PgVectorStore("just words")


def test_from_settings_reads_database_url_at_call_time(monkeypatch, pg_server):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    with pytest.raises(IndexProblem, match="needs DATABASE_URL"):
        PgVectorStore.from_settings()
    monkeypatch.setenv("DATABASE_URL", pg_server.create_database("env").replace("+psycopg", ""))
    assert PgVectorStore.from_settings().themes() == []


def test_connections_cut_by_the_server_are_replaced(store):
    theme = store.open_theme("t", "test-model", DIM)
    vectors = put(theme, "a.md", 5)
    with store.engine.connect() as conn:
        conn.exec_driver_sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    assert theme.search(vectors[2], k=1)[0].chunk.chunk_id == "a.md#2"


# ---- two writers at once, and a writer killed mid-write ----------------------------------------
ROUNDS = 4


def write_rounds(url: str, prefix: str, rounds: int = ROUNDS) -> None:
    """One writer: each round replaces its two documents (new version, new size) in one call."""
    store = PgVectorStore(url)
    theme = store.open_theme("shared", "test-model", DIM)
    for r in range(rounds):
        parts = [document(f"{prefix}-{d}.md", 3 + (r + d) % 4, f"{prefix}-r{r}", seed=r * 10 + d) for d in range(2)]
        chunks = [c for p in parts for c in p[0]]
        theme.replace(set(), chunks, np.vstack([p[1] for p in parts]), [p[2] for p in parts])
    store.close()


def expected_after_rounds(prefixes: list[str]) -> dict[str, int]:
    return {f"{p}-{d}.md": 3 + (ROUNDS - 1 + d) % 4 for p in prefixes for d in range(2)}


def watch_whole_files(theme, stop: threading.Event, seen: list[str]) -> None:
    """A reader that records any file it sees mixed from two versions or partly written."""
    while not stop.is_set():
        for source in theme.documents:
            chunks = theme.chunks_of(source)  # one statement: one snapshot
            versions = {c.content_hash for c in chunks}
            if len(versions) != 1:
                seen.append(f"{source}: versions {versions}")
                continue
            d, r = int(source.split("-")[1][0]), int(versions.pop().split("-r")[1])
            if len(chunks) != 3 + (r + d) % 4:
                seen.append(f"{source}: {len(chunks)} chunks of round {r}")
        theme.search(np.ones(DIM, dtype=np.float32) / 4, k=10)


def test_two_threads_writing_one_theme_lose_nothing(store):
    url = store.url.render_as_string(hide_password=False)
    theme = store.open_theme("shared", "test-model", DIM)
    stop, seen = threading.Event(), []
    reader = threading.Thread(target=watch_whole_files, args=(theme, stop, seen))
    reader.start()
    writers = [threading.Thread(target=write_rounds, args=(url, p)) for p in ("left", "right")]
    [w.start() for w in writers]
    [w.join(timeout=120) for w in writers]
    stop.set()
    reader.join(timeout=30)
    assert not seen
    assert consistent(theme) == expected_after_rounds(["left", "right"])


def test_two_processes_writing_one_theme_lose_nothing(store):
    url = store.url.render_as_string(hide_password=False)
    code = "import sys; from tests.engine.rag.test_pgvector_store import write_rounds; write_rounds(sys.argv[1], sys.argv[2])"
    writers = [
        subprocess.Popen([sys.executable, "-c", code, url, p], cwd=ROOT, stderr=subprocess.PIPE, text=True)
        for p in ("one", "two")
    ]
    codes = [w.wait(timeout=180) for w in writers]
    assert codes == [0, 0], [w.stderr.read()[-500:] for w in writers]
    assert consistent(store.load("shared")) == expected_after_rounds(["one", "two"])


KILLED_WRITER = """
import sys, time
import numpy as np
from engine.rag.pgvector_store import PgThemeIndex, PgVectorStore
from tests.engine.rag.test_pgvector_store import document

copy = PgThemeIndex._copy_chunks
def copy_then_hang(self, conn, chunks, vectors):
    copy(self, conn, chunks, vectors)
    print("copied", flush=True)
    time.sleep(120)
PgThemeIndex._copy_chunks = copy_then_hang
theme = PgVectorStore(sys.argv[1]).load("t")
chunks, vectors, info = document("a.md", 500, "v2", seed=7)
theme.replace({"a.md"}, chunks, vectors, [info])
"""


def test_a_writer_killed_mid_write_leaves_the_old_file_and_frees_the_lock(store):
    theme = store.open_theme("t", "test-model", DIM)
    put(theme, "a.md", 4, "v1")
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, store.url.render_as_string(hide_password=False)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert child.stdout.readline().strip() == b"copied"  # 500 new rows written, not committed
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        child.kill()
    assert [c.text for c in theme.chunks_of("a.md")] == ["v1 0", "v1 1", "v1 2", "v1 3"]
    start = time.monotonic()
    put(theme, "a.md", 2, "v3")  # the dead writer's lock is gone with its connection
    assert time.monotonic() - start < 60
    assert consistent(theme) == {"a.md": 2}


def test_stores_opened_at_once_on_a_fresh_database_all_work(pg_server):
    url = pg_server.create_database("race")
    stores, errors = [], []

    def open_one():
        try:
            stores.append(PgVectorStore(url))
        except Exception as exc:  # collected, asserted below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors and len(stores) == 4
    for s in stores:
        assert s.themes() == []
        s.close()
