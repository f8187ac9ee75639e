"""The demo theme: a fictional company's analyst handbook shipped in data/themes/."""

from __future__ import annotations

import sys

from engine.rag.manager import IndexManager
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
            print(f"demo index: {index.manifest.count} chunks in theme {DEMO_THEME}")
            return 0
        print(f"demo index: built with {index.embedding_model}, rebuilding with {embedder.name}")
        remove_theme_index(DEMO_THEME, manager)
    except IndexProblem as exc:
        if "no index yet" not in str(exc) and not manager.store.rebuilds_unreadable:
            print(f"error: {exc}", file=sys.stderr)
            return 1

    source = themes_root() / DEMO_THEME
    if not source.exists():
        print(f"error: the demo corpus {source} is missing", file=sys.stderr)
        return 1
    report = ingest_paths(DEMO_THEME, [source], manager=manager)
    print(f"demo index built: {report.summary()}")
    return 0
