"""Where theme indexes are kept: what ingest, search and the Index browser need from it.

Two stores fit: ``FaissFiles`` (one FAISS generation per theme under the index root,
the default) and ``PgIndexStore`` (chunks and vectors in PostgreSQL with pgvector, for
a team). ``IndexManager.for_settings`` is the one place that picks one; everything
else goes through the manager and its ``store``.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

import numpy as np

from engine.rag.chunking import Chunk
from engine.rag.locking import theme_write_lock
from engine.rag.store import DocumentInfo, Hit, Manifest, ThemeIndex, index_root, remove_index, theme_folders


class ThemeView(Protocol):
    """One theme's index as search, ingest and the Index browser read it."""

    generation: str | None  # the FAISS generation loaded; None for a live view of a database

    @property
    def theme(self) -> str: ...

    @property
    def embedding_model(self) -> str: ...

    @property
    def dim(self) -> int: ...

    @property
    def manifest(self) -> Manifest:
        """The theme's documents and counts (read from the database now, for a live view)."""
        ...

    @property
    def nbytes(self) -> int: ...

    def search(self, query: np.ndarray, k: int = 5) -> list[Hit]: ...

    def chunks_of(self, source: str) -> list[Chunk]: ...


class IndexStore(Protocol):
    """Loading, listing, writing and dropping theme indexes in one place."""

    rebuilds_unreadable: bool  # an unreadable index is rebuilt from the documents an ingest is given

    def load(self, theme: str) -> ThemeView:
        """The theme's index; ``IndexProblem`` saying "no index yet" when it has none."""
        ...

    def themes(self) -> list[str]:
        """Themes that have an index here."""
        ...

    def writing(self, theme: str) -> AbstractContextManager[None]:
        """Held around an ingest or a delete: one writer per theme at a time."""
        ...

    def write(
        self,
        theme: str,
        base: ThemeView | None,
        *,
        embedding_model: str,
        dim: int,
        remove: set[str],
        chunks: list[Chunk],
        vectors: np.ndarray,
        documents: list[DocumentInfo],
    ) -> ThemeView:
        """Drop the ``remove`` sources and add ``documents`` with their chunks, all or nothing;
        the index as it now is."""
        ...

    def drop(self, theme: str) -> bool:
        """Delete the theme's whole index; False when it had none."""
        ...

    def close(self) -> None: ...


class FaissFiles:
    """Theme indexes as FAISS files under ``root`` (``INDEX_ROOT`` at call time when None)."""

    rebuilds_unreadable = True

    def __init__(self, root: Path | None = None) -> None:
        self.root = root

    def load(self, theme: str) -> ThemeIndex:
        return ThemeIndex.load(theme, self.root)

    def themes(self) -> list[str]:
        return theme_folders(self.root or index_root())

    def writing(self, theme: str) -> AbstractContextManager[None]:
        return theme_write_lock(theme, self.root or index_root())

    def write(
        self,
        theme: str,
        base: ThemeView | None,
        *,
        embedding_model: str,
        dim: int,
        remove: set[str],
        chunks: list[Chunk],
        vectors: np.ndarray,
        documents: list[DocumentInfo],
    ) -> ThemeIndex:
        """A new generation built from ``base`` (or from nothing), saved atomically."""
        start = base if isinstance(base, ThemeIndex) else ThemeIndex.empty(theme, embedding_model, dim)
        updated = start.replaced(remove, chunks, vectors, documents)
        updated.save(self.root)
        return updated

    def drop(self, theme: str) -> bool:
        return remove_index(theme, self.root)

    def close(self) -> None:
        return None
