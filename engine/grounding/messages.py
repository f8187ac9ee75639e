"""The grounding check's words for people (``messages.json``: the notes on a figure, the
prefaces of a quote, the not-found sentence), in English and French, read through the
engine's one message loader (``engine/wording.py``)."""

from __future__ import annotations

from pathlib import Path

from engine.wording import fill, load

MESSAGES = Path(__file__).with_name("messages.json")


def say(key: str, language: str = "en", **values: object) -> str:
    """The text ``key`` in ``language`` with its values filled in; a missing key or value fails loudly."""
    return fill(load(MESSAGES), key, language, **values)
