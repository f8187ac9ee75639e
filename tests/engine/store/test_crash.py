"""A writer killed with SIGKILL mid-turn: finished turns are intact, the running one shows as
interrupted once its lease expires, with what it had saved."""

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from engine.store import ConversationStore
from tests.conftest import ROOT
from tests.engine.store.crash_writer import payload

LEASE = 1.5


def run_and_kill(url: str, mode: str, extra_s: float) -> str:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.engine.store.crash_writer", url, mode],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        conversation_id = proc.stdout.readline().strip()
        assert proc.stdout.readline().strip() == "READY", proc.stderr.read()[-2000:]
        time.sleep(extra_s)  # let it write a while, then kill it wherever it is
        assert proc.poll() is None, "the writer stopped by itself"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    return conversation_id


def check_sqlite_file(url: str) -> None:
    if url.startswith("sqlite"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@pytest.mark.parametrize("extra_s", [0.05, 0.4])
def test_kill_mid_turn_keeps_finished_turns_and_shows_the_running_one_interrupted(db_url, extra_s):
    conversation_id = run_and_kill(db_url, "mid-turn", extra_s)
    killed = time.monotonic()
    check_sqlite_file(db_url)
    store = ConversationStore(db_url, lease_s=LEASE)
    time.sleep(max(0.0, killed + LEASE + 0.1 - time.monotonic()))  # the lease expires
    turns = store.get("alice", conversation_id).turns
    assert [t["id"] for t in turns] == ["u0", "a0", "u1", "a1", "u2", "a2", "live"]
    for i in range(3):
        parent = f"a{i - 1}" if i else None  # each question follows the answer before it
        assert turns[2 * i] == {
            "id": f"u{i}",
            "role": "user",
            "content": f"question {i}",
            "status": "answered",
            "parent_id": parent,
        }
        assert turns[2 * i + 1]["content"] == payload(i) and turns[2 * i + 1]["status"] == "answered"
    live = turns[-1]
    assert live["status"] == "interrupted"
    assert live["content"] == "".join(payload(n)[:200] for n in range(len(live["content"]) // 200))
    assert store.mark_interrupted("alice", conversation_id) == ["live"]
    store.close()


def test_kill_during_a_flood_of_writes_leaves_whole_turns_only(db_url):
    conversation_id = run_and_kill(db_url, "flood", 0.3)
    check_sqlite_file(db_url)
    store = ConversationStore(db_url)
    turns = store.get("alice", conversation_id).turns
    assert len(turns) > 20
    assert [t["id"] for t in turns] == [f"f{n}" for n in range(len(turns))]
    assert all(t["content"] == payload(n) for n, t in enumerate(turns))
    # the database takes writes again at once
    store.save_turn("alice", conversation_id, {"id": "after", "role": "user", "content": "still here"})
    assert store.get("alice", conversation_id).turns[-1]["id"] == "after"
    store.close()
