"""A writer process for the kill -9 tests: ``python -m tests.engine.store.crash_writer URL MODE``.

``mid-turn``: three finished exchanges, then a turn that starts ``running`` and keeps
being rewritten as it streams, until the process is killed.
``flood``: finished turns appended as fast as possible until killed (turn ``fN`` holds
``payload(N)``).
"""

from __future__ import annotations

import sys

from engine.store import ConversationStore


def payload(n: int) -> str:
    return f"Thought: step {n}\n" + ("Observation: " + str(n) * 50 + "\n") * 40


def main(url: str, mode: str) -> None:
    store = ConversationStore(url)
    conv = store.create("alice", "crash test")
    print(conv.id, flush=True)
    if mode == "flood":
        n = 0
        while True:
            store.save_turn("alice", conv.id, {"id": f"f{n}", "role": "assistant", "content": payload(n)})
            if n == 20:
                print("READY", flush=True)
            n += 1
    for i in range(3):
        store.save_turn("alice", conv.id, {"id": f"u{i}", "role": "user", "content": f"question {i}"})
        store.save_turn("alice", conv.id, {"id": f"a{i}", "role": "assistant", "content": payload(i), "answer": "ok"})
    turn = {"id": "live", "role": "assistant", "content": "", "status": "running"}
    store.save_turn("alice", conv.id, turn)
    print("READY", flush=True)
    n = 0
    while True:
        turn["content"] += payload(n)[:200]
        store.save_turn("alice", conv.id, turn)
        n += 1


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
