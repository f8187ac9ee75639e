"""The table tools' sentences (``messages.json``: a file they did not load, a query they
stopped or cut, a clarifying question, a document's tables left out) and
``compute_table``'s phrases (``statements.json``), in English and French, read through
the engine's one message loader (``engine/wording.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from engine.wording import load, texts, voice

HERE = Path(__file__).parent


say = voice(HERE / "messages.json")


def statements(language: str) -> Mapping[str, str]:
    """``compute_table``'s phrases in ``language``, English when it has none."""
    return texts(load(HERE / "statements.json"), language)
