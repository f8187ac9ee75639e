"""A live run seen from another server, and that server killed (headless Chromium, two
``streamlit run app.py`` servers on one PostgreSQL): server B draws server A's run as it
streams, shown running, not interrupted; once A is killed with SIGKILL, B shows the turn
interrupted after the lease (``TURN_LEASE_S``, short here), with what A had produced."""

import re
import time

import pytest
from playwright.sync_api import expect

from engine.store import ConversationStore
from engine.store.inputs import LOCAL_USER
from tests.browser.conftest import ARTEFACTS, start_app, stop_app, wait_healthy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEASE_S = 6  # short for the test; a heartbeat every 2 s, the stream written every 0.5 s while it grows
RUNNING_ELSEWHERE = "Running in another tab or on another server"
INTERRUPTED = "Interrupted: the app stopped during this turn"


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


@pytest.fixture
def two_servers(fake_server, pg_server, tmp_path):
    """Servers A and B on one PostgreSQL database, each with its own data folder; yields (url, process) pairs."""
    database = pg_server.create_database("team_live")
    started = []
    for name in ("a", "b"):
        folder = tmp_path / name
        url, proc = start_app(fake_server, folder, DATABASE_URL=database, TURN_LEASE_S=str(LEASE_S))
        started.append((url, proc, folder))
    try:
        for url, proc, folder in started:
            wait_healthy(url, proc, folder)
        yield [(url, proc) for url, proc, _ in started], database
    finally:
        for _, proc, _ in started:
            stop_app(proc)


def test_server_b_follows_server_as_live_run_and_shows_it_interrupted_after_a_is_killed(
    two_servers, fake_server, chromium
):
    ((url_a, proc_a), (url_b, _)), database = two_servers
    words = " ".join(f"w{i:03d}" for i in range(900))
    fake_server.script.append({"text": f"Answer: Counting {words}", "delay_s": 0.05})
    on_a = chromium.new_page(viewport={"width": 1100, "height": 1400})
    on_b = chromium.new_page(viewport={"width": 1100, "height": 1400})
    on_a.goto(url_a)
    box = on_a.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)
    box.fill("Count for me")
    box.press("Enter")
    on_a.get_by_text("w010", exact=False).first.wait_for(timeout=240000)  # includes warm-up
    wait_until(lambda: "c=" in on_a.url, 30)
    conversation = on_a.url.split("c=", 1)[1].split("&", 1)[0]

    on_b.goto(f"{url_b}/?c={conversation}")
    on_b.get_by_text(RUNNING_ELSEWHERE, exact=False).first.wait_for(timeout=60000)
    first = last_word(on_b)
    wait_until(lambda: last_word(on_b) >= first + 40, 30)  # streaming on B, read from the store
    assert on_b.get_by_text(INTERRUPTED, exact=False).count() == 0  # A's run is running, not interrupted
    on_b.screenshot(path=str(ARTEFACTS / "team-live-following.png"), full_page=True)

    proc_a.kill()  # SIGKILL: no save, no goodbye
    proc_a.wait(10)
    killed_at = time.monotonic()
    seen = last_word(on_b)
    on_b.get_by_text(INTERRUPTED, exact=False).first.wait_for(timeout=(LEASE_S + 30) * 1000)
    assert time.monotonic() - killed_at >= LEASE_S - 1.5  # not before the lease expired (B's last read was fresh)
    # the banner goes in the same redraw that writes the interruption: read it once that redraw is done
    expect(on_b.get_by_text(RUNNING_ELSEWHERE, exact=False)).to_have_count(0, timeout=15000)
    kept = last_word(on_b)
    assert seen <= kept < 899  # what A had produced (and saved) is kept, the run's end never came
    on_b.screenshot(path=str(ARTEFACTS / "team-live-interrupted.png"), full_page=True)

    store = ConversationStore(database, lease_s=LEASE_S)
    try:
        turn = store.get(LOCAL_USER, conversation).turns[-1]
    finally:
        store.close()
    assert turn["status"] == "interrupted" and f"w{kept:03d}" in turn["content"]
