"""Schema upgrades keep the data; two processes starting on an empty database both succeed."""

import subprocess
import sys
from datetime import datetime

import sqlalchemy as sa

from engine.store import ConversationStore
from engine.store.database import current_revision, head_revision, make_engine, migrate
from tests.conftest import ROOT


def fill_at_revision_1(url: str, revision: str = "0001") -> None:
    """A conversation with a question and its answer, written by SQL at ``revision`` (default the first)."""
    engine = make_engine(url)
    migrate(engine, revision)
    assert current_revision(engine) == revision
    if revision == "0001":
        assert "title_search" not in {c["name"] for c in sa.inspect(engine).get_columns("conversations")}
    when = datetime(2026, 1, 2, 3, 4, 5)
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO users (name, created_at) VALUES ('alice', :w)"), {"w": when})
        user_id = conn.execute(sa.text("SELECT id FROM users WHERE name = 'alice'")).scalar()
        conn.execute(
            sa.text(
                "INSERT INTO conversations (id, user_id, title, theme, settings, created_at, updated_at) "
                "VALUES ('c1', :u, 'Résumé des VENTES', 'handbook', :s, :w, :w)"
            ),
            {"u": user_id, "s": '{"language": "fr"}', "w": when},
        )
        for seq, (turn_id, role, data) in enumerate(
            [
                ("u1", "user", '{"id": "u1", "role": "user", "content": "Résumé des ventes ?"}'),
                ("a1", "assistant", '{"id": "a1", "role": "assistant", "answer": "1.2 M€", "tokens": 31}'),
            ]
        ):
            conn.execute(
                sa.text(
                    "INSERT INTO turns (conversation_id, id, seq, role, status, created_at, updated_at, data) "
                    "VALUES ('c1', :id, :seq, :role, 'answered', :w, :w, :d)"
                ),
                {"id": turn_id, "seq": seq, "role": role, "w": when, "d": data},
            )
    engine.dispose()


def test_upgrade_from_revision_1_keeps_the_data(db_url):
    fill_at_revision_1(db_url)
    store = ConversationStore(db_url)  # upgrades to head at start
    assert current_revision(store.engine) == head_revision() == "0006"
    record = store.get("alice", "c1")
    assert (record.title, record.theme, record.settings) == ("Résumé des VENTES", "handbook", {"language": "fr"})
    assert record.turns == [
        {"id": "u1", "role": "user", "content": "Résumé des ventes ?", "status": "answered", "parent_id": None},
        {"id": "a1", "role": "assistant", "answer": "1.2 M€", "tokens": 31, "status": "answered", "parent_id": "u1"},
    ]
    # the new column was filled for the old rows: accent-free search finds the old conversation
    assert [c.id for c in store.list("alice", "resume des ventes")] == ["c1"]
    # the old turns' text was indexed for full-text search, folded
    with store.engine.connect() as conn:
        bodies = conn.execute(sa.text("SELECT turn_id, body FROM turn_search WHERE conversation_id = 'c1'")).all()
    assert sorted(map(tuple, bodies)) == [("a1", "1.2 m€"), ("u1", "resume des ventes ?")]
    indexes = {ix["name"] for ix in sa.inspect(store.engine).get_indexes("conversations")}
    assert "ix_conversations_user_updated" in indexes
    # and the upgraded database takes new turns after the old ones
    store.save_turn("alice", "c1", {"id": "u2", "role": "user", "content": "Et au T4 ?"})
    assert [t["id"] for t in store.get("alice", "c1").turns] == ["u1", "a1", "u2"]
    store.close()


def test_upgrade_from_revision_3_keeps_the_turns_and_lets_them_be_rated(db_url):
    fill_at_revision_1(db_url, "0003")
    engine = make_engine(db_url)
    assert "feedback" not in sa.inspect(engine).get_table_names()
    engine.dispose()
    store = ConversationStore(db_url)
    assert current_revision(store.engine) == head_revision()
    record = store.get("alice", "c1")
    assert [(t["id"], t["role"], t.get("answer", t.get("content"))) for t in record.turns] == [
        ("u1", "user", "Résumé des ventes ?"),
        ("a1", "assistant", "1.2 M€"),
    ]
    assert all("feedback" not in t for t in record.turns)
    store.set_feedback("alice", "c1", "a1", "down", "Le chiffre est celui de 2025.")
    again = store.get("alice", "c1")
    assert again.turns[1]["feedback"]["comment"] == "Le chiffre est celui de 2025."
    assert [(r.question, r.turn["answer"]) for r in store.rated_turns("alice")] == [("Résumé des ventes ?", "1.2 M€")]
    indexes = {ix["name"] for ix in sa.inspect(store.engine).get_indexes("feedback")}
    assert "ix_feedback_user_updated" in indexes
    store.close()


