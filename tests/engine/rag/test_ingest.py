"""Ingest of every format, every bad-file case, incremental re-ingest."""

import os
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine.rag.ingest import delete_document, ingest_paths, remove_theme_index
from engine.rag.manager import IndexManager
from engine.rag.readers import read_sections
from engine.rag.store import IndexProblem, ThemeIndex, theme_dir
from engine.rag.themes import BadThemeName
from engine.tools.theme import format_hits, search_hits
from tests.engine.rag.conftest import make_pdf


@pytest.fixture
def corpus(tmp_path):
    d = tmp_path / "docs"
    d.mkdir()
    (d / "policy.md").write_text(
        "# Policy\n\n## Travel\n\nHotels are capped at 160 euros per night in Paris.\n\n## Food\n\nThe per diem is 45 euros.\n"
    )
    (d / "notes.txt").write_text("The warehouse refresh runs nightly at 02:00.\n\nIt feeds the sales_core schema.")
    (d / "faq.html").write_text(
        "<html><body><h1>FAQ</h1><h2>Approval</h2><p>Dashboards are approved by Tomasz Brenner.</p><script>alert(1)</script></body></html>"
    )
    (d / "sales.csv").write_text("region,revenue\nFrance,5392300\nBenelux,3104500\n")
    make_pdf(d / "report.pdf", ["Quarterly revenue rose to 12.4 million euros.", "Churn fell to 6.1 percent."])
    return d


def test_every_supported_format_goes_in(corpus, manager, embedder):
    report = ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    assert sorted(report.added) == ["faq.html", "notes.txt", "policy.md", "report.pdf", "sales.csv"]
    assert report.skipped == []
    index = manager.get("tt")
    locations = {(c.source, c.location) for c in index.chunks}
    assert ("policy.md", "Policy > Travel") in locations
    assert ("report.pdf", "page 2") in locations
    assert ("faq.html", "FAQ > Approval") in locations
    assert any(c.source == "sales.csv" and c.location == "rows 1-2" for c in index.chunks)
    assert all(c.content_hash and c.chunk_id.startswith(c.source) for c in index.chunks)
    assert not any("alert(1)" in c.text for c in index.chunks)


def test_search_returns_the_right_chunk_with_source_and_score(corpus, manager, embedder):
    ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    hits = search_hits("tt", "hotel price limit in Paris", k=3, manager=manager)
    assert hits[0].chunk.source == "policy.md" and "160 euros" in hits[0].chunk.text
    assert hits[0].score > hits[-1].score
    text = format_hits(hits)
    assert text.startswith("[1] source: policy.md · Policy > Travel · score ")


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.txt", b"", "the file is empty"),
        ("binary.txt", b"\x00\x01\x02\x03" * 100, "binary file"),
        ("broken.pdf", b"%PDF-1.4\n1 0 obj garbage", "PDF is damaged"),
        ("fake.pdf", b"this is not a pdf at all", "no PDF header"),
        ("weird.txt", bytes(range(128, 256)) * 40 + b"\x01\x02" * 200, "encoding could not be read"),
        ("image.png", b"\x89PNG\r\n", "unsupported file type"),
        ("nodata.csv", b"only,a,header\n", "no data rows"),
    ],
)
def test_bad_files_are_skipped_with_one_line_and_the_rest_goes_in(tmp_path, manager, embedder, name, content, reason):
    good = tmp_path / "good.md"
    good.write_text("# Good\n\nA perfectly fine document.")
    bad = tmp_path / name
    bad.write_bytes(content)
    report = ingest_paths("tt", [bad, good], manager=manager, embedder=embedder)
    assert report.added == ["good.md"]
    assert len(report.skipped) == 1 and report.skipped[0].startswith(name) and reason in report.skipped[0]
    assert "\n" not in report.skipped[0]


