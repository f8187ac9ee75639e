"""The tools' sentences to the model (a misuse's ToolError, a server's failure, a search's
passages) and the few words a page shows of them (a router's reason, a chart's title), in
English and French (``messages.json``), read through the engine's one message loader
(``engine/wording.py``). The table tools have their own file (``tables/messages.py``)."""

from __future__ import annotations

from pathlib import Path

from engine.wording import voice

say = voice(Path(__file__).with_name("messages.json"))