def test_upgrade_from_revision_4_keeps_the_turns_and_gives_running_ones_no_lease(db_url):
    fill_at_revision_1(db_url, "0004")
    engine = make_engine(db_url)
    with engine.begin() as conn:  # a turn an older version left running, with what it had produced
        conn.execute(
            sa.text(
                "INSERT INTO turns (conversation_id, id, seq, role, status, created_at, updated_at, data) "
                "VALUES ('c1', 'a2', 2, 'assistant', 'running', :w, :w, :d)"
            ),
            {"w": datetime(2026, 1, 2, 3, 5), "d": '{"id": "a2", "role": "assistant", "content": "Thought: half"}'},
        )
        conn.execute(
            sa.text(
                "INSERT INTO feedback (conversation_id, turn_id, user_id, rating, comment, updated_at) "
                "SELECT 'c1', 'a1', id, 'down', 'old rating', :w FROM users WHERE name = 'alice'"
            ),
            {"w": datetime(2026, 1, 2, 3, 6)},
        )
    assert "lease_owner" not in {c["name"] for c in sa.inspect(engine).get_columns("turns")}
    engine.dispose()
    store = ConversationStore(db_url, lease_s=60)
    assert current_revision(store.engine) == head_revision()
    columns = {c["name"] for c in sa.inspect(store.engine).get_columns("turns")}
    assert {"lease_owner", "heartbeat_at", "stop_requested"} <= columns
    record = store.get("alice", "c1")
    assert [(t["id"], t["status"], t.get("answer", t.get("content"))) for t in record.turns] == [
        ("u1", "answered", "Résumé des ventes ?"),
        ("a1", "answered", "1.2 M€"),
        ("a2", "interrupted", "Thought: half"),  # no lease: its run is over, however long the lease
    ]
    assert store.mark_interrupted("alice", "c1") == ["a2"]
    assert store.stop_requested("alice", "c1", "a1") is False  # the new flag is off on old rows
    store.save_turn("alice", "c1", {"id": "a3", "role": "assistant", "content": "", "status": "running"})
    assert store.request_stop("alice", "c1", "a3") is True and store.stop_requested("alice", "c1", "a3") is True
    # the rating given at revision 0004 is still there, and ratings still work on the upgraded rows
    assert store.get("alice", "c1").turns[1]["feedback"]["comment"] == "old rating"
    store.set_feedback("alice", "c1", "a1", "up")
    assert store.get("alice", "c1").turns[1]["feedback"]["rating"] == "up"
    store.close()


def test_downgrade_from_the_lease_revision_keeps_turns_and_ratings(db_url):
    from alembic import command

    from engine.store.database import alembic_config

    store = ConversationStore(db_url)
    conv = store.create("alice", "kept")
    store.save_turn("alice", conv.id, {"id": "a1", "role": "assistant", "content": "Answer: 4", "answer": "4"})
    store.set_feedback("alice", conv.id, "a1", "up", "right")
    config = alembic_config()
    with store.engine.connect() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0004")
        connection.commit()
        assert current_revision(store.engine) == "0004"
        assert "lease_owner" not in {c["name"] for c in sa.inspect(connection).get_columns("turns")}
        kept = connection.execute(sa.text("SELECT turn_id, rating, comment FROM feedback")).all()
    assert list(map(tuple, kept)) == [("a1", "up", "right")]
    store.close()
    again = ConversationStore(db_url)  # and up again
    assert again.get("alice", conv.id).turns[0]["feedback"]["comment"] == "right"
    again.close()


def fill_with_set_aside_turns_at_revision_4(url: str) -> None:
    """What the app wrote before branches: a regenerated answer and an edited question set aside (``replaced``)."""
    engine = make_engine(url)
    migrate(engine, "0004")
    assert "parent_id" not in {c["name"] for c in sa.inspect(engine).get_columns("turns")}

    def at(minute: int) -> datetime:
        return datetime(2026, 1, 2, 3, minute)

    # id, role, status, created, updated (a set-aside turn: when it was set aside), data
    rows = [
        ("u1", "user", "answered", 0, 0, {"content": "Q3 revenue?"}),
        ("a1", "assistant", "replaced", 1, 2, {"answer": "11 M€"}),  # regenerated at minute 2
        ("a1b", "assistant", "answered", 3, 3, {"answer": "11.6 M€"}),
        ("u2", "user", "replaced", 4, 8, {"content": "And the old Q4?"}),  # edited at minute 8 ...
        ("a2", "assistant", "replaced", 5, 8, {"error": "The backend is down."}),  # ... with its answer
        ("u2b", "user", "answered", 9, 9, {"content": "And Q4?"}),
        ("a2b", "assistant", "answered", 10, 10, {"answer": "12 M€"}),
    ]
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO users (name, created_at) VALUES ('alice', :w)"), {"w": at(0)})
        user_id = conn.execute(sa.text("SELECT id FROM users WHERE name = 'alice'")).scalar()
        conn.execute(
            sa.text(
                "INSERT INTO conversations (id, user_id, title, title_search, theme, settings, created_at, updated_at) "
                "VALUES ('c1', :u, 'Revenue', 'revenue', 'handbook', '{}', :w, :w)"
            ),
            {"u": user_id, "w": at(0)},
        )
        insert = sa.text(
            "INSERT INTO turns (conversation_id, id, seq, role, status, created_at, updated_at, data) "
            "VALUES ('c1', :id, :seq, :role, :status, :c, :u, :d)"
        ).bindparams(sa.bindparam("d", type_=sa.JSON))
        for seq, (turn_id, role, status, created, updated, data) in enumerate(rows):
            values = {"id": turn_id, "role": role, "status": status, **data}
            conn.execute(
                insert,
                {
                    "id": turn_id,
                    "seq": seq,
                    "role": role,
                    "status": status,
                    "c": at(created),
                    "u": at(updated),
                    "d": values,
                },
            )
    engine.dispose()


