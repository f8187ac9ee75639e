"""Turns form a tree: an edit or a regenerate is a sibling, the branch on show follows a tip,
a fork copies a branch into a new conversation, and all of it is scoped to its user."""

import pytest

from engine.store import BadInput, ConversationStore, NotFound, Unavailable
from engine.store.branches import ancestry, siblings, visible
from engine.store.resilient import ResilientStore

# u1 → a1 → u2 → a2, u2 edited into u2b → a2b, a2b regenerated into a2c
TREE = [
    ("u1", None),
    ("a1", "u1"),
    ("u2", "a1"),
    ("a2", "u2"),
    ("u2b", "a1"),
    ("a2b", "u2b"),
    ("a2c", "u2b"),
]


def test_the_branch_on_show_is_the_newest_unless_a_tip_names_another():
    assert visible(TREE) == ["u1", "a1", "u2b", "a2c"]
    assert visible(TREE, "u2") == ["u1", "a1", "u2", "a2"]
    assert visible(TREE, "a2b") == ["u1", "a1", "u2b", "a2b"]
    assert visible(TREE, "a1") == ["u1", "a1", "u2b", "a2c"]  # below the tip: the newest children
    assert visible(TREE, "nope") == visible(TREE)
    assert visible([]) == []


def test_siblings_share_a_parent_oldest_first():
    assert siblings(TREE, "u2b") == ["u2", "u2b"]
    assert siblings(TREE, "a2b") == ["a2b", "a2c"]
    assert siblings(TREE, "a1") == ["a1"]
    assert ancestry(TREE, "a2c") == ["u1", "a1", "u2b", "a2c"]
    assert ancestry(TREE, "missing") == []


def test_a_cycle_written_by_hand_does_not_loop():
    assert ancestry([("x", "y"), ("y", "x")], "x") == ["y", "x"]
    assert visible([("r", None), ("x", "r"), ("r2", "x")], "x") == ["r", "x", "r2"]


def save(store, cid, turn_id, role, parent, user="alice", **data):
    store.save_turn(user, cid, {"id": turn_id, "role": role, "parent_id": parent, **data})


def branched(store, user="alice"):
    """A conversation with an edited question and a regenerated answer, as the chat page writes it."""
    cid = store.create(user, "").id
    save(store, cid, "u1", "user", None, user, content="Q3 revenue?")
    save(store, cid, "a1", "assistant", "u1", user, answer="11.6 M€")
    save(store, cid, "u2", "user", "a1", user, content="And Q4?")
    save(store, cid, "a2", "assistant", "u2", user, answer="12 M€")
    save(store, cid, "u2b", "user", "a1", user, content="And Q4 in France?")  # the edit
    save(store, cid, "a2b", "assistant", "u2b", user, answer="3 M€")
    save(store, cid, "a2c", "assistant", "u2b", user, answer="3.1 M€")  # the regenerate
    return cid


def nodes(record):
    return [(t["id"], t["parent_id"]) for t in record.turns]


def test_the_store_keeps_every_branch_with_its_parent(store):
    cid = branched(store)
    record = store.get("alice", cid)
    assert nodes(record) == TREE
    assert all(t["status"] == "answered" for t in record.turns)  # nothing set aside
    assert visible(nodes(record), "a2") == ["u1", "a1", "u2", "a2"]
    # saving a turn again (its end) never moves it to another parent
    save(store, cid, "a2", "assistant", "u1", answer="12.0 M€")
    assert nodes(store.get("alice", cid)) == TREE
    # every branch is found by search
    assert [c.id for c in store.list("alice", "France")] == [cid]


def test_a_turn_without_a_parent_follows_the_last_one(store):
    cid = store.create("alice", "").id
    store.save_turn("alice", cid, {"id": "u1", "role": "user", "content": "Hi"})
    store.save_turn("alice", cid, {"id": "a1", "role": "assistant", "answer": "Hello"})
    assert nodes(store.get("alice", cid)) == [("u1", None), ("a1", "u1")]


