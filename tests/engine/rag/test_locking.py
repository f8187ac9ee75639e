"""The theme write lock: writers in one process take turns with no lock table kept in the
module, a writer that waits too long gets one sentence, and a failed writer frees the lock."""

import threading
import time

import pytest

from engine.rag import locking
from engine.rag.locking import IndexBusy, theme_write_lock


def test_writers_in_threads_take_turns(tmp_path):
    inside: list[int] = []
    overlaps: list[int] = []
    guard = threading.Lock()  # guards the test's own lists

    def write(i: int) -> None:
        with theme_write_lock("tt", tmp_path):
            with guard:
                inside.append(i)
                if len(inside) > 1:
                    overlaps.append(i)
            time.sleep(0.05)
            with guard:
                inside.remove(i)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == [] and inside == []
    tables = [k for k, v in vars(locking).items() if not k.startswith("__") and isinstance(v, dict)]
    assert tables == []  # no table of locks kept in the module


def test_a_writer_that_waits_too_long_is_told_in_one_sentence(tmp_path):
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with theme_write_lock("tt", tmp_path):
            held.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    try:
        with pytest.raises(IndexBusy, match="Another ingest of theme 'tt' is still running"):
            with theme_write_lock("tt", tmp_path, wait_s=0.2):
                pass
        with theme_write_lock("other", tmp_path, wait_s=0.2):  # another theme is not blocked
            pass
    finally:
        release.set()
        holder.join()


def test_a_failed_writer_frees_the_lock(tmp_path):
    with pytest.raises(RuntimeError):
        with theme_write_lock("tt", tmp_path):
            raise RuntimeError("boom")
    with theme_write_lock("tt", tmp_path, wait_s=0.2):
        pass
