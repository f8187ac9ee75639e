"""Many sessions writing at once through one store: nothing lost, nothing under the wrong user."""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from engine.store import ConversationStore
from tests.conftest import ROOT


def test_parallel_sessions_lose_nothing_and_mix_nothing(store):
    users = [f"user{i}" for i in range(8)]
    conversations = {user: store.create(user, f"conversation of {user}").id for user in users}
    shared = store.create("shared", "two tabs on one conversation").id

    def session(user: str) -> None:
        for n in range(25):
            store.save_turn(user, conversations[user], {"id": f"t{n}", "role": "user", "content": f"{user} {n}"})
            store.save_turn("shared", shared, {"id": f"{user}-{n}", "role": "user", "content": f"{user} {n}"})

    with ThreadPoolExecutor(len(users)) as pool:
        list(pool.map(session, users))

    for user in users:
        assert [c.id for c in store.list(user)] == [conversations[user]]
        turns = store.get(user, conversations[user]).turns
        assert [t["content"] for t in turns] == [f"{user} {n}" for n in range(25)]
    together = store.get("shared", shared).turns
    assert len(together) == 25 * len(users)
    for user in users:  # each writer's turns keep their own order
        mine = [t["content"] for t in together if t["id"].startswith(f"{user}-")]
        assert mine == [f"{user} {n}" for n in range(25)]


WRITER = """
import sys
from engine.store import ConversationStore
store = ConversationStore(sys.argv[1])
for n in range(60):
    turn = {"id": f"{sys.argv[2]}-{n}", "role": "user", "content": sys.argv[2] + " " + "x" * 2000}
    store.save_turn("shared", sys.argv[3], turn | {"status": "running"})
    store.save_turn("shared", sys.argv[3], turn)
    store.save_turn(sys.argv[2], sys.argv[4], turn)
"""


def test_two_processes_writing_at_once(db_url):
    store = ConversationStore(db_url)
    shared = store.create("shared", "both processes").id
    own = {name: store.create(name, f"{name} only").id for name in ("p1", "p2")}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, db_url, name, shared, own[name]], cwd=ROOT, stderr=subprocess.PIPE, text=True
        )
        for name in ("p1", "p2")
    ]
    errors = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e[-2000:] for e in errors]
    together = store.get("shared", shared).turns
    assert sorted(t["id"] for t in together) == sorted(f"{p}-{n}" for p in ("p1", "p2") for n in range(60))
    assert {t["status"] for t in together} == {"answered"}
    for name in ("p1", "p2"):
        mine = store.get(name, own[name]).turns
        assert [t["id"] for t in mine] == [f"{name}-{n}" for n in range(60)]
        assert all(t["content"].startswith(f"{name} ") for t in mine)
    store.close()
