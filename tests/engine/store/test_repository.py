"""The repository on both SQLite and a real PostgreSQL (the ``db_url`` fixture is parametrized)."""

import json
import os
import time

import pytest

from components.state import Turn
from engine.llm.base import Usage
from engine.react.run_state import RunState, SuspendedRun
from engine.store import BadInput, ConversationStore, NotFound
from engine.store.errors import FileReplaced


def user_turn(turn_id: str, text: str) -> dict:
    return {"id": turn_id, "role": "user", "content": text, "status": "answered"}


def assistant_turn(turn_id: str, answer: str, status: str = "answered") -> dict:
    stream = f"Thought: I should answer.\nAnswer: {answer}"
    return {"id": turn_id, "role": "assistant", "content": stream, "answer": answer, "status": status}


def test_create_get_rename_delete(store):
    record = store.create("alice", "Hotel caps", "handbook", {"language": "fr", "detail": "brief"})
    got = store.get("alice", record.id)
    assert (got.title, got.theme, got.settings, got.turns) == ("Hotel caps", "handbook", record.settings, [])
    assert got.settings == {"language": "fr", "detail": "brief"}
    store.rename("alice", record.id, "  Hotel caps\nin Paris ")
    assert store.get("alice", record.id).title == "Hotel caps in Paris"
    store.delete("alice", record.id)
    assert store.get("alice", record.id) is None
    assert store.list("alice") == []
    with pytest.raises(NotFound):
        store.delete("alice", record.id)


def test_turns_come_back_in_order_and_upsert_keeps_the_place(store):
    conv = store.create("alice")
    store.save_turn("alice", conv.id, user_turn("u1", "first"))
    store.save_turn("alice", conv.id, assistant_turn("a1", "", status="running"))
    store.save_turn("alice", conv.id, user_turn("u2", "second"))
    store.save_turn("alice", conv.id, assistant_turn("a1", "42"))  # the end of a1, after u2 was saved
    turns = store.get("alice", conv.id).turns
    assert [t["id"] for t in turns] == ["u1", "a1", "u2"]
    assert turns[1]["answer"] == "42" and turns[1]["status"] == "answered"


def test_title_comes_from_the_first_question_and_stays(store):
    conv = store.create("alice")
    store.save_turn("alice", conv.id, user_turn("u1", "What is the hotel cap per night in Paris?\nThanks"))
    store.save_turn("alice", conv.id, user_turn("u2", "And in Lyon?"))
    assert store.get("alice", conv.id).title == "What is the hotel cap per night in Paris?"
    named = store.create("alice", "Named by me")
    store.save_turn("alice", named.id, user_turn("u1", "Something else"))
    assert store.get("alice", named.id).title == "Named by me"


def test_list_is_newest_activity_first(store):
    first = store.create("alice", "first")
    second = store.create("alice", "second")
    third = store.create("alice", "third")
    assert [c.title for c in store.list("alice")] == ["third", "second", "first"]
    store.save_turn("alice", first.id, user_turn("u1", "new question"))
    assert [c.id for c in store.list("alice")] == [first.id, third.id, second.id]
    assert [c.id for c in store.list("alice", limit=2)] == [first.id, third.id]


def test_search_ignores_case_and_accents_and_takes_wildcards_literally(store):
    store.create("alice", "Résumé des ventes T3")
    store.create("alice", "Hotel caps")
    store.create("alice", "Growth of 50% in Q3")
    store.create("alice", "Growth of 500 in Q3")
    assert [c.title for c in store.list("alice", "RESUME")] == ["Résumé des ventes T3"]
    assert [c.title for c in store.list("alice", "50%")] == ["Growth of 50% in Q3"]
    assert store.list("alice", "_") == []
    assert len(store.list("alice", "   ")) == 4
    assert store.list("alice", "nothing like this") == []


def test_another_users_conversation_is_like_a_missing_one(store):
    mine = store.create("alice", "alice's secret plan")
    store.save_turn("alice", mine.id, user_turn("u1", "secret question"))
    store.create("bob", "bob's own")
    assert [c.title for c in store.list("bob")] == ["bob's own"]
    assert store.list("bob", "secret") == []
    assert store.get("bob", mine.id) is None
    with pytest.raises(NotFound):
        store.rename("bob", mine.id, "stolen")
    with pytest.raises(NotFound):
        store.delete("bob", mine.id)
    with pytest.raises(NotFound):
        store.export("bob", mine.id)
    with pytest.raises(NotFound):
        store.save_turn("bob", mine.id, user_turn("u9", "injected"))
    with pytest.raises(NotFound):
        store.mark_interrupted("bob", mine.id)
    kept = store.get("alice", mine.id)
    assert kept.title == "alice's secret plan"
    assert [t["id"] for t in kept.turns] == ["u1"]
    # the same errors as for an id that never existed
    with pytest.raises(NotFound) as missing:
        store.rename("bob", "0" * 32, "x")
    assert str(missing.value) == "This conversation does not exist or is not yours."


def test_export_is_the_whole_conversation_as_json(store):
    conv = store.create("alice", "Export me", "handbook", {"language": "en"})
    store.save_turn("alice", conv.id, user_turn("u1", "q"))
    store.save_turn("alice", conv.id, assistant_turn("a1", "a") | {"citations": [{"n": 1, "source": "h.md"}]})
    exported = json.loads(store.export("alice", conv.id))
    assert exported["title"] == "Export me"
    assert exported["turns"][1]["citations"] == [{"n": 1, "source": "h.md"}]


