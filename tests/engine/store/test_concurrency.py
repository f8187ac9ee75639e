"""Many sessions writing at once through one store: nothing lost, nothing under the wrong user."""

from concurrent.futures import ThreadPoolExecutor


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
