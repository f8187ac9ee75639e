"""5. Rendering and cold start.

Rendering: a 3,000-token answer streamed into a real Streamlit script run (AppTest),
counting the bytes of every message the script sends to the browser. Ours: the
StreamlitChatTracer with its throttle. Baselines: per-token ``st.markdown`` of the
accumulated text, and ``st.write_stream``. Then ours at 20,000 tokens.

Cold start: process start to the chat page having answered a first AppTest run,
with our lazy imports vs importing torch and sentence-transformers eagerly first.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine, tokenize  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import time
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

ctx = get_script_run_ctx()
sent = {"bytes": 0, "messages": 0}
original = ctx.enqueue

def counting(msg):
    sent["bytes"] += msg.ByteSize()
    sent["messages"] += 1
    original(msg)

ctx.enqueue = counting
mode = st.session_state["mode"]
tokens = st.session_state["tokens"]
from components.throttle import Throttle
from components.tracer import StreamlitChatTracer

clock = {"now": 0.0}
start = time.perf_counter()
error = None
try:
    if mode in ("ours", "ours_paced"):
        # "ours_paced": tokens arrive every 2 ms on a virtual clock (500 tokens/s, faster
        # than any model here), so the throttle redraws as often as it would live.
        paced = mode == "ours_paced"
        throttle = Throttle(clock=lambda: clock["now"]) if paced else Throttle()
        tracer = StreamlitChatTracer(st.container(), throttle=throttle)
        tracer.feed("Answer: ")
        for token in tokens:
            clock["now"] += 0.002
            tracer.feed(token)
        tracer.close()
    elif mode == "ours_bridge":
        # the drawing before runs were tasks: the script run itself consumed the engine's
        # stream (iterate_async's queue from the engine's thread), token by token, at 500 tokens/s
        import asyncio

        from engine.llm.base import iterate_async

        async def paced_tokens():
            t0 = time.perf_counter()
            yield "Answer: "
            for i, token in enumerate(tokens):
                await asyncio.sleep(max(0.0, t0 + i * 0.002 - time.perf_counter()))
                yield token

        tracer = StreamlitChatTracer(st.container())
        cpu = time.thread_time()
        for token in iterate_async(paced_tokens, 0.3):
            if token:
                tracer.feed(token)
        tracer.close()
        sent["page_cpu_s"] = time.thread_time() - cpu
    elif mode == "ours_task":
        # the same answer produced by a run's task at 500 tokens/s (real time), drawn by the
        # page that follows it (components/run_follow.py); "seconds" is the page thread's CPU time
        from components.run_follow import draw_task
        from components.run_lease import RunLease
        from components.run_task import RunTask
        from components.state import Preferences, Turn
        from engine.react.followups import Inbox
        from engine.react.run_state import EngineResult

        class Engine:
            def __init__(self):
                self.followups, self.result = Inbox(), EngineResult(status="answered")

            def inject(self, text):
                return None

        def produce(engine):
            t0 = time.perf_counter()
            yield "Answer: "
            for i, token in enumerate(tokens):
                time.sleep(max(0.0, t0 + i * 0.002 - time.perf_counter()))
                yield token

        lease = lambda renew: RunLease(renew, lambda: False, renew_every_s=60)
        task = RunTask("bench", "c", Turn(role="assistant", status="running"), Engine, produce, lambda t: None, lease)
        task.thread.start()
        cpu = time.thread_time()
        draw_task(task, Preferences(), "en")
        sent["page_cpu_s"] = time.thread_time() - cpu
    elif mode == "table_turn":
        tracer = StreamlitChatTracer(st.container())
        tracer.replay("".join(tokens))
    elif mode == "table_direct":
        import json

        import pandas as pd

        data = json.loads(tokens[0])
        st.dataframe(pd.DataFrame(data["rows"], columns=data["columns"]), hide_index=True)
        st.vega_lite_chart(json.loads(tokens[1]))
    elif mode == "naive":
        box = st.empty()
        text = ""
        for token in tokens:
            text += token
            box.markdown(text)
    else:
        st.write_stream(iter(tokens))
except Exception as exc:
    error = repr(exc)
st.session_state["result"] = {"seconds": time.perf_counter() - start, "error": error, **sent}
"""


def answer_tokens(n: int) -> list[str]:
    words = ("The Benelux region grew **7.4%** in Q3, driven by centrifuges; margin fell to 38.6% because of freight "
             "costs. | Region | Revenue |\n|---|---|\n| France | 5.39 M€ |\n").split(" ")  # fmt: skip
    tokens: list[str] = []
    i = 0
    while len(tokens) < n:
        tokens.extend(tokenize(" " + words[i % len(words)]))
        i += 1
        if i % 80 == 0:
            tokens.append("\n\n")  # answers come in paragraphs
    return tokens[:n]


