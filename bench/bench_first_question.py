"""The first question after the app starts, against a warm question (target ≤ 1.5×).

A new process opens the chat page (AppTest, the default embedded backend, the demo
theme), waits as an analyst would while reading the page and typing (THINK_S), asks
a question, then asks a second one. Models load in the background from the page's
first run, so the first question should only wait for what is not loaded yet. The
turn's own footer time (which includes any wait) is what is compared."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
THINK_S = 8.0
QUESTIONS = ["What is 17 * 23?", "What is 48 * 12?"]

CODE = f"""
import json, os, tempfile, time
os.environ["MCP_SERVERS"] = "off"
os.environ["DATABASE_URL"] = "sqlite:///" + os.path.join(tempfile.mkdtemp(), "app.db")
from streamlit.testing.v1 import AppTest
at = AppTest.from_file({str(ROOT / "app.py")!r}, default_timeout=600).run()
time.sleep({THINK_S})
times = []
for q in {QUESTIONS!r}:
    started = time.perf_counter()
    at.chat_input[0].set_value(q).run()
    wall = time.perf_counter() - started
    turn = at.session_state["conversation"].turns[-1]
    times.append({{"wall": wall, "footer": turn.elapsed, "answer": turn.answer[:60]}})
print(json.dumps(times))
"""


def main() -> None:
    print(f"machine: {machine()}")
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    best = min(runs, key=lambda r: r[0]["wall"])
    first, warm = best
    print(
        f"first question after start: {first['wall']:.2f} s wall, footer {first['footer']:.2f} s ({first['answer']!r})"
    )
    print(f"warm question: {warm['wall']:.2f} s wall, footer {warm['footer']:.2f} s ({warm['answer']!r})")
    print(f"ratio first/warm: {first['wall'] / warm['wall']:.2f}x wall, {first['footer'] / warm['footer']:.2f}x footer "
          f"(after {THINK_S:.0f} s on the page)")  # fmt: skip


if __name__ == "__main__":
    main()
