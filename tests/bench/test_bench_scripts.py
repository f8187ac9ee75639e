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