def table_turn(rows: int = 10_000) -> tuple[list[str], list[str]]:
    """A turn whose query_table result has ``rows`` rows, with its chart: the raw stream,
    and the same table and chart as the direct baseline draws them."""
    import json

    from engine.react.stream import StreamWriter
    from engine.react.types import ReActType
    from engine.tools.charts import suggest_chart, to_vega_lite
    from engine.tools.results import TableData

    table = TableData(
        columns=["day", "region", "revenue"],
        dtypes=["date", "text", "number"],
        rows=[[f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}", f"R{i % 9}", 1000 + i] for i in range(rows)],
        total_rows=rows,
    )
    spec = to_vega_lite(suggest_chart(table), table)
    writer = StreamWriter()
    stream = writer.block(ReActType.THOUGHT, "I query the table.")
    stream += writer.block(ReActType.ACTION, "query_table") + writer.block(ReActType.ACTION_INPUT, '{"sql": "..."}')
    stream += writer.block(ReActType.OBSERVATION, "day | region | revenue (first rows)")
    stream += writer.block(ReActType.TABLE, table.model_dump_json())
    stream += writer.block(ReActType.ANSWER, "Revenue by day.")
    stream += writer.block(ReActType.CHART, json.dumps(spec))
    return [stream], [table.model_dump_json(), json.dumps(spec)]


def render(mode: str, tokens: list[str]) -> dict:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_string(SCRIPT, default_timeout=600)
    at.session_state["mode"] = mode
    at.session_state["tokens"] = tokens
    at.run()
    return at.session_state["result"]


def cold_start(eager: bool) -> float:
    code = (
        ("import torch, sentence_transformers\n" if eager else "")
        + "from streamlit.testing.v1 import AppTest\n"
        + f"at = AppTest.from_file({str(ROOT / 'app.py')!r}, default_timeout=120).run()\n"
        + "assert not at.exception and at.chat_input, 'chat page not ready'\n"
    )
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def task_drawing() -> None:
    """The owner tab's drawing of a run that is a task (``python bench/bench_render.py task``):
    the page thread's CPU per token, beside the tracer fed directly on a virtual clock."""
    tokens = answer_tokens(3000)
    for mode in ("ours", "ours_bridge", "ours_task"):  # imports, one-time warnings
        render(mode, answer_tokens(200))
    paced, bridge, task = (render(mode, tokens) for mode in ("ours_paced", "ours_bridge", "ours_task"))
    print(
        f"ours_paced (tracer fed directly): {paced['seconds'] / len(tokens) * 1e6:.1f} µs/token, {paced['bytes'] / 1e6:.3f} MB"
    )
    print(
        f"ours_bridge (the script run consuming the engine's stream, as before tasks, 500 tok/s real time): "
        f"page thread CPU {bridge['page_cpu_s'] / len(tokens) * 1e6:.1f} µs/token, {bridge['bytes'] / 1e6:.3f} MB"
    )
    print(
        f"ours_task (page drawing the run's task, 500 tok/s real time): page thread CPU "
        f"{task['page_cpu_s'] / len(tokens) * 1e6:.1f} µs/token, {task['messages']} messages, "
        f"{task['bytes'] / 1e6:.3f} MB ({'ok' if task['error'] is None else task['error']})"
    )


def main() -> None:
    print(f"machine: {machine()}")
    if sys.argv[1:] == ["task"]:
        task_drawing()
        return
    tokens = answer_tokens(3000)
    render("ours", answer_tokens(200))  # warm up imports and the AppTest runtime
    results = {mode: render(mode, tokens) for mode in ("ours", "ours_paced", "naive", "write_stream")}
    ours = results["ours_paced"]
    for mode, r in results.items():
        status = "ok" if r["error"] is None else f"failed: {r['error']}"
        print(
            f"{mode:>13}: {r['seconds'] / len(tokens) * 1e6:7.1f} µs/token, {r['messages']:5d} messages, {r['bytes'] / 1e6:7.3f} MB ({status})"
        )
    naive = results["naive"]
    print(
        f"ratio naive/ours_paced: {naive['seconds'] / ours['seconds']:.1f}x time, {naive['bytes'] / ours['bytes']:.1f}x bytes"
    )
    big = render("ours_paced", answer_tokens(20_000))
    print(f"ours at 20,000 tokens: {big['seconds'] / 20_000 * 1e6:.1f} µs/token, {big['bytes'] / 1e6:.3f} MB, "
          f"{'no failure' if big['error'] is None else big['error']}")  # fmt: skip
    stream, direct = table_turn()
    turn, baseline = render("table_turn", stream), render("table_direct", direct)
    print(
        f"turn with a 10,000-row table and a chart: {turn['seconds'] * 1e3:.0f} ms, {turn['bytes'] / 1e6:.2f} MB "
        f"({turn['messages']} messages); st.dataframe + st.vega_lite_chart alone: {baseline['seconds'] * 1e3:.0f} ms, "
        f"{baseline['bytes'] / 1e6:.2f} MB (ratio {turn['bytes'] / baseline['bytes']:.2f}x bytes)"
    )
    lazy = min(cold_start(False) for _ in range(3))
    eager = min(cold_start(True) for _ in range(3))
    print(
        f"cold start to an answerable chat page: lazy {lazy:.2f} s, eager imports {eager:.2f} s (ratio {eager / lazy:.1f}x)"
    )


if __name__ == "__main__":
    main()
