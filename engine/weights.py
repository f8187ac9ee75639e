"""The process-wide cache of loaded model weights: the product's one piece of mutable
module-level state (``tests/test_module_state.py`` allows this one and no other).

Loading a model costs seconds and hundreds of megabytes, so a process loads each chat
model (llama.cpp) and each embedding model once and every run and every
``EngineContext`` shares it (DESIGN: models loaded once). An entry is keyed by its
kind and what identifies the weights (a path, a model name), is built under its own
lock (two threads asking for one model load it once, while another model loads beside
it) and is never evicted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class WeightCache:
    """Loaded models by key, each built once under its own lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # guards the two dicts, never held while loading
        self._entries: dict[tuple[str, str], Any] = {}
        self._loading: dict[tuple[str, str], threading.RLock] = {}

    def get(self, kind: str, key: str, load: Callable[[], T]) -> T:
        """The entry for ``(kind, key)``, built with ``load()`` on first use."""
        entry = (kind, key)
        with self._lock:
            if entry in self._entries:
                return self._entries[entry]
            guard = self._loading.setdefault(entry, threading.RLock())
        with guard:
            with self._lock:
                if entry in self._entries:
                    return self._entries[entry]
            value = load()
            with self._lock:
                self._entries[entry] = value
            return value

    def pop_all(self, kind: str) -> list[Any]:
        """Remove and return every entry of ``kind`` (closing models at exit)."""
        with self._lock:
            keys = [k for k in self._entries if k[0] == kind]
            return [self._entries.pop(k) for k in keys]


WEIGHTS = WeightCache()
