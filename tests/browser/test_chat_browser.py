"""One real browser run: headless Chromium (Playwright) against ``streamlit run`` on
127.0.0.1, the LLM being the local fake Mistral server."""

import json
import time

import pytest

from tests.browser.conftest import ARTEFACTS

PAYLOAD = '<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned=\'img\'">'

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_question_blocks_answer_and_html_payloads_stay_text(streamlit_app, fake_server, page):
    fake_server.script.extend(
        [
            {
                "text": "Thought: I will echo the payload through a tool.",
                "tool_calls": [
                    {
                        "id": "c1",
                        "name": "text_tools",
                        "arguments": json.dumps({"operation": "replace", "text": PAYLOAD, "find": "zz"}),
                    }
                ],
            },
            {"text": f"Answer: Done. The raw payload was {PAYLOAD} and the total is 400."},
        ]
    )
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(streamlit_app)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)
    box.fill("Echo this payload and add 391 + 9")
    box.press("Enter")
    # .first: for a moment after the run the page redraws the turn over the streamed one
    page.get_by_text("the total is 400").first.wait_for(timeout=60000)
    page.get_by_text(" tokens · ", exact=False).last.wait_for(timeout=60000)  # the footer: the run has ended
    page.wait_for_timeout(500)
    page.get_by_test_id("stStatusWidget").wait_for(state="hidden", timeout=60000)  # and its last rerun too
    page.get_by_text("Thinking…", exact=False).first.wait_for(state="detached", timeout=60000)
    for label in ("Thought", "Action", "Observation"):
        assert page.get_by_text(label, exact=True).first.is_visible()
    page.get_by_text("Observation", exact=True).first.click()
    page.get_by_text('window.__pwned = "script"', exact=False).first.wait_for(timeout=10000)
    body = page.inner_text("body").replace("\u200b", "")  # drawn inert: a zero-width space after each "<"
    assert "<script>" in body and "onerror=" in body  # shown as text
    assert page.evaluate("window.__pwned") is None  # and never ran
    assert page.locator("script", has_text="__pwned").count() == 0
    assert page.locator("img[src='x']").count() == 0
    assert dialogs == []
    assert "sk-browser-secret" not in page.content()
    page.screenshot(path=str(ARTEFACTS / "chat.png"), full_page=True)
    assert (ARTEFACTS / "chat.png").stat().st_size > 10_000


def test_stop_button_stops_the_run_and_keeps_what_was_produced(streamlit_app, fake_server, page):
    words = " ".join(f"word{i}" for i in range(2000))
    fake_server.script.append(
        {"text": f"Thought: a long think.\nAnswer: Beginning of the answer. {words}", "delay_s": 0.05}
    )
    page.goto(streamlit_app)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)
    box.fill("Write a very long answer")
    box.press("Enter")
    page.get_by_text("Beginning of the answer", exact=False).first.wait_for(timeout=60000)
    page.locator(".st-key-run_stop button").first.click()  # the run's Stop, below it (the chat box stays open)
    deadline = time.monotonic() + 30
    while fake_server.aborted == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert fake_server.aborted == 1  # the model stream was closed, not left running
    page.get_by_text("Stopped: the run was interrupted", exact=False).wait_for(timeout=30000)  # at once, no click
    page.get_by_text("Show Thoughts").click()  # a rerun redraws the stored turn, still stopped
    page.get_by_text("Stopped: the run was interrupted", exact=False).wait_for(timeout=30000)
    page.get_by_text("Show Thoughts").click()
    page.get_by_text("Beginning of the answer", exact=False).first.wait_for(timeout=30000)
    assert "word1999" not in page.inner_text("body")
    page.screenshot(path=str(ARTEFACTS / "stopped.png"), full_page=True)
