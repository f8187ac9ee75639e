"""The demo theme: a fictional company's analyst handbook shipped in data/themes/."""

from __future__ import annotations

import sys

from engine.rag.manager import IndexManager
from engine.rag.messages import say
from engine.rag.store import IndexProblem, themes_root

DEMO_THEME = "handbook"


def ensure_demo_index(manager: IndexManager) -> int:
    """Build the demo theme's index in ``manager``'s store when it is missing or unusable."""
    from engine.rag.embeddings import get_embedder
    from engine.rag.ingest import ingest_paths, remove_theme_index

    embedder = get_embedder()
    try:
        index = manager.get(DEMO_THEME)
        if index.embedding_model == embedder.name:
            print(say("demo_ready", n=index.manifest.count, theme=DEMO_THEME))
            return 0
        print(say("demo_rebuild", indexed=index.embedding_model, model=embedder.name))
        remove_theme_index(DEMO_THEME, manager)
    except IndexProblem as exc:
        if "no index yet" not in str(exc) and not manager.store.rebuilds_unreadable:
            print(say("line_error", detail=exc), file=sys.stderr)
            return 1

    source = themes_root() / DEMO_THEME
    if not source.exists():
        print(say("line_error", detail=say("demo_missing", source=source)), file=sys.stderr)
        return 1
    report = ingest_paths(DEMO_THEME, [source], manager=manager)
    print(say("demo_built", summary=report.summary()))
    return 0
