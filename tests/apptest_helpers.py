"""Driving the Streamlit pages headless with AppTest, the LLM being a local fake
Mistral server reached through the real SDK."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


@pytest.fixture
def app_env(fake_server, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MISTRAL_API_KEY", "sk-apptest-secret")
    monkeypatch.setenv("MISTRAL_SERVER_URL", f"http://127.0.0.1:{fake_server.port}")
    monkeypatch.setenv("LLM_MAX_RETRY_S", "0.3")
    monkeypatch.setenv("MCP_SERVERS", "off")
    monkeypatch.setenv("INDEX_ROOT", str(tmp_path / "indexes"))
    import engine.rag.manager as manager

    monkeypatch.setattr(manager, "_DEFAULT", None)
    return fake_server


def new_app(path: str = APP) -> AppTest:
    return AppTest.from_file(path, default_timeout=90).run()


def assistant_children(at: AppTest, index: int = -1):
    messages = [m for m in at.chat_message if m.name == "assistant"]
    return list(messages[index].children.values())


def kinds_and_labels(at: AppTest, index: int = -1) -> list[tuple[str, str]]:
    out = []
    for child in assistant_children(at, index):
        kind = type(child).__name__
        out.append((kind, getattr(child, "label", None) or getattr(child, "value", "")))
    return out
