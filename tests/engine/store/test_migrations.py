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
    assert current_revision(store.engine) == head_revision() == "0005"
    record = store.get("alice", "c1")
    assert (record.title, record.theme, record.settings) == ("Résumé des VENTES", "handbook", {"language": "fr"})
    assert record.turns == [
        {"id": "u1", "role": "user", "content": "Résumé des ventes ?", "status": "answered"},
        {"id": "a1", "role": "assistant", "answer": "1.2 M€", "tokens": 31, "status": "answered"},
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
