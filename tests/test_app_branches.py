"""Branches, not overwrites: an edited question or a regenerated answer is a new version
beside the old one, ‹ n/N › switches between them without re-running, the URL keeps the
branch on show, and the history sent to the engine, the exports and a fork follow it."""

import streamlit as st

import components.chat_sidebar
from engine.store import ConversationStore
from tests.apptest_helpers import new_app


def shown(at) -> list[str]:
    """The branch on show: each question's text and each answer."""
    return [t.content if t.role == "user" else t.answer for t in at.session_state["conversation"].turns]


def button(at, prefix: str, index: int = 0):
    return at.button(key=[b.key for b in at.button if b.key and b.key.startswith(prefix)][index])


def counters(at) -> list[str]:
    return [c.value for c in at.caption if "/" in c.value and c.value.replace("/", "").isdigit()]


def edited(app_env):
    app_env.script.extend([{"text": "Answer: 180 euros."}, {"text": "Answer: 150 euros."}])
    at = new_app()
    at.chat_input[0].set_value("Hotel cap in Paris?").run()
    [a for a in at.text_area if a.key and a.key.startswith("edit-")][0].set_value("Hotel cap in Lyon?")
    button(at, "resend-").click().run()
    assert not at.exception
    return at


def test_an_edit_is_a_second_version_and_switching_back_runs_nothing(app_env):
    at = edited(app_env)
    assert shown(at) == ["Hotel cap in Lyon?", "150 euros."]
    assert counters(at) == ["2/2"]
    tree = at.session_state["conversation"].tree
    assert [t.content if t.role == "user" else t.answer for t in tree] == [
        "Hotel cap in Paris?",
        "180 euros.",
        "Hotel cap in Lyon?",
        "150 euros.",
    ]
    assert all(t.status == "answered" for t in tree)  # nothing set aside
    requests = len(app_env.requests)
    button(at, "branch-prev-").click().run()
    assert not at.exception
    assert shown(at) == ["Hotel cap in Paris?", "180 euros."]
    assert counters(at) == ["1/2"]
    assert len(app_env.requests) == requests  # switched, not re-run
    assert str(at.query_params["b"]).strip("[]'\"") == tree[1].id  # the URL names the branch on show
    button(at, "branch-next-").click().run()
    assert shown(at) == ["Hotel cap in Lyon?", "150 euros."] and len(app_env.requests) == requests


def test_the_engine_gets_the_history_of_the_branch_on_show(app_env):
    at = edited(app_env)
    button(at, "branch-prev-").click().run()
    app_env.script.append({"text": "Answer: 160 euros."})
    at.chat_input[0].set_value("And in Nice?").run()
    assert not at.exception
    sent = [m["content"] for m in app_env.requests[-1]["messages"] if m["role"] in ("user", "assistant")]
    assert "Hotel cap in Paris?" in sent and "180 euros." in sent
    assert "Hotel cap in Lyon?" not in sent and "150 euros." not in sent
    assert shown(at) == ["Hotel cap in Paris?", "180 euros.", "And in Nice?", "160 euros."]
    assert counters(at) == ["1/2"]  # the first question keeps its two versions


def test_a_regenerate_is_a_second_answer_and_the_export_follows_the_branch(app_env, monkeypatch):
    exported = []
    real = components.chat_sidebar.to_markdown
    monkeypatch.setattr(
        components.chat_sidebar, "to_markdown", lambda c, *a: exported.append(real(c, *a)) or exported[-1]
    )
    app_env.script.extend([{"text": "Answer: first try."}, {"text": "Answer: second try."}])
    at = new_app()
    at.chat_input[0].set_value("Summarise the travel policy").run()
    button(at, "regen-").click().run()
    assert not at.exception
    assert shown(at) == ["Summarise the travel policy", "second try."] and counters(at) == ["2/2"]
    assert "second try." in exported[-1] and "first try." not in exported[-1]
    requests = len(app_env.requests)
    button(at, "branch-prev-").click().run()
    assert shown(at) == ["Summarise the travel policy", "first try."] and counters(at) == ["1/2"]
    assert len(app_env.requests) == requests
    assert "first try." in exported[-1] and "second try." not in exported[-1]


def test_a_reload_reopens_the_branch_the_url_names(app_env):
    at = edited(app_env)
    button(at, "branch-prev-").click().run()
    conversation = at.session_state["conversation"]
    st.cache_resource.clear()
    again = new_app()
    again.query_params["c"] = conversation.id
    again.query_params["b"] = conversation.tip
    again.run()
    assert not again.exception
    assert shown(again) == ["Hotel cap in Paris?", "180 euros."]
    st.cache_resource.clear()
    newest = new_app()
    newest.query_params["c"] = conversation.id
    newest.query_params["b"] = "not-a-turn-of-it"  # an unknown branch: the newest one, no error
    newest.run()
    assert not newest.exception and shown(newest) == ["Hotel cap in Lyon?", "150 euros."]


def test_fork_copies_the_branch_into_a_new_conversation_of_the_same_user(app_env, tmp_path):
    at = edited(app_env)
    button(at, "branch-prev-").click().run()
    source = at.session_state["conversation"].id
    button(at, "fork-").click().run()
    assert not at.exception
    forked = at.session_state["conversation"]
    assert forked.id != source and shown(at) == ["Hotel cap in Paris?", "180 euros."]
    assert forked.title.endswith("(fork)")
    store = ConversationStore(f"sqlite:///{tmp_path / 'app.db'}")
    try:
        assert {c.id for c in store.list("local")} == {source, forked.id}
        assert len(store.get("local", source).turns) == 4  # the conversation forked from keeps every version
        assert store.get("mallory", forked.id) is None
    finally:
        store.close()
