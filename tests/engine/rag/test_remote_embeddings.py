"""Embeddings through a server: a local fake OpenAI-compatible /v1/embeddings (tests/fakes)."""

from __future__ import annotations

import socket
import time

import numpy as np
import pytest

from engine.rag.embedding_errors import EmbeddingModelError, EmbeddingServerDown
from engine.rag.embeddings import get_embedder, resolve_embeddings
from engine.rag.ingest import ingest_cli, ingest_paths
from engine.rag.remote_embeddings import RemoteEmbedder
from engine.rag.store import IndexProblem
from engine.settings import Settings
from engine.tools.theme import search_hits
from tests.fakes.embeddings_server import FakeEmbeddingServer, bag_of_words


@pytest.fixture
def server():
    fake = FakeEmbeddingServer(models=("fake-embed", "fake-embed-2"))
    fake.url = fake.start()
    yield fake
    fake.stop()


def _remote(server, **kw):
    return RemoteEmbedder(server.url, "fake-embed", retry_initial_s=0.01, **kw)


@pytest.fixture
def docs(tmp_path):
    d = tmp_path / "docs"
    d.mkdir()
    for n in range(6):
        (d / f"note{n}.txt").write_text(f"Note {n}: the depot number {n} ships parcels to region r{n}.\n")
    (d / "policy.md").write_text("# Policy\n\nHotels are capped at 160 euros per night in Paris.\n")
    return d


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_texts_go_in_batches_and_come_back_in_order(server):
    embedder = _remote(server, batch_size=64)
    texts = [f"text number {i} about item{i}" for i in range(150)]
    vectors = embedder.encode(texts)
    assert [len(r["input"]) for r in server.requests] == [64, 64, 22]
    assert vectors.shape == (150, 32) and vectors.dtype == np.float32
    expected = np.asarray([bag_of_words(t, 32) for t in texts], dtype=np.float32)
    assert np.allclose(vectors, expected, atol=1e-6)  # the fake answers in reverse order: index puts them back


def test_prefixes_are_sent_for_questions_and_passages(server):
    embedder = _remote(server, query_prefix="query: ", passage_prefix="passage: ")
    embedder.encode_query(["where"])
    embedder.encode(["here"])
    assert [r["input"] for r in server.requests] == [["query: where"], ["passage: here"]]


def test_a_busy_server_is_retried_then_answers(server):
    server.statuses.extend([503, 429])
    vectors = _remote(server).encode(["hello"])
    assert vectors.shape == (1, 32) and len(server.requests) == 3


def test_a_server_that_stays_busy_is_one_sentence_within_the_bound(server):
    server.fail_after = 0
    start = time.monotonic()
    with pytest.raises(EmbeddingServerDown) as caught:
        _remote(server, max_retry_s=0.2).encode(["hello"])
    assert time.monotonic() - start < 2
    text = str(caught.value)
    assert "\n" not in text and "127.0.0.1" in text and "HTTP 503" in text and "resumes" in text
    assert "reprend" in caught.value.text("fr")


def test_a_server_that_is_down_is_one_sentence():
    embedder = RemoteEmbedder(f"http://127.0.0.1:{_closed_port()}/v1", "m", max_retry_s=0.1, retry_initial_s=0.02)
    with pytest.raises(EmbeddingServerDown) as caught:
        embedder.encode(["hello"])
    assert "did not answer" in str(caught.value) and "ConnectError" in str(caught.value)
    assert embedder.requests >= 2  # retried before giving up


def test_a_model_the_server_does_not_serve_is_one_sentence_at_once(server):
    embedder = RemoteEmbedder(server.url, "other-model", retry_initial_s=0.01)
    with pytest.raises(EmbeddingModelError) as caught:
        embedder.encode(["hello"])
    assert 'refused model "other-model"' in str(caught.value) and "404" in str(caught.value)
    assert len(server.requests) == 1


