"""IndexManager: loaded theme indexes shared by every session of the process.

Least-recently-used indexes are evicted when the memory budget is exceeded. All
methods are thread-safe: Streamlit serves many sessions from one process. Before
handing out a cached index, ``get`` checks the theme's ``CURRENT`` pointer (one
``stat``; the pointer is read only when it changed): when another process (a CLI
ingest) wrote a newer generation, it is loaded. A live view of a database (pgvector)
has no generation and is never reloaded.

``IndexManager.for_settings`` is the one place the vector store is chosen.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from engine.rag.index_store import FaissFiles, IndexStore, ThemeView
from engine.rag.messages import say
from engine.rag.store import IndexProblem, read_generation, theme_dir

if TYPE_CHECKING:
    from engine.settings import Settings

Stamp = tuple[int, int, int] | None
VECTOR_STORES = ("faiss", "pgvector")


def default_budget_bytes() -> int:
    from engine.settings import current

    return current().index_memory_budget_mb * 1024 * 1024


class IndexManager:
    """The loaded indexes of one store: FAISS files under ``root`` unless ``store`` is given."""

    def __init__(
        self,
        root: Path | None = None,
        budget_bytes: int | None = None,
        loader: Callable[[str, Path | None], ThemeView] | None = None,
        store: IndexStore | None = None,
    ) -> None:
        self.root = root
        self.store: IndexStore = store if store is not None else FaissFiles(root)
        self.budget_bytes = budget_bytes if budget_bytes is not None else default_budget_bytes()
        self._loader = loader or (lambda theme, _root: self.store.load(theme))
        self._cache: OrderedDict[str, ThemeView] = OrderedDict()
        self._lock = threading.RLock()
        self._theme_locks: dict[str, threading.Lock] = {}
        self._pointers: dict[str, Path] = {}
        self._stamps: dict[str, Stamp] = {}  # the pointer's (inode, mtime, size) when last found current
        self.evictions = 0

    @classmethod
    def for_settings(cls, settings: Settings) -> IndexManager:
        """FAISS files under the index root (``VECTOR_STORE=faiss``, the default) or PostgreSQL
        (``VECTOR_STORE=pgvector`` with ``DATABASE_URL``); the database is reached on first use."""
        if settings.vector_store not in VECTOR_STORES:
            raise IndexProblem(say("store_unknown", name=settings.vector_store[:40]))
        if settings.vector_store == "pgvector":
            from engine.rag.pg_index_store import PgIndexStore

            return cls(store=PgIndexStore(settings.database_url))
        return cls(root=settings.index_root)

    def _theme_lock(self, theme: str) -> threading.Lock:
        with self._lock:
            return self._theme_locks.setdefault(theme, threading.Lock())

    def _stamp(self, theme: str) -> Stamp:
        pointer = self._pointers.get(theme)
        if pointer is None:
            pointer = self._pointers.setdefault(theme, theme_dir(theme, self.root) / "CURRENT")
        try:
            info = os.stat(pointer)
        except OSError:
            return None
        return (info.st_ino, info.st_mtime_ns, info.st_size)

    def _fresh(self, theme: str) -> ThemeView | None:
        """The cached index when it is still the current generation on disk."""
        with self._lock:
            index = self._cache.get(theme)
        if index is None:
            return None
        if index.generation is not None:
            stamp = self._stamp(theme)
            if stamp is None or stamp != self._stamps.get(theme):
                if read_generation(theme, self.root) != index.generation:
                    return None
                self._stamps[theme] = stamp
        with self._lock:
            if self._cache.get(theme) is index:
                self._cache.move_to_end(theme)
        return index

    def get(self, theme: str) -> ThemeView:
        """The loaded index of ``theme`` (loading it once, even under concurrent calls)."""
        index = self._fresh(theme)
        if index is not None:
            return index
        with self._theme_lock(theme):
            index = self._fresh(theme)
            if index is not None:
                return index
            index = self._loader(theme, self.root)
            self.put(index)
            return index

    def put(self, index: ThemeView) -> None:
        with self._lock:
            self._stamps.pop(index.theme, None)  # checked against the pointer on the next get
            self._cache[index.theme] = index
            self._cache.move_to_end(index.theme)
            self._evict()

    def invalidate(self, theme: str) -> None:
        with self._lock:
            self._cache.pop(theme, None)
            self._stamps.pop(theme, None)

    def close(self) -> None:
        """Let go of the store's connections (a FAISS store holds none)."""
        self.store.close()

    def loaded(self) -> list[str]:
        with self._lock:
            return list(self._cache)

    @property
    def used_bytes(self) -> int:
        with self._lock:
            return sum(i.nbytes for i in self._cache.values())

    def _evict(self) -> None:
        while len(self._cache) > 1 and sum(i.nbytes for i in self._cache.values()) > self.budget_bytes:
            self._cache.popitem(last=False)
            self.evictions += 1
