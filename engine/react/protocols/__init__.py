"""Wire protocols, chosen once per run from the backend's declared abilities.

``PROTOCOLS`` lists them once, in order of preference; ``select`` takes the first that
fits the backend (or the one named by ``EngineConfig.wire_protocol``): native function
calling, then JSON mode, then the text format. A new wire mode is one class and one
entry in ``PROTOCOLS``; the list is a tuple, read at each call, never changed at run time."""

from __future__ import annotations

from engine.llm.base import Abilities
from engine.react.prompts import message
from engine.react.protocols.base import Decision, PromptContext, WireProtocol
from engine.react.protocols.json_mode import JsonProtocol
from engine.react.protocols.native import NativeProtocol
from engine.react.protocols.text import TextProtocol

__all__ = ["PROTOCOLS", "Decision", "PromptContext", "WireProtocol", "select"]

PROTOCOLS: tuple[WireProtocol, ...] = (NativeProtocol(), JsonProtocol(), TextProtocol())


def select(abilities: Abilities, name: str | None = None) -> WireProtocol:
    by_name = {p.name: p for p in PROTOCOLS}
    if name:
        if name not in by_name:
            raise ValueError(message("unknown_protocol", name=name, known=", ".join(by_name)))
        return by_name[name]
    return next(p for p in PROTOCOLS if p.fits(abilities))
