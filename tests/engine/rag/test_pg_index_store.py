"""The product's indexes on ``VECTOR_STORE=pgvector``, against a real PostgreSQL: the
settings choose the store, ingest / re-ingest / delete / remove go through it, two
"servers" (two managers) see each other's writes at once, concurrent ingests of one
theme lose nothing, search_docs runs in the engine, and a dead database is one sentence."""

from __future__ import annotations

import threading

import pytest

from engine.context import EngineContext
from engine.rag.index_store import FaissFiles
from engine.rag.ingest import delete_document, ingest_paths, remove_theme_index
from engine.rag.manager import IndexManager
from engine.rag.pg_index_store import PgIndexStore
from engine.rag.pg_schema import VectorStoreUnavailable
from engine.rag.store import IndexProblem, IndexUnreachable
from engine.settings import Settings
from engine.tools.theme import SearchDocs, SearchDocsArgs, search_hits
from tests.helpers import call, make_engine, run
from tests.pg import PgServer

SHIPPING = "# Operations\n\n## Shipping\n\nParcels to Norway take nine working days by road.\n"
SHIPPING_V2 = "# Operations\n\n## Shipping\n\nParcels to Norway now take four working days by air.\n"
HOTELS = "# Travel\n\n## Hotels\n\nThe hotel cap in Paris is 160 euros per night.\n"


def pg_settings(url: str, tmp_path) -> Settings:
    return Settings.from_env(
        {
            "VECTOR_STORE": "pgvector",
            "DATABASE_URL": url,
            "INDEX_ROOT": str(tmp_path / "indexes"),
            "THEMES_ROOT": str(tmp_path / "themes"),
        }
    )


@pytest.fixture
def settings(pg_server, tmp_path):
    return pg_settings(pg_server.create_database("rag"), tmp_path)


@pytest.fixture
def manager(settings):
    manager = IndexManager.for_settings(settings)
    yield manager
    manager.close()


@pytest.fixture
def docs(tmp_path):
    folder = tmp_path / "themes" / "ops"
    folder.mkdir(parents=True)
    (folder / "shipping.md").write_text(SHIPPING)
    (folder / "hotels.md").write_text(HOTELS)
    return folder


def chunk_counts(manager: IndexManager, theme: str) -> dict[str, int]:
    """Each document's chunk rows, checked against what its DocumentInfo says."""
    index = manager.get(theme)
    documents = index.manifest.documents
    counts = {source: len(index.chunks_of(source)) for source in documents}
    assert counts == {source: info.chunks for source, info in documents.items()}
    return counts


def test_the_settings_choose_the_store_in_one_place(settings, tmp_path):
    context = EngineContext(settings)
    assert isinstance(context.indexes.store, PgIndexStore)
    faiss = EngineContext(Settings.from_env({"INDEX_ROOT": str(tmp_path / "idx")})).indexes
    assert isinstance(faiss.store, FaissFiles) and faiss.root == tmp_path / "idx"
    with pytest.raises(IndexProblem, match="VECTOR_STORE='chroma' is not known; use faiss or pgvector"):
        EngineContext(Settings.from_env({"VECTOR_STORE": "chroma"})).indexes  # noqa: B018
    no_url = IndexManager.for_settings(Settings.from_env({"VECTOR_STORE": "pgvector"}))
    with pytest.raises(IndexProblem, match="needs DATABASE_URL"):
        no_url.get("ops")
    context.close()


def test_ingest_search_reingest_in_postgresql_and_no_faiss_file(manager, docs, tmp_path):
    report = ingest_paths("ops", [docs], manager=manager)
    assert sorted(report.added) == ["hotels.md", "shipping.md"] and report.chunks_added >= 2
    hits = search_hits("ops", "delivery time to Norway", 2, manager=manager)
    assert hits[0].chunk.source == "shipping.md" and "nine working days" in hits[0].chunk.text
    assert not (tmp_path / "indexes").exists()  # nothing went to FAISS files

    again = ingest_paths("ops", [docs], manager=manager)
    assert sorted(again.unchanged) == ["hotels.md", "shipping.md"] and again.chunks_added == 0

    (docs / "shipping.md").write_text(SHIPPING_V2)
    changed = ingest_paths("ops", [docs], manager=manager)
    assert changed.replaced == ["shipping.md"] and changed.unchanged == ["hotels.md"]
    texts = " ".join(c.text for c in manager.get("ops").chunks_of("shipping.md"))
    assert "four working days" in texts and "nine working days" not in texts
    hits = search_hits("ops", "delivery time to Norway", 4, manager=manager)
    assert not any("nine working days" in h.chunk.text for h in hits)
    assert chunk_counts(manager, "ops") == {"hotels.md": 1, "shipping.md": 1}


