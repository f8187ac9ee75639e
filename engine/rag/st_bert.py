"""The route for a sentence-transformers BERT model (all-MiniLM-L6-v2 and its kin), chosen by
what the machine declares (``backend``):

- ``bfloat16``, where the CPU multiplies bfloat16 natively (``native``: AVX512-BF16 or AMX):
  the library's own, sentence-transformers with ``model_kwargs={"torch_dtype": torch.bfloat16}``
  (``embeddings.Embedder``). It replaced our hand-written bfloat16 encoder: in the same run
  (BENCHMARKS.md, note 12) it ran 42.8 chunks/s against our 33.6 (1.28×), keeping 0.987 of
  float32 torch's top 10.
- ``float32``: our encoder on onnxruntime (``bert_onnx``), built in memory from the
  directory's float32 weights (a third of a second, nothing fetched), with the directory's
  own tokenizer, truncation, mean pooling and normalisation: sentence-transformers' vectors
  to float rounding (recall@10 1.000). Kept for now, not proven needed: on the idle machine
  it ran 1.46× sentence-transformers' torch float32 (39.1 against 26.9 chunks/s, note 10), but
  in the loaded same-run measurement of note 12 only 0.95× (12.4 against 13.0), under the 1.3×
  that would keep it; the switch waits for an idle same-run measurement. The library's own
  ONNX route (``backend="onnx"``) cannot replace it here: optimum-onnx 0.1.0 pins
  transformers<4.58 and the app's pins (transformers 5.24) stay. ``EMBEDDING_PRECISION=float32``
  asks for this route even where bfloat16 is native.

Only a directory that declares what our route computes is taken (``supports``): a
``BertModel`` with GELU, absolute positions and mean pooling alone. Any other model stays on
sentence-transformers in float32.
"""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import numpy as np

from engine.rag.bert_onnx import BertOnnx, Encoder, Layer, f32_linear
from engine.rag.messages import say
from engine.rag.store import IndexProblem
from engine.rag.windows import Window


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


PRECISIONS = ("auto", "float32")


def native() -> bool:
    """Whether torch is installed with oneDNN (its bfloat16 GEMM) and this CPU multiplies
    bfloat16 natively; elsewhere torch would emulate bfloat16, slower than float32."""
    if find_spec("torch") is None:
        return False
    import torch

    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    hardware = any(bool(getattr(torch.cpu, name, lambda: False)()) for name in checks)
    return hardware and torch.backends.mkldnn.is_available()


def backend(precision: str = "auto") -> str | None:
    """The route this machine runs: ``"bfloat16"`` (sentence-transformers in bfloat16) where the
    CPU multiplies bfloat16 natively and ``precision`` allows it, else ``"float32"`` (ours, on
    onnxruntime) where onnxruntime is installed, else None (sentence-transformers in float32)."""
    if precision not in PRECISIONS:
        raise IndexProblem(say("precision_unknown", precision=precision[:40]))
    if precision == "auto" and native():
        return "bfloat16"
    if any(find_spec(name) is None for name in ("tokenizers", "safetensors")):
        return None
    if all(find_spec(name) is not None for name in ("onnxruntime", "onnx")):
        return "float32"
    return None


def supports(path: str | Path, precision: str = "auto") -> bool:
    """Whether ``path`` is a sentence-transformers directory these routes compute, and this
    machine has one of them."""
    return backend(precision) is not None and declares(Path(path))


def declares(root: Path) -> bool:
    """Whether the directory declares the model these routes compute."""
    config = _json(root / "config.json")
    pooling = _json(root / "1_Pooling" / "config.json")
    try:  # modules.json is a list of stages: Transformer, Pooling and (optionally) Normalize
        stages = [m.get("type", "") for m in json.loads((root / "modules.json").read_text(encoding="utf-8"))]
    except (OSError, ValueError, AttributeError):
        return False
    return (
        config.get("architectures") == ["BertModel"]
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and pooling.get("pooling_mode_mean_tokens") is True
        and not any(
            pooling.get(k) for k in pooling if k.startswith("pooling_mode_") and k != "pooling_mode_mean_tokens"
        )
        and [s.rsplit(".", 1)[-1] for s in stages]
        in (["Transformer", "Pooling", "Normalize"], ["Transformer", "Pooling"])
        and (root / "model.safetensors").is_file()
        and (root / "tokenizer.json").is_file()
    )


def encoder(tensors: dict[str, np.ndarray], config: dict[str, Any], name: str) -> Encoder:
    def t(key: str) -> np.ndarray:
        return tensors[key]

    layers = []
    for i in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{i}"
        att = f"{p}.attention"
        qkv = np.concatenate([t(f"{att}.self.{part}.weight") for part in ("query", "key", "value")], axis=0)
        qkv_bias = np.concatenate([t(f"{att}.self.{part}.bias") for part in ("query", "key", "value")])
        layers.append(
            Layer(
                qkv=f32_linear(qkv, qkv_bias),
                attention_out=f32_linear(t(f"{att}.output.dense.weight"), t(f"{att}.output.dense.bias")),
                attention_norm=(t(f"{att}.output.LayerNorm.weight"), t(f"{att}.output.LayerNorm.bias")),
                up=f32_linear(t(f"{p}.intermediate.dense.weight"), t(f"{p}.intermediate.dense.bias")),
                down=f32_linear(t(f"{p}.output.dense.weight"), t(f"{p}.output.dense.bias")),
                output_norm=(t(f"{p}.output.LayerNorm.weight"), t(f"{p}.output.LayerNorm.bias")),
            )
        )
    norm = (t("embeddings.LayerNorm.weight"), t("embeddings.LayerNorm.bias"))
    eps = float(config.get("layer_norm_eps", 1e-12))
    return Encoder(name, int(config["hidden_size"]), int(config["num_attention_heads"]), eps, norm, layers)


class SentenceTransformerBert:
    """Our float32 route on onnxruntime: ``encode`` for documents and questions alike (a symmetric
    model); L2-normalised float32 rows."""

    backend = "float32"

    def __init__(self, path: str | Path, threads: int | None = None) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        root = Path(path)
        if backend("float32") != "float32" or not declares(root):
            raise ValueError(f"{root.name} is not a BERT mean-pooling model this route computes")
        config = _json(root / "config.json")
        limit = int(_json(root / "sentence_bert_config.json").get("max_seq_length", config["max_position_embeddings"]))
        tensors = load_file(str(root / "model.safetensors"))
        self.dim = int(config["hidden_size"])
        self._tokenizer = Tokenizer.from_file(str(root / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(min(limit, int(config["max_position_embeddings"])))
        self._word = np.ascontiguousarray(tensors["embeddings.word_embeddings.weight"], dtype=np.float32)
        self._positions = np.ascontiguousarray(tensors["embeddings.position_embeddings.weight"], dtype=np.float32)
        self._type = np.asarray(tensors["embeddings.token_type_embeddings.weight"], dtype=np.float32)[0]
        pad = int(config.get("pad_token_id") or 0)
        self._bert = BertOnnx(encoder(tensors, config, root.name), self._embed, pad, threads)

    def _embed(self, ids: np.ndarray) -> np.ndarray:
        embeddings = self._word[ids]
        embeddings += self._positions[: ids.shape[1]] + self._type
        return embeddings

    def encode(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(list(texts), add_special_tokens=True)
        windows = [Window(i, encoding.ids) for i, encoding in enumerate(encodings)]
        return self._bert.encode(windows, len(texts))
