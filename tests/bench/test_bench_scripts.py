"""The benchmark scripts that start their own servers from the tests' helpers still start:
``make bench`` runs them, and nothing else would notice a helper that moved."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_pgvector_starts_its_private_server_and_exits_cleanly():
    done = subprocess.run(
        [sys.executable, "bench/bench_pgvector.py", "--chunks", "0", "--ingest-chunks", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("machine: ")


def test_bench_live_follow_measures_both_modes_on_sqlite():
    done = subprocess.run(
        [sys.executable, "bench/bench_live_follow.py", "--seconds", "1", "--only", "sqlite"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("machine: ")
    assert [line.split()[1] for line in lines[1:3]] == ["before", "now"]
    assert "extra writes per" in lines[3]
