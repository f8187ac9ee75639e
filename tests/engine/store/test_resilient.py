"""The store with its database gone: a real PostgreSQL stopped and restarted, a SQLite file that cannot be opened or is
locked by another writer. The chat goes on in memory and the writes land once the database is back."""

import sqlite3

import pytest

from engine.store import BadInput, ConversationStore, NotFound, Unavailable
from engine.store.resilient import DOWN, ResilientStore
from tests.pg import PgServer


def turn(turn_id: str, role: str = "user", status: str = "answered", text: str = "") -> dict:
    return {"id": turn_id, "role": role, "status": status, "content": text or f"text of {turn_id}"}


@pytest.fixture(scope="module")
def outage_server():
    """A PostgreSQL server of this module alone, since its tests stop it."""
    server = PgServer()
    yield server
    server.close()


@pytest.fixture
def own_pg(outage_server):
    yield outage_server
    outage_server.start()  # running again for the next test, whatever this one did


def stored(url: str, user: str, conversation_id: str) -> list[tuple[str, str]]:
    store = ConversationStore(url)
    try:
        record = store.get(user, conversation_id)
        return [(t["id"], t["status"]) for t in record.turns] if record else []
    finally:
        store.close()


def test_postgresql_stopped_mid_session_then_back(own_pg):
    url = own_pg.create_database()
    store = ResilientStore(url, retry_every_s=0)
    conv = store.create("alice", "before the outage")
    store.save_turn("alice", conv.id, turn("u1"))
    assert store.problem("alice") is None

    own_pg.stop()
    store.save_turn("alice", conv.id, turn("u2"))
    store.save_turn("alice", conv.id, turn("a2", "assistant", "running"))
    store.save_turn("alice", conv.id, turn("a2", "assistant", "answered", "the answer"))
    assert store.problem("alice") == DOWN
    assert store.unsaved_turns("alice") == ["u2", "a2"]
    assert store.get("alice", conv.id) is None  # never read before the outage: nothing to show, nothing invented
    offline = store.create("alice", "made during the outage")
    store.save_turn("alice", offline.id, turn("o1"))
    assert [c.title for c in store.list("alice")] == ["made during the outage"]
    assert [t["id"] for t in store.get("alice", offline.id).turns] == ["o1"]
    assert store.get("bob", offline.id) is None
    assert store.list("bob") == []

    own_pg.start()
    assert store.flush() is True
    assert store.problem("alice") is None and store.unsaved_turns("alice") == [] and store.lost_turns("alice") == []
    assert stored(url, "alice", conv.id) == [("u1", "answered"), ("u2", "answered"), ("a2", "answered")]
    assert stored(url, "alice", offline.id) == [("o1", "answered")]
    # and it goes on writing straight to the database
    store.save_turn("alice", conv.id, turn("u3"))
    assert stored(url, "alice", conv.id)[-1] == ("u3", "answered")
    assert [c.title for c in store.list("alice")] == ["before the outage", "made during the outage"]
    store.close()


def test_a_stop_while_the_database_is_down_is_one_sentence_and_the_run_goes_on(own_pg):
    url = own_pg.create_database()
    owner, other = ResilientStore(url, retry_every_s=0), ResilientStore(url, retry_every_s=0)
    conv = owner.create("alice", "a long run")
    owner.save_turn("alice", conv.id, turn("a1", "assistant", "running"))
    own_pg.stop()
    for _ in range(2):  # the call that finds it down, and the next one
        with pytest.raises(Unavailable) as asked:
            other.request_stop("alice", conv.id, "a1")
        assert str(asked.value).startswith("The conversation database cannot be reached")
    assert owner.stop_requested("alice", conv.id, "a1") is False  # the owner's poll: no Stop heard, the run goes on
    own_pg.start()
    assert other.request_stop("alice", conv.id, "a1") is True
    assert owner.stop_requested("alice", conv.id, "a1") is True
    owner.close()
    other.close()


def test_postgresql_down_at_start(own_pg):
    url = own_pg.create_database()
    own_pg.stop()
    store = ResilientStore(url, retry_every_s=0)
    assert store.problem("alice") == DOWN
    conv = store.create("alice", "offline start")
    store.save_turn("alice", conv.id, turn("u1"))
    assert store.get("alice", conv.id).turns[0]["id"] == "u1"
    own_pg.start()
    store.save_turn("alice", conv.id, turn("a1", "assistant"))  # the next call finds the database back
    assert store.problem("alice") is None
    assert stored(url, "alice", conv.id) == [("u1", "answered"), ("a1", "answered")]
    store.close()


