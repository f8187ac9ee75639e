"""One writer per theme index, across threads and processes.

The lock is a ``filelock`` file in ``<index root>/.locks/`` (outside the theme's own
directory, so removing a theme's index never deletes a lock someone waits on). A
second writer waits for the first; it then reads the index the first one wrote.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from engine.rag.themes import validate_theme

LOCK_WAIT_S = 900.0
_THREAD_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


class IndexBusy(Exception):
    """Another writer held the theme's lock for too long."""


def _thread_lock(key: str) -> threading.Lock:
    with _GUARD:
        return _THREAD_LOCKS.setdefault(key, threading.Lock())


@contextmanager
def theme_write_lock(theme: str, root: Path, wait_s: float = LOCK_WAIT_S) -> Iterator[None]:
    """Hold the write lock of ``theme`` under ``root`` (waiting up to ``wait_s``)."""
    validate_theme(theme)
    locks = root.resolve() / ".locks"
    locks.mkdir(parents=True, exist_ok=True)
    path = locks / f"{theme}.lock"
    local = _thread_lock(str(path))
    if not local.acquire(timeout=wait_s):
        raise IndexBusy(f"Another ingest of theme '{theme}' is still running; try again when it has finished.")
    try:
        try:
            with FileLock(str(path), timeout=wait_s):
                yield
        except Timeout:
            raise IndexBusy(
                f"Another ingest of theme '{theme}' is still running; try again when it has finished."
            ) from None
    finally:
        local.release()
