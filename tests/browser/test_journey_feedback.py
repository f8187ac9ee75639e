"""Feedback in a real browser (headless Chromium): a thumb down under an answer and a
comment are saved for the user, a comment holding HTML stays text, and a reload shows
the thumb still chosen and the comment in its box. Screenshots are kept in artefacts/."""

import pytest

from engine.store import ConversationStore
from engine.store.inputs import LOCAL_USER
from tests.browser.conftest import ARTEFACTS
from tests.browser.test_journey_conversations import ask, settle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

COMMENT = "Q2's figure, not Q3's <img src=x onerror=\"window.__pwned=1\">"


def stored(tmp_path, conversation_id: str):
    store = ConversationStore(f"sqlite:///{tmp_path / 'app.db'}")
    try:
        record = store.get(LOCAL_USER, conversation_id)
        return [t.get("feedback") for t in record.turns if t["role"] == "assistant"]
    finally:
        store.close()


def thumb(page, which: str):
    """The thumb (``thumb_up`` or ``thumb_down``, its icon's name) under the answer."""
    return page.locator("[class*='st-key-thumbs-'] button").filter(has_text=which).first


def test_a_thumb_and_a_comment_are_saved_and_shown_again_after_a_reload(streamlit_app, fake_server, page, tmp_path):
    fake_server.script.extend([{"text": "Answer: Q3 revenue was 11.6 M€."}])
    page.goto(streamlit_app)
    page.get_by_test_id("stChatInputTextArea").wait_for(timeout=60000)
    cid = ask(page, "What was Q3 revenue?", "Q3 revenue was")
    settle(page)
    thumb(page, "thumb_down").click()
    settle(page)
    assert [f and f["rating"] for f in stored(tmp_path, cid)] == ["down"]
    page.get_by_role("button", name="add_comment").first.click()
    box = page.get_by_label("Your comment", exact=False)
    box.wait_for(timeout=10000)
    box.fill(COMMENT)
    page.get_by_role("button", name="Save the comment").click()
    settle(page)
    assert [(f["rating"], f["comment"]) for f in stored(tmp_path, cid)] == [("down", COMMENT)]
    page.screenshot(path=str(ARTEFACTS / "feedback-1-rated.png"), full_page=True)

    page.reload()
    page.get_by_text("Q3 revenue was", exact=False).first.wait_for(timeout=60000)
    settle(page)
    chosen = thumb(page, "thumb_down")
    chosen.wait_for(timeout=10000)
    other = thumb(page, "thumb_up")
    assert chosen.get_attribute("data-testid") != other.get_attribute("data-testid")  # drawn as the chosen one
    page.get_by_role("button", name="chat").first.click()  # the comment's icon says it has one
    box = page.get_by_label("Your comment", exact=False)
    box.wait_for(timeout=10000)
    assert box.input_value() == COMMENT
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img[src='x']").count() == 0
    page.screenshot(path=str(ARTEFACTS / "feedback-2-reloaded.png"), full_page=True)
