"""Running a piece of code in a Python subprocess under an address-space cap
(``RLIMIT_AS``), so a memory regression fails the test instead of swapping the machine."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_capped(code: str, cap_mb: int, timeout_s: float = 60.0) -> tuple[dict, float]:
    """Run ``code`` (which prints one JSON object on its last line) under ``cap_mb`` MB of
    address space; its parsed output and the wall time. DuckDB and pyarrow reserve far
    more address space than they touch, so the cap is on the order of 2-4 GB, well under
    what a quadratic or unbounded path takes (tens of gigabytes)."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap_mb << 20, cap_mb << 20))

    env = {**os.environ, "PYTHONPATH": str(ROOT), "MALLOC_ARENA_MAX": "2"}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout_s,
        preexec_fn=cap,
        env=env,
        cwd=ROOT,
    )
    elapsed = time.monotonic() - started
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0 and lines, f"exit {done.returncode}: {done.stderr[-1500:]}"
    return json.loads(lines[-1]), elapsed
