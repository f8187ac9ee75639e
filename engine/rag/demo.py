"""The demo theme: a fictional company's analyst handbook shipped in data/themes/."""

from __future__ import annotations

import sys

from engine.rag.store import IndexProblem, ThemeIndex, themes_root

DEMO_THEME = "handbook"


def ensure_demo_index() -> int:
    """Build the demo theme's index when it is missing or unusable."""
    from engine.rag.embeddings import get_embedder
    from engine.rag.ingest import ingest_paths, remove_theme_index

    embedder = get_embedder()
    try:
        index = ThemeIndex.load(DEMO_THEME)
        if index.manifest.embedding_model == embedder.name:
            print(f"demo index: {index.manifest.count} chunks in theme {DEMO_THEME}")
            return 0
        print(f"demo index: built with {index.manifest.embedding_model}, rebuilding with {embedder.name}")
        remove_theme_index(DEMO_THEME)
    except IndexProblem:
        pass

    source = themes_root() / DEMO_THEME
    if not source.exists():
        print(f"error: the demo corpus {source} is missing", file=sys.stderr)
        return 1
    report = ingest_paths(DEMO_THEME, [source])
    print(f"demo index built: {report.summary()}")
    return 0
