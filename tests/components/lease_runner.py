"""An owner process for the lease tests: ``python -m tests.components.lease_runner URL LEASE_S``.

It runs a turn the app's way (``consume`` with a ``RunLease`` on a real store): saved
when it starts, renewed with its partial stream as it goes, and saved when it ends. The
token stream never ends by itself: the process is killed (SIGKILL), or a Stop asked
through the store ends it, and then it prints the turn's final status.
Prints ``conversation_id turn_id`` first, then ``READY`` once the lease was renewed twice.
"""

from __future__ import annotations

import sys
import time

from components.run_lease import RunLease
from components.state import Turn
from components.throttle import Throttle
from components.tracer import StreamlitChatTracer
from components.turn_runner import consume
from engine.react.run_state import EngineResult
from engine.store import ConversationStore
from engine.store.lease import renew_every
from tests.components.test_tracer import Recorder


def step(n: int) -> str:
    return f"Thought: step {n}\n"


def main(url: str, lease_s: float) -> None:
    store = ConversationStore(url, lease_s=lease_s)
    conv = store.create("alice", "lease")
    store.save_turn("alice", conv.id, {"id": "u1", "role": "user", "content": "a long question"})
    turn = Turn(role="assistant", status="running")

    def save() -> None:
        store.save_turn("alice", conv.id, turn.model_dump(mode="json"))

    save()
    lease = RunLease(save, lambda: store.stop_requested("alice", conv.id, turn.id), renew_every_s=renew_every(lease_s))
    print(conv.id, turn.id, flush=True)

    def tokens():
        n, ready = 0, False
        while True:
            yield step(n)
            n += 1
            if lease.renewals >= 2 and not ready:
                ready = True
                print("READY", flush=True)
            time.sleep(0.01)

    stream = tokens()
    tracer = StreamlitChatTracer(Recorder([]), throttle=Throttle(0.5))
    consume(turn, stream, tracer, lambda: EngineResult(status="stopped"), lease=lease)
    save()
    closed = stream.gi_frame is None  # the stream was closed: the engine's run is cancelled this way
    print(turn.status, closed, len(turn.content), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