def test_a_second_server_sees_writes_at_once_without_reloading(settings, manager, docs):
    other = IndexManager.for_settings(settings)  # another app server on the same database
    ingest_paths("ops", [docs / "hotels.md"], manager=manager, base=docs)
    view = other.get("ops")
    assert set(view.manifest.documents) == {"hotels.md"}
    ingest_paths("ops", [docs / "shipping.md"], manager=manager, base=docs)
    assert other.get("ops") is view  # the cached live view, not a reload
    assert set(view.manifest.documents) == {"hotels.md", "shipping.md"}
    assert search_hits("ops", "parcels to Norway", 1, manager=other)[0].chunk.source == "shipping.md"
    assert delete_document("ops", "shipping.md", other) is True
    assert set(manager.get("ops").manifest.documents) == {"hotels.md"}
    other.close()


def test_two_ingests_of_one_theme_at_once_lose_nothing(settings, docs, tmp_path):
    extra = tmp_path / "extra"
    extra.mkdir()
    for n in range(6):
        (extra / f"note{n}.md").write_text(f"# Note {n}\n\nItem {n} costs {n * 7} euros.\n")
    servers = [IndexManager.for_settings(settings) for _ in range(2)]
    jobs = [([docs], servers[0]), ([extra], servers[1])]
    errors: list[BaseException] = []
    start = threading.Barrier(len(jobs))

    def ingest(paths, manager):
        start.wait()
        try:
            ingest_paths("ops", paths, manager=manager)
        except BaseException as exc:  # reported below: the test fails on any
            errors.append(exc)

    threads = [threading.Thread(target=ingest, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    counts = chunk_counts(servers[0], "ops")
    assert set(counts) == {"hotels.md", "shipping.md", *(f"note{n}.md" for n in range(6))}
    for manager in servers:
        manager.close()


def test_delete_a_document_then_remove_the_theme(manager, docs):
    ingest_paths("ops", [docs], manager=manager)
    assert delete_document("ops", "hotels.md", manager) is True
    assert delete_document("ops", "hotels.md", manager) is False
    assert chunk_counts(manager, "ops") == {"shipping.md": 1}
    assert manager.store.themes() == ["ops"]
    assert remove_theme_index("ops", manager) is True
    assert manager.store.themes() == []
    with pytest.raises(IndexProblem, match="no index yet"):
        manager.get("ops")
    assert remove_theme_index("ops", manager) is False


def test_the_engine_search_docs_reads_postgresql(settings, manager, docs):
    ingest_paths("ops", [docs], manager=manager)
    context = EngineContext(settings, indexes=manager, hub=None)
    tools = context.registry("ops")
    engine = make_engine(
        [call("search_docs", {"query": "hotel cap per night in Paris"}), "Answer: 160 euros [hotels.md]."],
        tools=tools,
    )
    text = run(engine, "What is the hotel cap in Paris?")
    assert "source: hotels.md · Travel > Hotels · score" in text
    assert "160 euros per night" in text
    assert engine.result.answer.startswith("160 euros")


@pytest.fixture(scope="module")
def outage_server():
    """A PostgreSQL server of this module alone, since its test stops it."""
    server = PgServer()
    yield server
    server.close()


def test_a_dead_database_is_one_sentence_and_the_same_manager_works_once_it_is_back(outage_server, docs, tmp_path):
    url = outage_server.create_database("down")
    outage_server.stop()
    try:
        manager = IndexManager.for_settings(pg_settings(url, tmp_path))  # no connection yet: the app starts
        with pytest.raises(VectorStoreUnavailable) as failure:
            ingest_paths("ops", [docs], manager=manager)
        message = str(failure.value)
        assert "cannot be reached" in message and "Check DATABASE_URL" in message and "\n" not in message
        assert isinstance(failure.value, IndexUnreachable)
        observation = SearchDocs("ops", manager).run(SearchDocsArgs(query="hotel cap"))
        assert observation.startswith("Error: The vector store (PostgreSQL at") and "cannot be reached" in observation
    finally:
        outage_server.start()
    assert sorted(ingest_paths("ops", [docs], manager=manager).added) == ["hotels.md", "shipping.md"]
    manager.close()