def test_settings_choose_the_server_and_an_unknown_name_is_an_error(tmp_path, monkeypatch, server):
    monkeypatch.setenv("EMBEDDINGS_BASE_URL", server.url)
    monkeypatch.setenv("EMBEDDINGS_MODEL", "fake-embed")
    embedder = get_embedder()
    assert isinstance(embedder, RemoteEmbedder) and embedder.name == "fake-embed" and embedder.dim == 32
    monkeypatch.delenv("EMBEDDINGS_MODEL")
    with pytest.raises(EmbeddingModelError, match="EMBEDDINGS_MODEL is not"):
        resolve_embeddings()
    monkeypatch.delenv("EMBEDDINGS_BASE_URL")
    models = tmp_path / "models.json"
    models.write_text('{"embeddings": "all-MiniLM-L6-v3"}')
    monkeypatch.setenv("MODELS_JSON", str(models))
    with pytest.raises(EmbeddingModelError, match='"all-MiniLM-L6-v3" is not known'):
        get_embedder()  # never MiniLM in its place


def test_models_json_names_a_server_with_its_key_in_the_environment(tmp_path, monkeypatch):
    models = tmp_path / "models.json"
    models.write_text(
        '{"embeddings": {"base_url": "http://127.0.0.1:9/v1", "model": "bge-m3", "api_key_env": "TEAM_EMBED_KEY",'
        ' "query_prefix": "q: "}}'
    )
    monkeypatch.setenv("MODELS_JSON", str(models))
    monkeypatch.setenv("TEAM_EMBED_KEY", "s3cret")
    choice = resolve_embeddings()
    assert (choice.kind, choice.name, choice.api_key, choice.query_prefix) == ("remote", "bge-m3", "s3cret", "q: ")
    assert "s3cret" not in repr(choice)


def test_mistral_embed_needs_the_key_and_goes_to_mistral(tmp_path, monkeypatch):
    models = tmp_path / "models.json"
    models.write_text('{"embeddings": "mistral-embed"}')
    monkeypatch.setenv("MODELS_JSON", str(models))
    with pytest.raises(EmbeddingModelError, match="needs MISTRAL_API_KEY"):
        resolve_embeddings(Settings.from_env({"MODELS_JSON": str(models)}))
    fake = FakeEmbeddingServer(models=("mistral-embed",), dim=1024)
    url = fake.start()
    try:
        monkeypatch.setenv("MISTRAL_API_KEY", "k")
        monkeypatch.setenv("MISTRAL_SERVER_URL", url.removesuffix("/v1"))
        embedder = get_embedder()
        assert embedder.encode(["a passage"]).shape == (1, 1024)
        assert fake.requests[-1]["model"] == "mistral-embed"
    finally:
        fake.stop()


def test_ingest_and_search_through_the_server_record_the_model(docs, manager, server):
    embedder = _remote(server)
    report = ingest_paths("rt", [docs], manager=manager, embedder=embedder)
    assert len(report.added) == 7
    index = manager.get("rt")
    assert (index.embedding_model, index.dim) == ("fake-embed", 32)
    with pytest.raises(IndexProblem, match="indexed with fake-embed, and the app now uses"):
        ingest_paths("rt", [docs], manager=manager, embedder=RemoteEmbedder(server.url, "fake-embed-2"))


def test_search_with_the_served_model(docs, manager, server, monkeypatch):
    monkeypatch.setenv("EMBEDDINGS_BASE_URL", server.url)
    monkeypatch.setenv("EMBEDDINGS_MODEL", "fake-embed")
    ingest_paths("rt", [docs], manager=manager, embedder=get_embedder())
    hits = search_hits("rt", "hotels capped per night in Paris", k=2, manager=manager)
    assert hits[0].chunk.source == "policy.md"


