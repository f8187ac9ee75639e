"""A run followed from a second tab (headless Chromium, one app server): the second tab
draws the stream as it grows, from the run's task on this server, without a click; the
stream's HTML is drawn as text; a follow-up typed in the first tab shows in the second
while the run goes; Stop in the second tab stops the run, and both tabs show it
stopped, with what was produced. (A tab of another server follows from the store:
tests/browser/test_team_live.py.)"""

import re
import time

import pytest

from tests.browser.conftest import ARTEFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'


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


def test_two_tabs_follow_one_run_and_stop_in_one_stops_it_in_both(streamlit_app, fake_server, chromium):
    words = " ".join(f"w{i:03d}" for i in range(900))
    fake_server.script.append({"text": f"Answer: Counting {HOSTILE} {words}", "delay_s": 0.05})
    owner = chromium.new_page(viewport={"width": 1100, "height": 1400})
    follower = chromium.new_page(viewport={"width": 1100, "height": 1400})
    dialogs = []
    follower.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    owner.goto(streamlit_app)
    box = owner.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)
    box.fill("Count for me")
    box.press("Enter")
    owner.get_by_text("w010", exact=False).first.wait_for(timeout=240000)  # includes warm-up
    wait_until(lambda: "c=" in owner.url, 30)
    conversation = owner.url.split("c=", 1)[1].split("&", 1)[0]

    follower.goto(f"{streamlit_app}/?c={conversation}")
    follower.get_by_text("Counting", exact=False).first.wait_for(timeout=60000)
    first = last_word(follower)
    wait_until(lambda: last_word(follower) >= first + 40, 30)  # redrawn as it grows, no click
    assert abs(last_word(owner) - last_word(follower)) < 60  # a second or so behind the owner at most
    follower.screenshot(path=str(ARTEFACTS / "live-follow-second-tab.png"), full_page=True)
    body = follower.inner_text("body").replace("\u200b", "")
    assert "<script>window.__pwned=2</script>" in body  # the stream's HTML is text
    assert follower.locator("img[src='x']").count() == 0 and follower.evaluate("window.__pwned") is None

    box.fill("And per region, <b>please</b>")  # a follow-up, typed in the first tab
    box.press("Enter")
    follower.get_by_text("sent during the run", exact=False).first.wait_for(timeout=30000)  # seen while it runs
    assert "And per region, <b>please</b>" in follower.inner_text("body").replace("\u200b", "")
    assert last_word(follower) < 899

    follower.locator(".st-key-run_stop button").first.click(timeout=30000)
    owner.get_by_text("Stopped: the run was interrupted", exact=False).first.wait_for(timeout=30000)
    follower.get_by_text("Stopped: the run was interrupted", exact=False).first.wait_for(timeout=30000)
    assert last_word(owner) < 899 and last_word(follower) < 899  # stopped before its end
    wait_until(lambda: last_word(follower) == last_word(owner), 10)  # both show what was kept
    assert follower.locator(".st-key-run_stop button").count() == 0
    assert "And per region" in follower.inner_text("body")  # kept in the turn, unread
    follower.screenshot(path=str(ARTEFACTS / "live-follow-stopped.png"), full_page=True)
    assert dialogs == []
