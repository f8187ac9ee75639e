"""AppTest of the chat page's conversation list: what is drawn (heading, highlight,
exports) is always the conversation on screen; rename, delete and its files."""

import os
from pathlib import Path

import components.chat_sidebar
from tests.apptest_helpers import new_app


def two_conversations(app_env):
    app_env.script.extend([{"text": "Answer: About Lyon."}, {"text": "Answer: About Oslo."}])
    at = new_app()
    at.chat_input[0].set_value("Hotels in Lyon?").run()
    first = at.query_params["c"]
    at.sidebar.button(key="conv_new").click().run()
    at.chat_input[0].set_value("Hotels in Oslo?").run()
    return at, first, at.query_params["c"]


def highlighted(at) -> list[str]:
    return [
        b.key.removeprefix("conv_open_")
        for b in at.sidebar.button
        if b.key.startswith("conv_open_") and b.proto.type == "primary"
    ]


def test_after_switching_the_exports_heading_and_highlight_are_the_conversation_on_screen(app_env, monkeypatch):
    exported = []
    real = components.chat_sidebar.to_markdown
    monkeypatch.setattr(components.chat_sidebar, "to_markdown", lambda c, *a: exported.append(c.id) or real(c, *a))
    at, first, second = two_conversations(app_env)
    assert highlighted(at) == [second] and at.title[0].value == "Hotels in Oslo?"
    exported.clear()
    at.sidebar.button(key=f"conv_open_{first}").click().run()
    assert exported == [first]  # the run of the click draws the export of the conversation it opens
    assert at.title[0].value == "Hotels in Lyon?"
    assert highlighted(at) == [first]
    at.sidebar.button(key="conv_new").click().run()
    assert highlighted(at) == []  # the new, empty conversation is on screen: no old row lit


def test_a_reload_highlights_the_conversation_of_the_url(app_env):
    at, first, _ = two_conversations(app_env)
    from streamlit.testing.v1 import AppTest

    from tests.apptest_helpers import APP

    reloaded = AppTest.from_file(APP, default_timeout=90)
    reloaded.query_params["c"] = first
    reloaded.run()
    assert highlighted(reloaded) == [first] and reloaded.title[0].value == "Hotels in Lyon?"


def test_rename_updates_the_heading_at_once(app_env):
    at, _, second = two_conversations(app_env)
    at.sidebar.text_input(key=f"conv_title_{second}").input("Oslo trip").run()
    at.sidebar.button(key=f"conv_rename_{second}").click().run()
    assert at.title[0].value == "Oslo trip"
    assert at.sidebar.button(key=f"conv_open_{second}").label == "Oslo trip"


def test_deleting_a_conversation_deletes_its_files_and_says_so(app_env):
    at, first, second = two_conversations(app_env)
    folder = Path(os.environ["INDEX_ROOT"]).parent / "attachments" / first
    (folder / "files").mkdir(parents=True)
    (folder / "files" / "fleet.csv").write_text("a,b\n1,2\n")
    (folder / "index").mkdir()
    at.sidebar.button(key=f"conv_delete_{first}").click().run()
    warning = at.sidebar.warning[0].value
    assert "1 attached file(s)" in warning and "Hotels in Lyon?" in warning
    assert folder.exists()  # asked, not done
    at.sidebar.button(key="conv_yes").click().run()
    assert not folder.exists()
    assert [b.key for b in at.sidebar.button if b.key.startswith("conv_open_")] == [f"conv_open_{second}"]
