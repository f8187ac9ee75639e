"""One real browser run: headless Chromium (Playwright) against ``streamlit run`` on
127.0.0.1, the LLM being the local fake Mistral server."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = ROOT / "artefacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAYLOAD = '<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned=\'img\'">'

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def streamlit_app(fake_server, tmp_path):
    port = free_port()
    env = dict(os.environ)
    env.update(
        MISTRAL_API_KEY="sk-browser-secret",
        MISTRAL_SERVER_URL=f"http://127.0.0.1:{fake_server.port}",
        MCP_SERVERS="off",
        INDEX_ROOT=str(tmp_path / "indexes"),
        LLM_MAX_RETRY_S="0.5",
    )
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address", "127.0.0.1",
           "--server.headless", "true", "--browser.gatherUsageStats", "false"]  # fmt: skip
    log = open(tmp_path / "streamlit.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=1)
            break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("streamlit did not start: " + (tmp_path / "streamlit.log").read_text()[-2000:])
    yield url
    proc.terminate()
    proc.wait(10)
    log.close()


@pytest.fixture
def page():
    """A page in Debian's headless Chromium, driven by Playwright (nothing is downloaded)."""
    from playwright.sync_api import sync_playwright

    ARTEFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser.new_page(viewport={"width": 1100, "height": 1400})
        browser.close()


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
    page.get_by_text("the total is 400").wait_for(timeout=60000)
    for label in ("Thought", "Action", "Observation"):
        assert page.get_by_text(label, exact=True).first.is_visible()
    page.get_by_text("Observation", exact=True).first.click()
    page.get_by_text('window.__pwned = "script"', exact=False).first.wait_for(timeout=10000)
    body = page.inner_text("body")
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
    page.get_by_test_id("stChatInputStopButton").click()  # the send button is a Stop button now
    deadline = time.monotonic() + 30
    while fake_server.aborted == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert fake_server.aborted == 1  # the model stream was closed, not left running
    page.get_by_text("Show Thoughts").click()  # any rerun redraws the stored turn
    page.get_by_text("Stopped: the run was interrupted", exact=False).wait_for(timeout=30000)
    page.get_by_text("Show Thoughts").click()
    page.get_by_text("Beginning of the answer", exact=False).first.wait_for(timeout=30000)
    assert "word1999" not in page.inner_text("body")
    page.screenshot(path=str(ARTEFACTS / "stopped.png"), full_page=True)
