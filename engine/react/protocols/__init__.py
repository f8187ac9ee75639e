"""Wire protocols, chosen once per run from the backend's declared abilities.

A protocol is registered here once; ``select`` takes the first registered protocol
that fits the backend (or the one named by ``EngineConfig.wire_protocol``): native
function calling, then JSON mode, then the text format."""

from __future__ import annotations

from engine.llm.base import Abilities
from engine.react.protocols.base import Decision, PromptContext, WireProtocol
from engine.react.protocols.json_mode import JsonProtocol
from engine.react.protocols.native import NativeProtocol
from engine.react.protocols.text import TextProtocol

__all__ = ["Decision", "PromptContext", "WireProtocol", "register", "select"]

_REGISTERED: dict[str, WireProtocol] = {}


def register(protocol: WireProtocol, *, first: bool = False) -> None:
    """Make ``protocol`` available; ``first`` puts it ahead of the others in selection."""
    global _REGISTERED
    entries = [(k, v) for k, v in _REGISTERED.items() if k != protocol.name]
    entries = [(protocol.name, protocol), *entries] if first else [*entries, (protocol.name, protocol)]
    _REGISTERED = dict(entries)


def unregister(name: str) -> None:
    _REGISTERED.pop(name, None)


def select(abilities: Abilities, name: str | None = None) -> WireProtocol:
    if name:
        if name not in _REGISTERED:
            raise ValueError(f"Unknown wire protocol '{name}'; known: {', '.join(_REGISTERED)}.")
        return _REGISTERED[name]
    return next(p for p in _REGISTERED.values() if p.fits(abilities))


register(NativeProtocol())
register(JsonProtocol())
register(TextProtocol())
