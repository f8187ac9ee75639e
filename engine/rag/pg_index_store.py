"""Theme indexes in PostgreSQL (``VECTOR_STORE=pgvector``): the ``IndexStore`` over a
``PgVectorStore``.

The database is reached on first use, not when the app starts, and again after a
failure: a dead database is one readable sentence (an ``IndexProblem``) from whatever
asked for it, and the app works again once the database is back, without a restart.
A theme's view reads the database on every call, so nothing is reloaded when another
server writes; writers take turns inside the database (see ``PgThemeIndex.replace``).
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager, nullcontext

import numpy as np

from engine.rag.chunking import Chunk
from engine.rag.messages import say
from engine.rag.pgvector_store import PgThemeIndex, PgVectorStore
from engine.rag.store import DocumentInfo, IndexProblem
from engine.rag.themes import validate_theme


class PgIndexStore:
    """The ``IndexStore`` of one PostgreSQL database (its URL from ``DATABASE_URL``)."""

    rebuilds_unreadable = False  # the database is the only copy: its errors are reported, never "repaired"

    def __init__(self, url: str | None) -> None:
        self._url = url
        self._db: PgVectorStore | None = None
        self._lock = threading.Lock()

    def database(self) -> PgVectorStore:
        """The connected store (schema created if missing), connecting now if not yet done."""
        with self._lock:
            if self._db is None:
                if not self._url:
                    raise IndexProblem(say("pg_needs_url"))
                self._db = PgVectorStore(self._url)
            return self._db

    def load(self, theme: str) -> PgThemeIndex:
        validate_theme(theme)
        return self.database().load(theme)

    def themes(self) -> list[str]:
        return self.database().themes()

    def writing(self, theme: str) -> AbstractContextManager[None]:
        """Nothing to hold here: each write takes the theme's lock in the database, and a
        write only touches the documents it names, so a concurrent ingest is never lost."""
        validate_theme(theme)
        return nullcontext()

    def write(
        self,
        theme: str,
        base: object,
        *,
        embedding_model: str,
        dim: int,
        remove: set[str],
        chunks: list[Chunk],
        vectors: np.ndarray,
        documents: list[DocumentInfo],
    ) -> PgThemeIndex:
        """One transaction; the theme is created for this model if new (``base`` is not needed)."""
        view = self.database().open_theme(theme, embedding_model, dim)
        view.replace(remove, chunks, vectors, documents)
        return view

    def drop(self, theme: str) -> bool:
        validate_theme(theme)
        database = self.database()
        if theme not in database.themes():
            return False
        database.load(theme).drop_theme()
        return True

    def close(self) -> None:
        with self._lock:
            db, self._db = self._db, None
        if db is not None:
            db.close()
