"""A backend failure's one sentence (``messages.json``, English and French), read through
the engine's one message loader (``engine/wording.py``)."""

from __future__ import annotations

from pathlib import Path

from engine.wording import voice

say = voice(Path(__file__).with_name("messages.json"))
