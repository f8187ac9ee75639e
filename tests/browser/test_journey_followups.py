"""A follow-up in a real browser (headless Chromium): typed in the chat box while the
answer streams, it shows at once as the analyst's message, marked "sent during the
run" and drawn inert; the run holds its answer back, reads the follow-up, and answers
again; after a reload both messages are there, read from the store."""

import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTEFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FOLLOWUP = 'In euros, please <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'


def test_a_follow_up_typed_during_a_run_changes_the_answer_and_both_messages_are_saved(
    streamlit_app, fake_server, page
):
    words = " ".join(f"detail{i}" for i in range(400))
    fake_server.script.extend(
        [
            {"text": f"Answer: The total is 100 dollars. {words}", "delay_s": 0.03},
            {"text": "Answer: The total is 92 euros."},
        ]
    )
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(streamlit_app)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)
    box.fill("What is the total travel budget?")
    box.press("Enter")
    page.get_by_text("The total is 100 dollars", exact=False).first.wait_for(timeout=240000)  # includes warm-up

    assert box.is_enabled()  # the chat box stays open while the run goes
    box.fill(FOLLOWUP)
    box.press("Enter")
    page.get_by_text("sent during the run", exact=False).first.wait_for(timeout=30000)  # at once
    expect(page.locator(".st-key-run_stop button").first).to_be_visible(timeout=30000)  # Stop is still there
    page.screenshot(path=str(ARTEFACTS / "followup-sent.png"), full_page=True)

    page.get_by_text(" tokens · ", exact=False).first.wait_for(timeout=120000)  # the footer
    page.get_by_test_id("stStatusWidget").wait_for(state="hidden", timeout=60000)
    assert "92 euros" in page.inner_text("body")
    sent = fake_server.requests[-1]["messages"]
    assert "In euros, please" in sent[-1]["content"] and "100 dollars" in sent[-2]["content"]
    assert len([r for r in fake_server.requests if "travel budget" in str(r["messages"])]) == 2  # no new turn
    # the finished turn is drawn again when the run ends: wait for its follow-up, then read the page
    page.get_by_text("window.__pwned=2", exact=False).first.wait_for(timeout=60000)
    body = page.inner_text("body").replace("\u200b", "")
    assert "<script>window.__pwned=2</script>" in body  # shown as text
    assert page.evaluate("window.__pwned") is None and dialogs == []
    assert page.locator("img[src='x']").count() == 0

    deadline = time.monotonic() + 30
    while "c=" not in page.url and time.monotonic() < deadline:  # the URL names the stored conversation
        page.wait_for_timeout(200)
    assert "c=" in page.url
    page.reload()
    page.get_by_text("sent during the run", exact=False).first.wait_for(timeout=60000)
    page.get_by_text(" tokens · ", exact=False).last.wait_for(timeout=30000)
    body = page.inner_text("body")
    assert "What is the total travel budget?" in body and "In euros, please" in body
    assert "92 euros" in body
    assert page.evaluate("window.__pwned") is None
    page.screenshot(path=str(ARTEFACTS / "followup-saved.png"), full_page=True)