def test_oversized_file_is_skipped(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("x" * 2000)
    from engine.rag.readers import UnreadableFile

    with pytest.raises(UnreadableFile, match="over the 0 MB limit"):
        read_sections(big, max_bytes=1000)


def test_reingest_of_unchanged_files_costs_nothing(corpus, manager, embedder, monkeypatch):
    ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    before = manager.get("tt")
    calls = []
    monkeypatch.setattr(embedder, "encode", lambda texts, **kw: calls.append(texts))
    report = ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    assert calls == [] and report.added == [] and report.replaced == []
    assert len(report.unchanged) == 5
    assert manager.get("tt") is before


def test_changed_file_replaces_its_old_chunks(corpus, manager, embedder):
    ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    (corpus / "notes.txt").write_text("The refresh now runs at 04:30 every night.")
    report = ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    assert report.replaced == ["notes.txt"] and report.chunks_added == 1
    texts = [c.text for c in manager.get("tt").chunks_of("notes.txt")]
    assert texts == ["The refresh now runs at 04:30 every night."]
    reloaded = ThemeIndex.load("tt", manager.root)
    assert [c.text for c in reloaded.chunks_of("notes.txt")] == texts


def test_delete_document(corpus, manager, embedder):
    ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    assert delete_document("tt", "policy.md", manager=manager)
    index = ThemeIndex.load("tt", manager.root)
    assert "policy.md" not in index.manifest.documents and not index.chunks_of("policy.md")
    assert index.index.ntotal == len(index.chunks)
    assert not delete_document("tt", "policy.md", manager=manager)


def test_progress_is_reported(corpus, manager, embedder):
    seen = []
    ingest_paths("tt", [corpus], manager=manager, embedder=embedder, progress=lambda d, t, m: seen.append((d, t, m)))
    assert seen[0][0] == 0 and seen[-1] == (5, 5, "done")
    assert any(m.startswith("embedding") for _, _, m in seen)


def test_embedding_progress_advances_by_slices(corpus, manager, embedder, monkeypatch):
    from engine.rag import ingest

    monkeypatch.setattr(ingest, "EMBED_SLICE", 2)
    seen = []
    ingest_paths("tt", [corpus], manager=manager, embedder=embedder, progress=lambda d, t, m: seen.append((d, t, m)))
    index = manager.get("tt")
    steps = [(d, t) for d, t, m in seen if m.startswith("embedding chunks")]
    n = len(index.chunks)
    assert n > 2 and steps == [(start, n) for start in range(0, n, 2)]
    assert seen[-1] == (5, 5, "done")
    whole = embedder.encode([c.text for c in index.chunks])  # slices give the vectors one call gives
    assert (index.index.reconstruct_n(0, n) * whole).sum(axis=1).min() > 0.9999


def test_sizes_are_checked_before_reading(tmp_path, manager, embedder):
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as fh:
        fh.truncate(3 * 1024**3)  # sparse: 3 GB that take no disk
    good = tmp_path / "good.md"
    good.write_text("# Good\n\nFine.")
    tracemalloc.start()
    try:
        report = ingest_paths("tt", [huge, good], manager=manager, embedder=embedder)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.added == ["good.md"] and "over the 20 MB limit" in report.skipped[0]
    assert peak < 50_000_000


def test_fifo_is_skipped_without_blocking(tmp_path, manager, embedder):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    report = ingest_paths("tt", [fifo], manager=manager, embedder=embedder)
    assert report.skipped == ["pipe.md: not a regular file."]


def test_a_second_process_cache_sees_the_new_generation(corpus, tmp_path, embedder):
    app, cli = IndexManager(root=tmp_path / "idx"), IndexManager(root=tmp_path / "idx")
    ingest_paths("tt", [corpus / "policy.md"], manager=app, embedder=embedder)
    cached = app.get("tt")
    ingest_paths("tt", [corpus / "notes.txt"], manager=cli, embedder=embedder)  # another process's ingest
    assert app.get("tt") is not cached
    ingest_paths("tt", [corpus / "faq.html"], manager=app, embedder=embedder)
    assert set(ThemeIndex.load("tt", tmp_path / "idx").manifest.documents) == {"policy.md", "notes.txt", "faq.html"}


def test_concurrent_ingests_take_turns_and_keep_both(corpus, tmp_path, embedder):
    managers = [IndexManager(root=tmp_path / "idx") for _ in range(4)]
    files = ["policy.md", "notes.txt", "faq.html", "sales.csv"]
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda mf: ingest_paths("tt", [corpus / mf[1]], manager=mf[0], embedder=embedder),
                      zip(managers, files, strict=True)))  # fmt: skip
    assert set(ThemeIndex.load("tt", tmp_path / "idx").manifest.documents) == set(files)


