"""Browser fixtures: ``streamlit run`` on 127.0.0.1 against the local fake Mistral server,
and a page in Debian's headless Chromium driven by Playwright (nothing is downloaded)."""

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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(fake_server, folder: Path, **env: str) -> tuple[str, subprocess.Popen]:
    """``streamlit run app.py`` on a free port, its data under ``folder``; returns at once."""
    port = free_port()
    full = dict(os.environ)
    full.update(
        MISTRAL_API_KEY="sk-browser-secret",
        MISTRAL_SERVER_URL=f"http://127.0.0.1:{fake_server.port}",
        MCP_SERVERS="off",
        INDEX_ROOT=str(folder / "indexes"),
        DATABASE_URL=f"sqlite:///{folder / 'app.db'}",
        LLM_MAX_RETRY_S="0.5",
    )
    full.update(env)
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address", "127.0.0.1",
           "--server.headless", "true", "--browser.gatherUsageStats", "false"]  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "streamlit.log", "w") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=full, stdout=log, stderr=subprocess.STDOUT)
    return f"http://127.0.0.1:{port}", proc


def wait_healthy(url: str, proc: subprocess.Popen, folder: Path, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=1)
            return
        except OSError:
            time.sleep(0.3)
    proc.kill()
    pytest.fail("streamlit did not start: " + (folder / "streamlit.log").read_text()[-2000:])


def stop_app(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(10)


@pytest.fixture
def streamlit_app(fake_server, tmp_path):
    url, proc = start_app(fake_server, tmp_path)
    wait_healthy(url, proc, tmp_path)
    yield url
    stop_app(proc)


@pytest.fixture
def chromium():
    """Debian's headless Chromium, driven by Playwright (nothing is downloaded)."""
    from playwright.sync_api import sync_playwright

    ARTEFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    """A page in that browser."""
    return chromium.new_page(viewport={"width": 1100, "height": 1400})


def drop_file(page, path: Path, into: str = "stChatInput") -> None:
    """Drop ``path`` into the chat box and wait until it has uploaded: Streamlit ignores a
    submission while a dropped file is still uploading, as an analyst sees by the spinner.
    The warm-up's status goes first: the rerun that removes it must not race the drop."""
    page.get_by_text("Loading in the background", exact=False).first.wait_for(state="detached", timeout=240000)
    page.locator(f"[data-testid='{into}'] input[type='file']").set_input_files(str(path))
    page.get_by_test_id("stFileChipName").filter(has_text=path.name).wait_for(timeout=30000)
    page.get_by_test_id("stFileChipIconSpinner").wait_for(state="detached", timeout=30000)
    page.get_by_test_id("stChatInputSubmitButton").wait_for(timeout=30000)
