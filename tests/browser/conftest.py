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


@pytest.fixture
def streamlit_app(fake_server, tmp_path):
    port = free_port()
    env = dict(os.environ)
    env.update(
        MISTRAL_API_KEY="sk-browser-secret",
        MISTRAL_SERVER_URL=f"http://127.0.0.1:{fake_server.port}",
        MCP_SERVERS="off",
        INDEX_ROOT=str(tmp_path / "indexes"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'app.db'}",
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
