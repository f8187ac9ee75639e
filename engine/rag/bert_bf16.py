"""A BERT sentence encoder on torch whose linear layers multiply in bfloat16.

On a CPU that multiplies bfloat16 natively (AVX512-BF16 or AMX, which ``native`` asks
torch about), oneDNN's bfloat16 GEMM runs at more than twice the float32 one here, and
the linear layers are nine tenths of a BERT encoder's arithmetic. Only their operands
are rounded to bfloat16: products accumulate in float32, and attention, softmax, GELU,
residuals and layer norms stay in float32. all-MiniLM-L6-v2 then keeps 0.99 of its
float32 top 10 at twice sentence-transformers' chunks per second (BENCHMARKS.md, note 10).
Elsewhere torch would emulate bfloat16, slower than float32, so the float32 route is
taken instead.

It reads the same ``Encoder`` description as ``bert_onnx`` (float32 linear layers) and
pools windows with ``windows.encode_windows``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import numpy as np

from engine.rag.bert_onnx import Encoder, Linear
from engine.rag.windows import Window, encode_windows, mask_bias, mean_pool


def native() -> bool:
    """Whether torch is installed with oneDNN (its bfloat16 GEMM) and this CPU multiplies
    bfloat16 natively."""
    if find_spec("torch") is None:
        return False
    import torch

    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    hardware = any(bool(getattr(torch.cpu, name, lambda: False)()) for name in checks)
    return hardware and torch.backends.mkldnn.is_available()


class BertBf16:
    """``encoder`` on torch; ``embed`` maps token ids (batch, seq) to (batch, seq, hidden)
    float32 input embeddings (word + position + token type)."""

    def __init__(self, encoder: Encoder, embed: Callable[[np.ndarray], np.ndarray], pad: int) -> None:
        import torch

        self._torch = torch
        self.dim = encoder.hidden
        self._heads = encoder.heads
        self._eps = encoder.eps
        self._embed = embed
        self._pad = pad

        def linear(layer: Linear) -> tuple[Any, Any]:
            if layer.bits != 32:
                raise ValueError("the bfloat16 route takes float32 linear layers")
            weight = torch.from_numpy(np.ascontiguousarray(layer.packed.T)).to(torch.bfloat16).contiguous()
            return weight, torch.from_numpy(layer.bias)

        def norm(pair: tuple[np.ndarray, np.ndarray]) -> tuple[Any, Any]:
            return torch.from_numpy(np.array(pair[0], np.float32)), torch.from_numpy(np.array(pair[1], np.float32))

        self._embedding_norm = norm(encoder.embedding_norm)
        self._layers = [
            (
                linear(layer.qkv),
                linear(layer.attention_out),
                norm(layer.attention_norm),
                linear(layer.up),
                linear(layer.down),
                norm(layer.output_norm),
            )
            for layer in encoder.layers
        ]

    def _linear(self, x: Any, layer: tuple[Any, Any]) -> Any:
        weight, bias = layer
        return self._torch.nn.functional.linear(x.to(self._torch.bfloat16), weight).float() + bias

    def pooled(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Mean-pooled last hidden states of a padded batch, one row per window."""
        torch = self._torch
        functional = torch.nn.functional
        batch, seq = ids.shape
        h, heads = self.dim, self._heads
        with torch.inference_mode():
            x = functional.layer_norm(torch.from_numpy(self._embed(ids)), (h,), *self._embedding_norm, self._eps)
            bias = torch.from_numpy(mask_bias(mask))
            for qkv, attention_out, attention_norm, up, down, output_norm in self._layers:
                q, k, v = self._linear(x, qkv).view(batch, seq, 3, heads, h // heads).permute(2, 0, 3, 1, 4)
                context = functional.scaled_dot_product_attention(q, k, v, attn_mask=bias)
                context = context.transpose(1, 2).reshape(batch, seq, h)
                x = functional.layer_norm(x + self._linear(context, attention_out), (h,), *attention_norm, self._eps)
                inner = functional.gelu(self._linear(x, up))
                x = functional.layer_norm(x + self._linear(inner, down), (h,), *output_norm, self._eps)
            return mean_pool(x.numpy(), mask)

    def encode(self, windows: list[Window], n_texts: int) -> np.ndarray:
        """L2-normalised float32 rows, one per text (``windows.encode_windows``)."""
        return encode_windows(windows, n_texts, self.dim, self._pad, self.pooled)