def test_turns_that_cannot_be_saved_are_named(own_pg):
    url = own_pg.create_database()
    store = ResilientStore(url, retry_every_s=0)
    conv = store.create("alice", "to be deleted elsewhere")
    own_pg.stop()
    store.save_turn("alice", conv.id, turn("u1"))
    own_pg.start()
    other_server = ConversationStore(url)
    other_server.delete("alice", conv.id)  # another app server deletes it meanwhile
    other_server.close()
    store.flush()
    assert store.lost_turns("alice") == ["u1"]
    assert "1 turn(s) could not be saved" in store.problem("alice")
    store.close()


def test_retry_waits_between_attempts(own_pg):
    url = own_pg.create_database()
    own_pg.stop()
    store = ResilientStore(url, retry_every_s=3600)
    conv = store.create("alice", "x")
    own_pg.start()
    store.save_turn("alice", conv.id, turn("u1"))  # not due yet: queued, the database is not hammered
    assert store.unsaved_turns("alice") == ["u1"]
    assert store.flush() is True  # an explicit flush goes through at once
    assert stored(url, "alice", conv.id) == [("u1", "answered")]
    store.close()


def test_sqlite_file_that_cannot_be_opened_then_can(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the database folder should be")
    url = f"sqlite:///{blocker / 'app.db'}"
    store = ResilientStore(url, retry_every_s=0)
    assert store.problem("alice") == DOWN
    conv = store.create("alice", "kept in memory")
    store.save_turn("alice", conv.id, turn("u1"))
    blocker.unlink()
    blocker.mkdir()
    assert store.flush() is True
    assert stored(url, "alice", conv.id) == [("u1", "answered")]
    store.close()


def test_sqlite_locked_by_another_writer_mid_session(tmp_path):
    path = tmp_path / "app.db"
    url = f"sqlite:///{path}"
    store = ResilientStore(url, retry_every_s=0, busy_timeout_s=0.2)
    conv = store.create("alice", "locked")
    store.save_turn("alice", conv.id, turn("u1"))
    assert [t["id"] for t in store.get("alice", conv.id).turns] == ["u1"]
    hog = sqlite3.connect(path, isolation_level=None)
    hog.execute("BEGIN EXCLUSIVE")
    store.save_turn("alice", conv.id, turn("a1", "assistant"))
    assert store.problem("alice") == DOWN and store.unsaved_turns("alice") == ["a1"]
    # the conversation last read, with the waiting turn: the chat goes on in memory
    assert [t["id"] for t in store.get("alice", conv.id).turns] == ["u1", "a1"]
    assert store.get("bob", conv.id) is None
    hog.execute("COMMIT")
    hog.close()
    assert store.flush() is True
    assert stored(url, "alice", conv.id) == [("u1", "answered"), ("a1", "answered")]
    store.close()


@pytest.mark.parametrize("url", ["not a url at all", "nosuchdb://user:hunter2@host/db", "mysql://user:hunter2@host/db"])
def test_a_wrong_database_url_is_one_sentence_without_the_password(url):
    with pytest.raises(BadInput) as info:
        ConversationStore(url)
    assert "hunter2" not in str(info.value) and info.value.__cause__ is None
    store = ResilientStore(url, retry_every_s=0)
    assert store.misconfigured and "DATABASE_URL" in store.problem("alice") and "hunter2" not in store.problem("alice")
    conv = store.create("alice", "in memory")
    store.save_turn("alice", conv.id, turn("u1"))
    assert [t["id"] for t in store.get("alice", conv.id).turns] == ["u1"]
    assert store.unsaved_turns("alice") == ["u1"]


def test_offline_conversation_takes_its_title_from_the_first_question(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    store = ResilientStore(f"sqlite:///{blocker / 'app.db'}", retry_every_s=0)
    conv = store.create("alice")
    store.save_turn("alice", conv.id, turn("u1", text="What is the hotel cap?\nin Paris"))
    assert [c.title for c in store.list("alice")] == ["What is the hotel cap?"]


def test_while_down_another_user_can_touch_nothing(own_pg):
    url = own_pg.create_database()
    store = ResilientStore(url, retry_every_s=0)
    stored_conv = store.create("alice", "in the database")
    own_pg.stop()
    offline = store.create("alice", "made offline")
    store.save_turn("alice", stored_conv.id, turn("u1"))
    store.save_turn("alice", offline.id, turn("o1"))
    for conversation_id in (offline.id,):
        with pytest.raises(NotFound):
            store.rename("bob", conversation_id, "mine now")
        with pytest.raises(NotFound):
            store.save_turn("bob", conversation_id, turn("b1"))
        with pytest.raises(NotFound):
            store.delete("bob", conversation_id)
    store.delete("bob", stored_conv.id)  # cannot be checked while down: queued, refused later
    store.save_turn("bob", stored_conv.id, turn("b2"))
    assert store.unsaved_turns("alice") == ["u1", "o1"]  # alice's waiting turns are all still there
    assert store.unsaved_turns("bob") == ["b2"]
    own_pg.start()
    assert store.flush() is True
    assert stored(url, "alice", stored_conv.id) == [("u1", "answered")]
    assert stored(url, "alice", offline.id) == [("o1", "answered")]
    assert store.lost_turns("bob") == ["b2"] and store.lost_turns("alice") == []
    assert store.problem("alice") is None and "1 turn(s) could not be saved" in store.problem("bob")
    store.close()


def test_while_down_another_users_calls_never_replace_yours(tmp_path):
    path = tmp_path / "app.db"
    url = f"sqlite:///{path}"
    store = ResilientStore(url, retry_every_s=0, busy_timeout_s=0.2)
    conv = store.create("alice", "first title")
    store.save_turn("alice", conv.id, turn("u1"))
    hog = sqlite3.connect(path, isolation_level=None)
    hog.execute("BEGIN EXCLUSIVE")
    store.rename("alice", conv.id, "alice's title")
    store.save_turn("alice", conv.id, turn("a1", "assistant", text="alice's answer"))
    store.rename("bob", conv.id, "bob's title")  # cannot be checked while down: queued under bob
    store.save_turn("bob", conv.id, turn("a1", "assistant", text="bob's answer"))  # the same turn id
    store.delete("bob", conv.id)
    assert store.unsaved_turns("alice") == ["a1"] and store.unsaved_turns("bob") == []  # bob's delete dropped his own
    hog.execute("COMMIT")
    hog.close()
    assert store.flush() is True
    check = ConversationStore(url)
    record = check.get("alice", conv.id)
    check.close()
    assert record is not None and record.title == "alice's title"
    assert [(t["id"], t["content"]) for t in record.turns] == [("u1", "text of u1"), ("a1", "alice's answer")]
    assert store.problem("alice") is None and store.lost_turns("alice") == []
    store.close()


def test_a_lost_turn_is_told_only_to_its_user(tmp_path):
    path = tmp_path / "app.db"
    url = f"sqlite:///{path}"
    store = ResilientStore(url, retry_every_s=0, busy_timeout_s=0.2)
    conv = store.create("alice", "alice's")
    hog = sqlite3.connect(path, isolation_level=None)
    hog.execute("BEGIN EXCLUSIVE")
    store.save_turn("bob", conv.id, turn("b1"))  # bob writes into alice's conversation: refused once back
    hog.execute("COMMIT")
    hog.close()
    assert store.flush() is True
    assert store.lost_turns("bob") == ["b1"] and "1 turn(s) could not be saved" in store.problem("bob")
    assert store.lost_turns("alice") == [] and store.problem("alice") is None
    store.close()


def test_an_sqlite_file_removed_mid_session_is_said_and_the_chat_kept_in_memory(tmp_path):
    path = tmp_path / "app.db"
    store = ResilientStore(f"sqlite:///{path}", retry_every_s=0)
    conv = store.create("alice", "before")
    store.save_turn("alice", conv.id, turn("u1"))
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    store.save_turn("alice", conv.id, turn("a1", "assistant"))
    assert store.replaced and "app.db was removed or replaced" in store.problem("alice")
    assert store.unsaved_turns("alice") == ["a1"]
    assert store.flush() is False  # no retry writes into the unlinked file
    store.close()
