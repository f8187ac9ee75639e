"""The conversation sidebar driven headless with AppTest over a real SQLite store."""

import pytest
from streamlit.testing.v1 import AppTest

from components.conversations import open_conversation
from engine.store import ConversationStore


def sidebar_app():
    import streamlit as st

    from components.conversations import conversation_id_from_url, conversation_sidebar, shared_store

    user = st.session_state.get("user", "alice")
    action = conversation_sidebar(shared_store(), user, conversation_id_from_url(), st.session_state.get("lang", "en"))
    st.session_state["actions"] = st.session_state.get("actions", []) + [action.model_dump()]


@pytest.fixture
def db(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'app.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    store = ConversationStore(url)
    yield store
    store.close()


def new_app(**state) -> AppTest:
    at = AppTest.from_function(sidebar_app, default_timeout=30)
    for key, value in state.items():
        at.session_state[key] = value
    return at.run()


def labels(at: AppTest) -> list[str]:
    return [b.label for b in at.sidebar.button if b.key and b.key.startswith("conv_open_")]


def last_action(at: AppTest) -> dict:
    return at.session_state["actions"][-1]


def test_lists_the_users_conversations_newest_first(db):
    db.create("alice", "older")
    db.create("alice", "newer")
    db.create("bob", "bob's")
    at = new_app()
    assert not at.exception
    assert labels(at) == ["newer", "older"]
    assert last_action(at) == {"kind": "none", "conversation_id": None}


def test_opening_puts_the_id_in_the_url(db):
    conv = db.create("alice", "budget")
    at = new_app()
    at.sidebar.button(key=f"conv_open_{conv.id}").click().run()
    assert at.query_params["c"] == conv.id
    assert last_action(at) == {"kind": "open", "conversation_id": conv.id}


def test_search_filters_titles(db):
    db.create("alice", "Résumé Q3")
    db.create("alice", "Hotel caps")
    at = new_app()
    at.sidebar.text_input(key="conv_search").input("resume").run()
    assert labels(at) == ["Résumé Q3"]
    at.sidebar.text_input(key="conv_search").input("nothing").run()
    assert labels(at) == []
    assert "No conversation matches this search." in [c.value for c in at.sidebar.caption]


def test_new_conversation_clears_the_url(db):
    conv = db.create("alice", "budget")
    at = AppTest.from_function(sidebar_app, default_timeout=30)
    at.query_params["c"] = conv.id
    at.run()
    at.sidebar.button(key="conv_new").click().run()
    assert "c" not in at.query_params
    assert last_action(at)["kind"] == "new"


def test_rename(db):
    conv = db.create("alice", "old title")
    at = new_app()
    at.sidebar.text_input(key=f"conv_title_{conv.id}").input("New title").run()
    at.sidebar.button(key=f"conv_rename_{conv.id}").click().run()
    assert db.get("alice", conv.id).title == "New title"
    assert labels(at) == ["New title"]


def test_delete_asks_first(db):
    conv = db.create("alice", "to delete")
    keep = db.create("alice", "to keep")
    at = new_app()
    at.sidebar.button(key=f"conv_delete_{conv.id}").click().run()
    assert db.get("alice", conv.id) is not None  # not yet
    assert any("to delete" in w.value for w in at.sidebar.warning)
    at.sidebar.button(key="conv_no").click().run()
    assert db.get("alice", conv.id) is not None and not at.sidebar.warning
    at.sidebar.button(key=f"conv_delete_{conv.id}").click().run()
    at.sidebar.button(key="conv_yes").click().run()
    assert db.get("alice", conv.id) is None and db.get("alice", keep.id) is not None
    assert labels(at) == ["to keep"]


def test_markup_in_titles_is_not_rendered(db):
    db.create("alice", "[click](http://evil.example) <img src=x> :material/home: `code`")
    at = new_app()
    (label,) = labels(at)
    assert not set("[]<>:`") & set(label)


def test_labels_follow_the_language(db):
    at = new_app(lang="fr")
    assert at.sidebar.button(key="conv_new").label == "Nouvelle conversation"
    assert "Aucune conversation pour l’instant." in [c.value for c in at.sidebar.caption]


def test_a_url_naming_another_users_conversation_opens_nothing(db):
    theirs = db.create("bob", "bob's secret")
    assert open_conversation(db, "alice", theirs.id) is None
    assert open_conversation(db, "bob", theirs.id).title == "bob's secret"
    at = AppTest.from_function(sidebar_app, default_timeout=30)
    at.query_params["c"] = theirs.id
    at.run()
    assert labels(at) == [] and not at.exception


def test_database_down_is_one_sentence_and_the_sidebar_still_works(tmp_path, monkeypatch):
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{blocker / 'app.db'}")
    at = new_app()
    assert not at.exception
    assert [w.value for w in at.sidebar.warning] == [
        "Conversations cannot be saved right now: this chat is kept in memory and will be saved when the database "
        "is back."
    ]
    at.sidebar.button(key="conv_new").click().run()
    assert last_action(at)["kind"] == "new"


def test_database_file_removed_under_the_app_is_said_in_the_sidebar(db, tmp_path):
    db.create("alice", "kept before")
    at = new_app()
    assert labels(at) == ["kept before"] and not at.sidebar.error
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"app.db{suffix}").unlink(missing_ok=True)
    at.sidebar.button(key="conv_new").click().run()
    assert not at.exception
    assert [e.value for e in at.sidebar.error] == [
        "The conversation database file was removed or replaced while the app was running: this chat is kept in "
        "memory only until the app is restarted."
    ]
