"""6. Concurrency: 8 engine runs at once in threads (as Streamlit serves sessions),
sharing one IndexManager, vs the same 8 runs one at a time. Each run has its own
history and secret; the check is that no run sees another's history or answers.

The scripted model waits 20 ms per chunk, as a remote model's stream would."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from engine.llm.scripted import ScriptedLLM  # noqa: E402
from engine.rag.demo import ensure_demo_index  # noqa: E402
from engine.rag.manager import IndexManager  # noqa: E402
from engine.react.agent import ReActEngine  # noqa: E402
from engine.settings import EngineConfig  # noqa: E402
from engine.tools.theme import SearchDocs  # noqa: E402
from engine.tools.toolkits import general_toolkit  # noqa: E402

RUNS = 8


def one(i: int, manager: IndexManager, results: dict) -> None:
    secret = f"SECRET-{i}-{i * 7919}"
    script = [
        f'Thought: look it up\nAction: search_docs\nAction Input: {{"query": "hotel cap per night Paris {i}"}}',
        f'Thought: compute\nAction: calculator\nAction Input: {{"expression": "{i} * 160"}}',
        f"Thought: done\nAnswer: Run {i}: {secret}",
    ]
    llm = ScriptedLLM(script, chunk_chars=16, delay_s=0.02)
    engine = ReActEngine(config=EngineConfig(), llm=llm, tools=general_toolkit() + [SearchDocs("handbook", manager)])
    engine.set_history(
        [{"role": "user", "content": f"my project is {secret}"}, {"role": "assistant", "content": "Noted."}]
    )
    answer = engine.get_engine_response(f"question {i}").answer
    seen = " ".join(m.get("content") or "" for call in llm.calls for m in call)
    others = [j for j in range(RUNS) if j != i and f"SECRET-{j}-" in seen + answer]
    results[i] = (answer, others)


def batch(concurrent: bool, manager: IndexManager) -> tuple[float, dict]:
    results: dict = {}
    start = time.perf_counter()
    if concurrent:
        threads = [threading.Thread(target=one, args=(i, manager, results)) for i in range(RUNS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        for i in range(RUNS):
            one(i, manager, results)
    return time.perf_counter() - start, results


def main() -> None:
    print(f"machine: {machine()}")
    manager = IndexManager()
    ensure_demo_index(manager)
    one(0, manager, {})  # warm up: load the index and the embedding model
    sequential, _ = batch(False, manager)
    concurrent, results = batch(True, manager)
    leaks = {i: others for i, (answer, others) in results.items() if others}
    wrong = [i for i, (answer, _) in results.items() if not answer.startswith(f"Run {i}: SECRET-{i}-")]
    print(f"{RUNS} runs one at a time: {sequential:.2f} s ({RUNS / sequential:.2f} runs/s)")
    print(
        f"{RUNS} runs in threads:   {concurrent:.2f} s ({RUNS / concurrent:.2f} runs/s); speed-up {sequential / concurrent:.1f}x"
    )
    print(
        f"isolation: {len(leaks)} runs saw another's history or answer; {len(wrong)} wrong answers; indexes loaded once: {manager.loaded()}"
    )
    assert not leaks and not wrong


if __name__ == "__main__":
    main()
