"""The index's sentences (a theme name refused, an index missing or damaged, an ingest
busy, an embedding model refused), in English and French (``messages.json``), read
through the engine's one message loader (``engine/wording.py``)."""

from __future__ import annotations

from pathlib import Path

from engine.wording import voice

say = voice(Path(__file__).with_name("messages.json"))
