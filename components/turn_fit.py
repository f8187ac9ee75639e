"""A turn too large for the store, made to fit: its tables and charts are left out, then
its trace, with a note in the turn; the answer is always kept.

The engine already bounds the data one turn writes (``EngineConfig.turn_data_bytes``);
this is the last line, so that a turn is never left ``running`` because it was too large.
"""

from __future__ import annotations

from components.i18n import t
from components.state import Turn
from engine.react.parser import parse_blocks
from engine.react.stream import StreamWriter
from engine.react.types import ANSWER_TYPES, ReActBlock, ReActType

DATA_TYPES = frozenset({ReActType.TABLE, ReActType.CHART})


def _stream(blocks: list[ReActBlock], note: str) -> str:
    writer = StreamWriter()
    return "".join(writer.block(b.type, b.content) for b in blocks) + writer.block(ReActType.WARNING, note)


def fitted(turn: Turn, lang: str = "en") -> list[Turn]:
    """Smaller versions of ``turn``, to try in order: without its data blocks, then its answer alone."""
    if turn.role != "assistant":
        return []
    blocks = parse_blocks(turn.content)
    without_data = [b for b in blocks if b.type not in DATA_TYPES]
    answers = [b for b in blocks if b.type in ANSWER_TYPES or b.type is ReActType.ERROR]
    return [
        turn.model_copy(update={"content": _stream(without_data, t("turn_data_left_out", lang))}),
        turn.model_copy(update={"content": _stream(answers, t("turn_trace_left_out", lang))}),
    ]
