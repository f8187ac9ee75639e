"""Full-text search over the turns' text, on SQLite (FTS5) and a real PostgreSQL (tsvector)."""

import pytest

HOSTILE = [
    '"',
    "*",
    "OR",
    "NEAR(",
    "½ ² ٣ ǅ",
    "x\u0301",
    'budget" OR "x',
    "AND NOT",
    "(",
    ":*",
    "&|!",
    "'; DROP TABLE turns; --",
    "^",
    "-",
]


def titles(store, user, search):
    return [c.title for c in store.list(user, search)]


def turn(turn_id, role, text, status="answered"):
    key = "content" if role == "user" else "answer"
    return {"id": turn_id, "role": role, "status": status, key: text}


@pytest.fixture
def filled(store):
    hotel = store.create("alice", "Trip")
    store.save_turn("alice", hotel.id, turn("u1", "user", "How many nights in Lyon?"))
    store.save_turn("alice", hotel.id, turn("a1", "assistant", "Three nights; the cap is 120 € per night."))
    other = store.create("alice", "Budget")
    store.save_turn("alice", other.id, turn("u2", "user", "Résumé of the sales figures"))
    bob = store.create("bob", "Bob's")
    store.save_turn("bob", bob.id, turn("u3", "user", "Lyon hotels for Bob"))
    return store, hotel, other


def test_a_word_of_a_question_or_an_answer_finds_its_conversation(filled):
    store, _, _ = filled
    assert titles(store, "alice", "lyon") == ["Trip"]  # the question
    assert titles(store, "alice", "cap") == ["Trip"]  # the answer
    assert titles(store, "alice", "resume sales") == ["Budget"]  # no accents, every word
    assert titles(store, "alice", "figu") == ["Budget"]  # the start of a word
    assert titles(store, "alice", "lyon sales") == []  # every word in one turn
    assert titles(store, "alice", "budget") == ["Budget"]  # titles still match


def test_search_is_scoped_to_the_user(filled):
    store, _, _ = filled
    assert titles(store, "bob", "lyon") == ["Bob's"]
    assert titles(store, "carol", "lyon") == []


def test_the_index_follows_every_turn_write_and_the_delete(filled):
    store, hotel, other = filled
    store.save_turn("alice", hotel.id, turn("a1", "assistant", "Two nights only."))  # the same turn, rewritten
    assert titles(store, "alice", "cap") == []
    assert titles(store, "alice", "only") == ["Trip"]
    store.save_turn("alice", hotel.id, turn("a1b", "assistant", "Four nights maybe.") | {"parent_id": "u1"})
    assert titles(store, "alice", "maybe") == ["Trip"] and titles(store, "alice", "only") == ["Trip"]  # every branch
    store.delete("alice", other.id)
    assert titles(store, "alice", "sales") == []


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_search_text_gives_results_or_none_never_an_error(filled, text):
    store, _, _ = filled
    found = titles(store, "alice", text)
    assert set(found) <= {"Trip", "Budget"}
    assert titles(store, "alice", f"{text} lyon") in ([], ["Trip"])