def test_upgrade_from_revision_4_makes_set_aside_turns_branches(db_url):
    from engine.store.branches import siblings, visible

    fill_with_set_aside_turns_at_revision_4(db_url)
    store = ConversationStore(db_url)
    assert current_revision(store.engine) == head_revision()
    turns = store.get("alice", "c1").turns
    tree = [(t["id"], t["parent_id"]) for t in turns]
    assert tree == [
        ("u1", None),
        ("a1", "u1"),
        ("a1b", "u1"),  # the regenerated answer: a sibling of the one set aside
        ("u2", "a1b"),
        ("a2", "u2"),  # written while u2 was still on show: its child
        ("u2b", "a1b"),  # the edited question: a sibling of the one set aside
        ("a2b", "u2b"),
    ]
    status = {t["id"]: t["status"] for t in turns}
    assert "replaced" not in status.values()
    assert (status["a1"], status["u2"], status["a2"]) == ("answered", "answered", "error")
    assert visible(tree) == ["u1", "a1b", "u2b", "a2b"]  # what the page showed before, shown first
    assert visible(tree, "a2") == ["u1", "a1b", "u2", "a2"]  # the old branch, one switch away
    assert siblings(tree, "u2b") == ["u2", "u2b"] and siblings(tree, "a1b") == ["a1", "a1b"]
    assert [c.id for c in store.list("alice", "old Q4")] == ["c1"]  # a former set-aside question is searchable
    store.set_feedback("alice", "c1", "a1", "down")  # and its answer can be rated
    assert [(r.turn["id"], r.question) for r in store.rated_turns("alice")] == [("a1", "Q3 revenue?")]
    store.close()


def test_migrating_twice_changes_nothing(db_url):
    ConversationStore(db_url).close()
    store = ConversationStore(db_url)
    assert current_revision(store.engine) == head_revision()
    store.close()


STARTER = """
import sys
from engine.store import ConversationStore
store = ConversationStore(sys.argv[1])
conv = store.create(sys.argv[2], "started")
print(conv.id)
"""


def test_two_processes_starting_together_on_an_empty_database(db_url):
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", STARTER, db_url, f"user{i}"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err[-2000:] for _, err in outputs]
    store = ConversationStore(db_url)
    for i, (out, _) in enumerate(outputs):
        assert [c.id for c in store.list(f"user{i}")] == [out.strip()]
    store.close()


def test_an_upgrade_waits_for_another_processs_upgrade_longer_than_a_write_waits(tmp_path):
    """Several app servers start together on a slow machine: the second waits out the first's
    upgrade, however long it takes, then finds the schema done; later writes wait as before."""
    import threading
    import time

    url = f"sqlite:///{tmp_path / 'app.db'}"
    holder = make_engine(url)  # WAL, as every process of the app opens it
    locked, release = threading.Event(), threading.Event()

    def hold_the_write_lock() -> None:
        with holder.connect() as connection:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            locked.set()
            release.wait(10)
            connection.rollback()

    thread = threading.Thread(target=hold_the_write_lock)
    thread.start()
    locked.wait(10)
    threading.Timer(1.5, release.set).start()  # longer than the engine's own 0.2 s wait
    engine = make_engine(url, busy_timeout_s=0.2)
    started = time.monotonic()
    migrate(engine)
    assert time.monotonic() - started >= 1.0  # it waited for the lock, and did not fail
    assert current_revision(engine) == head_revision()
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 200
    thread.join()
    engine.dispose()
    holder.dispose()


def test_an_upgrade_waits_out_a_lock_met_before_its_own_wait_begins(tmp_path):
    """Two processes open a new file together: while the first holds the lock, the second's
    switch to WAL (at connect, with a write's short wait) meets it; the upgrade is tried again."""
    import sqlite3
    import threading
    import time

    path = tmp_path / "new.db"
    holder = sqlite3.connect(path, check_same_thread=False)  # a file still in rollback mode
    holder.execute("CREATE TABLE other (x)")
    holder.commit()
    holder.execute("BEGIN EXCLUSIVE")
    threading.Timer(1.5, holder.rollback).start()  # longer than the engine's own 0.2 s wait
    engine = make_engine(f"sqlite:///{path}", busy_timeout_s=0.2)
    started = time.monotonic()
    migrate(engine)
    assert time.monotonic() - started >= 1.0  # it met the lock, waited, and did not fail
    assert current_revision(engine) == head_revision()
    engine.dispose()
    holder.close()
