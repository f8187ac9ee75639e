"""Driving the Streamlit pages headless with AppTest, the LLM being a local fake
Mistral server reached through the real SDK."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


def new_app(path: str = APP) -> AppTest:
    return AppTest.from_file(path, default_timeout=90).run()


def _flat(node) -> list:
    """Children with plain layout containers (the tracer's slots) opened up; expanders stay whole."""
    out = []
    for child in node.children.values():
        if type(child).__name__ == "Block":
            out.extend(_flat(child))
        else:
            out.append(child)
    return out


def assistant_children(at: AppTest, index: int = -1):
    messages = [m for m in at.chat_message if m.name == "assistant"]
    return _flat(messages[index])


def kinds_and_labels(at: AppTest, index: int = -1) -> list[tuple[str, str]]:
    out = []
    for child in assistant_children(at, index):
        kind = type(child).__name__
        out.append((kind, getattr(child, "label", None) or getattr(child, "value", "")))
    return out
