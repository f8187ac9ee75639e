"""sentence-transformers' own routes for ``bench_ingest.py``: torch float32, torch with
``model_kwargs={"torch_dtype": torch.bfloat16}``, ``backend="onnx"`` and ``backend="openvino"``,
each in float32 and in the int8 export the library provides (``export_dynamic_quantized_onnx_model``,
``export_static_quantized_openvino_model``), made offline from the packaged weights.

It imports only sentence-transformers and numpy, so it runs in the app's venv (the torch
routes) and, as a worker (``python bench/st_routes.py``), in a bench-only venv for a backend
that cannot be installed beside the app's pins (``make bench-venvs``; ``bench/requirements-st-*.txt``).

Worker protocol: argv is ``MODEL_DIR VARIANT WORK_DIR``; each stdin line is a JSON list of
texts, answered on stdout by one JSON line ``{"rows", "dim", "seconds", "b64"}`` (float32 rows,
L2-normalised; ``seconds`` is the encode call alone). The first line it writes is
``{"ready": true}`` or ``{"error": "one sentence"}``.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

VARIANTS = ("torch", "torch-bf16", "onnx", "onnx-int8", "openvino", "openvino-int8")
ONNX_INT8 = "avx2"  # the int8 configuration every x86-64 machine here runs (no AVX-512 assumed)

Encode = Callable[[list[str]], np.ndarray]


def _offline() -> None:
    for key, value in (
        ("HF_HUB_OFFLINE", "1"),
        ("TRANSFORMERS_OFFLINE", "1"),
        ("HF_DATASETS_OFFLINE", "1"),
        ("HF_HUB_DISABLE_PROGRESS_BARS", "1"),
        ("TRANSFORMERS_VERBOSITY", "error"),
        ("TOKENIZERS_PARALLELISM", "false"),
    ):
        os.environ.setdefault(key, value)


def _copy(model_dir: Path, work: Path, variant: str) -> Path:
    """A private copy of the model directory: an export is written beside the weights, and the
    packaged directory in site-packages must stay as it was."""
    target = work / f"{model_dir.name}-{variant}"
    if not target.exists():
        shutil.copytree(model_dir, target)
    return target


def _calibration(work: Path, texts: list[str]) -> Path:
    """A local dataset folder (one CSV) for the OpenVINO static int8 export: nothing fetched."""
    folder = work / "calibration"
    folder.mkdir(parents=True, exist_ok=True)
    import csv

    with (folder / "train.csv").open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["text"])
        writer.writerows([t] for t in texts)
    return folder


def load(model_dir: str | Path, variant: str, work: str | Path, calibration: list[str] | None = None) -> Encode:
    """The encode function of one library route on ``model_dir`` (L2-normalised float32 rows)."""
    _offline()
    import torch
    from sentence_transformers import SentenceTransformer

    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant}")
    model_dir, work = Path(model_dir), Path(work)
    work.mkdir(parents=True, exist_ok=True)
    if variant == "torch":
        model = SentenceTransformer(str(model_dir), device="cpu")
    elif variant == "torch-bf16":
        model = SentenceTransformer(str(model_dir), device="cpu", model_kwargs={"torch_dtype": torch.bfloat16})
    elif variant in ("onnx", "openvino"):
        folder = _copy(model_dir, work, variant)
        exported = (folder / "onnx" / "model.onnx", folder / "openvino" / "openvino_model.xml")
        fresh = not any(path.exists() for path in exported)
        model = SentenceTransformer(str(folder), device="cpu", backend=variant)
        if fresh:
            model.save_pretrained(str(folder))  # the export is kept: the next run loads it
    elif variant == "onnx-int8":
        from sentence_transformers import export_dynamic_quantized_onnx_model

        folder = _copy(model_dir, work, variant)
        if not list((folder / "onnx").glob(f"model_*int8_{ONNX_INT8}.onnx")):
            float_model = SentenceTransformer(str(folder), device="cpu", backend="onnx")
            float_model.save_pretrained(str(folder))
            export_dynamic_quantized_onnx_model(float_model, ONNX_INT8, str(folder))
        name = next((folder / "onnx").glob(f"model_*int8_{ONNX_INT8}.onnx")).name  # quint8 or qint8, by configuration
        model = SentenceTransformer(str(folder), device="cpu", backend="onnx", model_kwargs={"file_name": name})
    else:  # openvino-int8
        from optimum.intel import OVQuantizationConfig
        from sentence_transformers import export_static_quantized_openvino_model

        folder = _copy(model_dir, work, variant)
        name = "openvino/openvino_model_qint8_quantized.xml"
        if not (folder / name).exists():
            float_model = SentenceTransformer(str(folder), device="cpu", backend="openvino")
            float_model.save_pretrained(str(folder))
            export_static_quantized_openvino_model(
                float_model,
                OVQuantizationConfig(num_samples=300),
                str(folder),
                dataset_name=str(_calibration(work, calibration or [])),
                dataset_config_name="default",
                dataset_split="train",
                column_name="text",
            )
        model = SentenceTransformer(str(folder), device="cpu", backend="openvino", model_kwargs={"file_name": name})

    def encode(texts: list[str]) -> np.ndarray:
        rows = model.encode(
            list(texts), batch_size=64, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        rows = np.asarray(rows, dtype=np.float32)  # a bfloat16 model hands back rows normalised in bfloat16
        return np.ascontiguousarray(rows / np.linalg.norm(rows, axis=1, keepdims=True))

    return encode


def worker(model_dir: str, variant: str, work: str) -> None:
    """Serve ``load(...)`` over stdin/stdout (see the module docstring)."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # whatever the libraries print goes to stderr, never into the protocol
    calibration_file = Path(work) / "calibration.json"
    calibration = json.loads(calibration_file.read_text(encoding="utf-8")) if calibration_file.exists() else None
    try:
        encode = load(model_dir, variant, work, calibration)
    except Exception as exc:  # reported to the bench as one line; the bench goes on without this route
        channel.write(json.dumps({"error": f"{type(exc).__name__}: {str(exc)[:300]}"}) + "\n")
        return
    channel.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        texts = json.loads(line)
        start = time.perf_counter()
        rows = encode(texts)
        seconds = time.perf_counter() - start
        payload = base64.b64encode(rows.tobytes()).decode("ascii")
        channel.write(
            json.dumps({"rows": rows.shape[0], "dim": rows.shape[1], "seconds": seconds, "b64": payload}) + "\n"
        )


if __name__ == "__main__":
    worker(*sys.argv[1:4])