def test_an_unreadable_index_is_rebuilt_from_the_documents(corpus, manager, embedder):
    ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    gen = theme_dir("tt", manager.root) / manager.get("tt").generation
    (gen / "chunks.jsonl").write_text("garbage")
    manager.invalidate("tt")
    report = ingest_paths("tt", [corpus / "policy.md"], manager=manager, embedder=embedder)
    assert report.rebuilt and "damaged" in report.rebuilt and report.added == ["policy.md"]
    assert set(ThemeIndex.load("tt", manager.root).manifest.documents) == {"policy.md"}


def test_remove_theme_index_then_ingest_again(corpus, manager, embedder):
    ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    assert remove_theme_index("tt", manager=manager)
    with pytest.raises(IndexProblem, match="no index yet"):
        manager.get("tt")
    assert ingest_paths("tt", [corpus], manager=manager, embedder=embedder).added


def test_a_bad_theme_name_is_refused_before_anything_is_written(corpus, manager, embedder):
    with pytest.raises(BadThemeName):
        ingest_paths("../up", [corpus], manager=manager, embedder=embedder)
    assert not manager.root.exists() or list(manager.root.iterdir()) == []


def test_a_file_cut_by_a_bound_is_indexed_in_part_with_one_line(tmp_path, manager, embedder):
    from tests.engine.rag.conftest import shared_stream_pdf

    (tmp_path / "shared.pdf").write_bytes(shared_stream_pdf(3000, line_chars=80, lines=40))
    (tmp_path / "dump.md").write_text("x" * 20_000)  # one paragraph of ~23 chunks
    report = ingest_paths("tt", [tmp_path], manager=manager, embedder=embedder, max_chunks=5)
    assert sorted(report.added) == ["dump.md", "shared.pdf"] and report.skipped == []
    lines = {c.source: c.text() for c in report.cut}
    assert lines["dump.md"] == "dump.md: indexed in part (only the first 5 chunks indexed)."
    assert "2,999 page(s) repeating an earlier page's content not indexed again" in lines["shared.pdf"]
    assert len(manager.get("tt").chunks_of("dump.md")) == 5


def test_files_are_read_and_embedded_before_the_theme_lock_is_taken(corpus, manager, embedder, monkeypatch):
    from contextlib import contextmanager

    from engine.rag import ingest

    held = {"now": False}
    seen: list[tuple[str, bool]] = []
    writing = manager.store.writing

    @contextmanager
    def recorded(theme):
        with writing(theme):
            held["now"] = True
            try:
                yield
            finally:
                held["now"] = False

    read, encode = ingest.read_document, embedder.encode
    monkeypatch.setattr(manager.store, "writing", recorded)
    monkeypatch.setattr(ingest, "read_document", lambda *a: seen.append(("read", held["now"])) or read(*a))
    monkeypatch.setattr(embedder, "encode", lambda texts, **kw: seen.append(("embed", held["now"])) or encode(texts))
    report = ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    assert len(report.added) == 5
    assert seen and ("read", False) in seen and ("embed", False) in seen and not any(h for _, h in seen)


def test_a_file_changed_by_another_writer_meanwhile_is_read_again_under_the_lock(
    corpus, manager, embedder, monkeypatch
):
    ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    other = IndexManager(root=manager.root)
    writing = manager.store.writing
    original = (corpus / "notes.txt").read_text()

    def meanwhile(theme):  # another process ingests a changed notes.txt between our read and our lock
        (corpus / "notes.txt").write_text("Now the refresh runs at 05:00.")
        ingest_paths("tt", [corpus / "notes.txt"], manager=other, embedder=embedder)
        (corpus / "notes.txt").write_text(original)
        return writing(theme)

    monkeypatch.setattr(manager.store, "writing", meanwhile)
    report = ingest_paths("tt", [corpus], manager=manager, embedder=embedder)
    assert report.replaced == ["notes.txt"] and len(report.unchanged) == 4
    texts = [c.text for c in ThemeIndex.load("tt", manager.root).chunks_of("notes.txt")]
    assert texts and "02:00" in texts[0]
