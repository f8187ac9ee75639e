"""The server settings Streamlit reads from ``.streamlit/config.toml``, as it reads them."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _effective(**env: str) -> str:
    full = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    full.update(env)
    shown = subprocess.run(
        [sys.executable, "-m", "streamlit", "config", "show"], cwd=ROOT, env=full, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr[-1000:]
    return shown.stdout


def test_the_app_runs_without_a_file_watcher():
    """Watching the checkout (.venv and data/ included) burned a core on an idle app."""
    config = _effective()
    assert re.search(r'^fileWatcherType = "none"$', config, re.MULTILINE), config
    assert re.search(r"^runOnSave = false$", config, re.MULTILINE)


def test_a_developer_can_ask_for_the_watcher():
    config = _effective(STREAMLIT_SERVER_FILE_WATCHER_TYPE="auto")
    assert re.search(r'^fileWatcherType = "auto"$', config, re.MULTILINE), config


def test_the_script_is_run_without_magic():
    """Magic parses the script into an AST on every rerun, in the script's thread; CPython 3.11
    shares the AST converter's recursion counter between threads, so that raced the engine's
    own parsing (the calculator) with "AST constructor recursion depth mismatch"."""
    config = _effective()
    assert re.search(r"^magicEnabled = false$", config, re.MULTILINE), config


def test_a_rerun_during_a_run_goes_to_the_running_script():
    """With fast reruns, a message typed while the agent works would stop the script at once
    and start a new one: the run could never take it as a follow-up."""
    config = _effective()
    assert re.search(r"^fastReruns = false$", config, re.MULTILINE), config
