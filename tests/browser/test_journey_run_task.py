"""A run outlives the page (headless Chromium, one app server): reloaded mid-run, the
page draws the stream again and it goes on from where it was, to its end; switching to
another page and back draws it again too. One run from start to end, its answer
saved once."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTEFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WORDS = 400  # 0.05 s each: about 20 s of streaming


def last_word(page) -> int:
    """The highest wNNN the page shows of the streamed answer (-1: none yet)."""
    found = re.findall(r"\bw(\d{3})\b", page.inner_text("body"))
    return max((int(n) for n in found), default=-1)


def wait_until(check, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.2)


def test_a_reload_or_a_page_switch_mid_run_draws_the_run_again_and_it_finishes(streamlit_app, fake_server, page):
    words = " ".join(f"w{i:03d}" for i in range(WORDS))
    fake_server.script.append({"text": f"Answer: Counting {words}", "delay_s": 0.05})
    page.goto(streamlit_app)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)
    box.fill("Count for me")
    box.press("Enter")
    page.get_by_text("w020", exact=False).first.wait_for(timeout=240000)  # includes warm-up
    wait_until(lambda: "c=" in page.url, 30)

    page.reload()  # the session that asked is gone; the run is not
    page.get_by_text("Counting", exact=False).first.wait_for(timeout=60000)
    after_reload = last_word(page)
    assert 20 <= after_reload < WORDS - 1  # redrawn from where the run was
    wait_until(lambda: last_word(page) >= after_reload + 30, 30)  # and it goes on streaming, no click
    assert page.get_by_text("Running in another tab", exact=False).count() == 0  # drawn from the run itself
    expect(page.locator(".st-key-run_stop button").first).to_be_visible(timeout=30000)  # with its own Stop
    page.screenshot(path=str(ARTEFACTS / "run-task-after-reload.png"), full_page=True)

    page.get_by_role("link", name="Settings").click()
    page.get_by_text("Language of answers").wait_for(timeout=30000)
    left_at = time.monotonic()
    page.get_by_role("link", name="Chat").click()
    page.get_by_text("Counting", exact=False).first.wait_for(timeout=60000)
    back = last_word(page)
    assert back >= after_reload + 30
    if back < WORDS - 1:  # still running when the page came back: drawn live again
        wait_until(lambda: last_word(page) > back, 30)

    page.get_by_text(" tokens · ", exact=False).first.wait_for(timeout=120000)  # the finished turn's footer
    wait_until(lambda: last_word(page) == WORDS - 1, 30)
    assert time.monotonic() - left_at < 60
    assert page.locator(".st-key-run_stop button").count() == 0
    body = page.inner_text("body")
    assert body.count(f"w{WORDS - 1:03d}") == 1  # the answer drawn once
    assert len([r for r in fake_server.requests if "Count for me" in str(r["messages"])]) == 1  # one run
    page.screenshot(path=str(ARTEFACTS / "run-task-finished.png"), full_page=True)

    page.reload()  # and it was saved, once
    page.get_by_text(" tokens · ", exact=False).first.wait_for(timeout=60000)
    assert page.inner_text("body").count(f"w{WORDS - 1:03d}") == 1
