"""The cautions about a turn's answer, as every view shows them: the chat (with the
trace hidden too) and the exports. They come from the engine's review of the answer,
stored with the turn; a turn stored before cautions existed gets the notes its
grounding report gives."""

from __future__ import annotations

from components.footnotes import invented_note, unsupported_note
from components.state import Turn
from engine.react.run_state import Caution
from engine.react.types import ReActType


def stored_cautions(turn: Turn) -> list[Caution] | None:
    """The cautions the engine gave ``turn``'s answer, in order, once each (None for a
    turn stored before cautions existed)."""
    if turn.cautions is None:
        return None
    return list({c.text: c for c in turn.cautions}.values())


def turn_cautions(turn: Turn, lang: str = "en") -> list[str]:
    """The texts of the cautions about ``turn``'s answer, for an export."""
    if turn.role != "assistant":
        return []
    stored = stored_cautions(turn)
    if stored is not None:
        return [c.text for c in stored if c.about_answer]
    report = turn.grounding
    if report is None:
        return []
    return [note for note in (unsupported_note(report, lang), invented_note(report, lang)) if note]


def turn_notes(turn: Turn) -> list[str]:
    """Why the model's draft of ``turn`` was set aside (notes about the draft), for an export."""
    stored = stored_cautions(turn) if turn.role == "assistant" else None
    return [c.text for c in stored or [] if not c.about_answer]


def beside_trace(turn: Turn, cautions: list[Caution]) -> list[Caution]:
    """The cautions the trace does not already show as a Warning or Note block (when it is shown)."""
    shown = {b.content.strip() for b in turn.blocks if b.type in (ReActType.WARNING, ReActType.NOTE)}
    return [c for c in cautions if c.text.strip() not in shown]
