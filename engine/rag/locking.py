"""One writer per theme index, across threads and processes.

The lock is a ``filelock`` file in ``<index root>/.locks/`` (outside the theme's own
directory, so removing a theme's index never deletes a lock someone waits on). A
second writer waits for the first; it then reads the index the first one wrote.

Each call opens its own ``FileLock``: the operating system's lock belongs to the open
file, not to the process, so two writers in one process exclude each other as two
processes do, and no table of locks is kept in the module.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from engine.rag.messages import say
from engine.rag.themes import validate_theme

LOCK_WAIT_S = 900.0


class IndexBusy(Exception):
    """Another writer held the theme's lock for too long."""


@contextmanager
def theme_write_lock(theme: str, root: Path, wait_s: float = LOCK_WAIT_S) -> Iterator[None]:
    """Hold the write lock of ``theme`` under ``root`` (waiting up to ``wait_s``)."""
    validate_theme(theme)
    locks = root.resolve() / ".locks"
    locks.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(locks / f"{theme}.lock"), timeout=wait_s)
    try:
        lock.acquire()
    except Timeout:
        raise IndexBusy(say("ingest_busy", theme=theme)) from None
    try:
        yield
    finally:
        lock.release()