def test_a_parent_must_be_a_turn_of_the_same_conversation(store):
    mine = branched(store)
    other = store.create("alice", "").id
    with pytest.raises(BadInput, match="parent"):
        save(store, other, "x1", "user", "a1", content="grafted")  # a turn of another conversation
    with pytest.raises(BadInput, match="parent"):
        save(store, mine, "x2", "user", "x2", content="its own parent")
    with pytest.raises(BadInput, match="parent"):
        save(store, mine, "x3", "user", "../a1", content="not an id")
    assert [t["id"] for t in store.get("alice", other).turns] == []
    assert "x2" not in [t["id"] for t in store.get("alice", mine).turns]


def test_fork_copies_the_branch_down_to_a_turn_into_a_new_conversation(store):
    cid = branched(store)
    store.set_feedback("alice", cid, "a2", "up", "right")
    fork = store.fork("alice", cid, "a2", "Fork of Q3")
    assert fork.id != cid and fork.title == "Fork of Q3"
    assert nodes(fork) == [("u1", None), ("a1", "u1"), ("u2", "a1"), ("a2", "u2")]
    assert [t.get("answer") for t in fork.turns if t["role"] == "assistant"] == ["11.6 M€", "12 M€"]
    assert all("feedback" not in t for t in fork.turns)  # the rating stays with the turn it rates
    original = {t["id"]: t for t in store.get("alice", cid).turns}
    assert original["a2"]["feedback"]["rating"] == "up"
    assert len(original) == 7  # the conversation forked from is unchanged
    # the fork takes turns of its own, after the copied branch
    save(store, fork.id, "u3", "user", "a2", content="Next?")
    assert [t["id"] for t in store.get("alice", fork.id).turns][-1] == "u3"
    assert {c.id for c in store.list("alice")} == {cid, fork.id}


def test_another_user_can_neither_read_fork_nor_graft_on_a_branch(store):
    cid = branched(store)
    assert store.get("mallory", cid) is None  # nothing to read, nor to switch branch in
    with pytest.raises(NotFound):
        store.fork("mallory", cid, "a2", "stolen")
    assert store.list("mallory") == []
    mallory = store.create("mallory", "").id
    with pytest.raises(BadInput, match="parent"):  # alice's turn is no parent in mallory's conversation
        save(store, mallory, "m1", "user", "u1", user="mallory", content="graft")
    with pytest.raises(NotFound):
        save(store, cid, "m2", "user", "a1", user="mallory", content="into alice's")
    assert len(store.get("alice", cid).turns) == 7
    with pytest.raises(NotFound):
        store.fork("alice", cid, "no-such-turn", "x")


def test_a_rated_answer_keeps_the_question_of_its_own_branch(store):
    cid = branched(store)
    store.set_feedback("alice", cid, "a2", "down", "Q4 is 12.4")  # rated after the edit made u2b newer
    store.set_feedback("alice", cid, "a2c", "up")
    rated = {r.turn["id"]: r.question for r in store.rated_turns("alice")}
    assert rated == {"a2": "And Q4?", "a2c": "And Q4 in France?"}


class Flaky(ConversationStore):
    """A real store whose database can be made unreachable for forks and reads."""

    down = False

    def fork(self, *args, **kwargs):
        if self.down:
            raise Unavailable("down")
        return super().fork(*args, **kwargs)

    def get(self, *args, **kwargs):
        if self.down:
            raise Unavailable("down")
        return super().get(*args, **kwargs)


def test_the_app_stores_fork_needs_the_database_and_keeps_turns_queued_on_their_branch(tmp_path):
    real = Flaky(f"sqlite:///{tmp_path / 'app.db'}")
    cid = branched(real)
    resilient = ResilientStore(factory=lambda: real, retry_every_s=0)
    assert [t["id"] for t in resilient.fork("alice", cid, "a1", "copy").turns] == ["u1", "a1"]
    real.down = True
    with pytest.raises(Unavailable):
        resilient.fork("alice", cid, "a2", "copy")
    save(resilient, cid, "u3", "user", "a2", content="Queued on the old branch")  # the database is away
    real.down = False
    assert resilient.flush()
    assert nodes(real.get("alice", cid))[-1] == ("u3", "a2")
    real.close()