def test_a_suspended_ask_user_turn_comes_back_identical(store):
    state = RunState(
        prompt="Plan my report",
        mode="native",
        messages=[{"role": "user", "content": "Plan my report"}, {"role": "assistant", "tool_calls": [{"id": "c1"}]}],
        tool_names=["ask_user", "calculator"],
        iterations=2,
        call_counts={"ask_user:{}": 1},
        findings=["Revenue Q3: 1.2 M€"],
        usage=Usage(prompt_tokens=120, completion_tokens=30),
        elapsed_before=1.25,
    )
    suspended = SuspendedRun(state=state, question="Which quarter?", choices=["Q2", "Q3"], call_id="c1")
    turn = Turn(role="assistant", content="Thought: ask\nAction: ask_user", status="suspended", suspended=suspended)
    conv = store.create("alice")
    store.save_turn("alice", conv.id, turn.model_dump(mode="json"))
    back = store.get("alice", conv.id).turns[0]
    assert back == turn.model_dump(mode="json")
    assert Turn.model_validate(back) == turn
    assert SuspendedRun.model_validate(back["suspended"]) == suspended


def test_unicode_and_nul_characters_survive(store):
    conv = store.create("alice")
    text = "naïve café — 東京 \x00 end 🙂"
    store.save_turn("alice", conv.id, user_turn("u1", text))
    assert store.get("alice", conv.id).turns[0]["content"] == text


def test_running_turn_of_this_process_stays_running(store):
    conv = store.create("alice")
    store.save_turn("alice", conv.id, assistant_turn("a1", "", status="running"))
    assert store.get("alice", conv.id).turns[0]["status"] == "running"
    assert store.mark_interrupted("alice", conv.id) == []


def test_running_turn_left_by_another_process_shows_interrupted_once_its_lease_expires(db_url):
    writer = ConversationStore(db_url)
    conv = writer.create("alice")
    writer.save_turn("alice", conv.id, user_turn("u1", "q"))
    writer.save_turn("alice", conv.id, assistant_turn("a1", "", status="running"))
    writer.close()
    reader = ConversationStore(db_url, lease_s=0.3)
    assert [t["status"] for t in reader.get("alice", conv.id).turns] == ["answered", "running"]  # lease still live
    time.sleep(0.4)
    assert [t["status"] for t in reader.get("alice", conv.id).turns] == ["answered", "interrupted"]
    assert reader.mark_interrupted("alice", conv.id) == ["a1"]
    assert reader.mark_interrupted("alice", conv.id) == []
    reader.close()
    again = ConversationStore(db_url)
    assert again.get("alice", conv.id).turns[1]["status"] == "interrupted"
    again.close()


@pytest.mark.parametrize("bad_id", ["../../etc/passwd", "x" * 10_000, "a b", "", "0" * 32])
def test_odd_conversation_ids_name_nothing(store, bad_id):
    store.create("alice", "kept")
    assert store.get("alice", bad_id) is None
    with pytest.raises(NotFound):
        store.save_turn("alice", bad_id, user_turn("u1", "q"))
    with pytest.raises(NotFound):
        store.rename("alice", bad_id, "x")
    assert [c.title for c in store.list("alice")] == ["kept"]


def test_bad_input_costs_one_sentence_and_nothing_else(store):
    conv = store.create("alice", "kept")
    store.save_turn("alice", conv.id, user_turn("u1", "q"))
    with pytest.raises(BadInput):
        store.save_turn("alice", conv.id, {"id": "u2", "role": "user", "content": "x" * (9 * 1024 * 1024)})
    with pytest.raises(BadInput):
        store.rename("alice", conv.id, "t" * 500)
    with pytest.raises(BadInput):
        store.create("", "no user")
    got = store.get("alice", conv.id)
    assert (got.title, [t["id"] for t in got.turns]) == ("kept", ["u1"])


def test_path_like_user_names_are_just_names(store):
    conv = store.create("../../admin", "odd name")
    assert store.get("../../admin", conv.id).title == "odd name"
    assert store.get("admin", conv.id) is None


def _sqlite_with_a_turn(tmp_path):
    path = tmp_path / "app.db"
    store = ConversationStore(f"sqlite:///{path}")
    conv = store.create("alice", "kept")
    store.save_turn("alice", conv.id, user_turn("u1", "first"))
    return path, store, conv


def test_an_sqlite_file_removed_under_the_store_is_refused_not_written(tmp_path):
    path, store, conv = _sqlite_with_a_turn(tmp_path)
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    with pytest.raises(FileReplaced, match="app.db was removed or replaced"):
        store.save_turn("alice", conv.id, user_turn("u2", "second"))
    with pytest.raises(FileReplaced):
        store.list("alice")
    store.close()


def test_an_sqlite_file_replaced_under_the_store_is_refused(tmp_path):
    path, store, conv = _sqlite_with_a_turn(tmp_path)
    other = ConversationStore(f"sqlite:///{tmp_path / 'other.db'}")
    other.close()
    os.replace(tmp_path / "other.db", path)  # a restore or a second app moved another file over it
    with pytest.raises(FileReplaced):
        store.get("alice", conv.id)
    store.close()


def test_an_untouched_sqlite_file_is_not_taken_for_a_replaced_one(tmp_path):
    path, store, conv = _sqlite_with_a_turn(tmp_path)
    store.close()
    again = ConversationStore(f"sqlite:///{path}")  # a restart opens the file as it is now
    assert [t["id"] for t in again.get("alice", conv.id).turns] == ["u1"]
    again.close()