def test_an_ingest_cut_by_the_server_resumes_where_it_stopped(docs, manager, server, monkeypatch):
    from engine.rag import ingest

    monkeypatch.setattr(ingest, "EMBED_SLICE", 2)
    server.fail_after = 2  # two slices of two chunks, then the server goes down
    embedder = _remote(server, max_retry_s=0.05)
    with pytest.raises(EmbeddingServerDown):
        ingest_paths("rt", [docs], manager=manager, embedder=embedder)
    with pytest.raises(IndexProblem, match="no index yet"):
        manager.get("rt")  # all or nothing: nothing was written
    server.fail_after = None
    sent_before = len(server.requests)
    report = ingest_paths("rt", [docs], manager=manager, embedder=embedder)
    assert report.resumed_slices == 2 and len(report.added) == 7
    sizes_now = [len(r["input"]) for r in server.requests[sent_before:]]
    assert sizes_now == [2, 1]  # the 7 chunks less the 4 kept from the first run
    index = manager.get("rt")
    whole = embedder.encode([c.text for c in index.chunks])
    assert np.allclose(index.index.reconstruct_n(0, len(index.chunks)), whole, atol=1e-6)
    assert not (manager.root / ".embedding-cache" / "rt").exists()  # written: the kept slices are gone


def test_the_cli_says_a_down_server_in_one_line_and_exits_3(docs, manager, monkeypatch, capsys):
    monkeypatch.setenv("EMBEDDINGS_BASE_URL", f"http://127.0.0.1:{_closed_port()}/v1")
    monkeypatch.setenv("EMBEDDINGS_MODEL", "m")
    monkeypatch.setenv("LLM_MAX_RETRY_S", "0.2")
    assert ingest_cli("rt", [docs], manager) == 3
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("error: The embedding server at 127.0.0.1")


def test_a_search_while_the_server_is_down_is_one_sentence_and_the_run_answers(docs, tmp_path, fake_server):
    from tests.test_cli import cli, jsonl, mistral_env

    embed = FakeEmbeddingServer()
    url = embed.start()
    env = {"EMBEDDINGS_BASE_URL": url, "EMBEDDINGS_MODEL": "fake-embed", "INDEX_ROOT": str(tmp_path / "idx")}
    env |= {"MCP_SERVERS": "off", "LLM_MAX_RETRY_S": "0.3"}
    assert cli("ingest", "--theme", "rt", str(docs), env=env).returncode == 0
    embed.stop()  # the embedding server goes down
    fake_server.script.extend(
        [
            {"tool_calls": [{"id": "s1", "name": "search_docs", "arguments": '{"query": "hotel cap in Paris"}'}]},
            {"text": "Answer: I could not search the documents."},
        ]
    )
    proc = cli(
        "ask",
        "What is the hotel cap in Paris?",
        "--theme",
        "rt",
        "--format",
        "jsonl",
        env=env | mistral_env(fake_server),
    )
    assert proc.returncode == 0, proc.stderr
    observation = next(line["content"] for line in jsonl(proc.stdout) if line["type"] == "observation")
    assert "The embedding server at 127.0.0.1" in observation and "did not answer" in observation
    assert observation.count("\n") == 0 and jsonl(proc.stdout)[-1]["status"] == "answered"


def test_embeddings_model_names_a_local_model_too(tmp_path):
    env = {"EMBEDDINGS_MODEL": "all-MiniLM-L6-v2", "MODELS_JSON": str(tmp_path / "none.json")}
    choice = resolve_embeddings(Settings.from_env(env))
    assert (choice.kind, choice.name) == ("local", "all-MiniLM-L6-v2") and choice.path.endswith("model")
    assert resolve_embeddings(Settings.from_env({"MODELS_JSON": str(tmp_path / "none.json")})).kind == "e5"


def test_a_local_embedder_keeps_no_slices(docs, manager, embedder):
    report = ingest_paths("lt", [docs], manager=manager, embedder=embedder)
    assert report.resumed_slices == 0 and not (manager.root / ".embedding-cache").exists()
