"""A turn too large for the store, made to fit: its tables and charts are left out, then
its trace, with a note in the turn (its raw stream and its record alike); the answer is
always kept.

The engine already bounds the data one turn writes (``EngineConfig.turn_data_bytes``);
this is the last line, so that a turn is never left ``running`` because it was too large.
"""

from __future__ import annotations

from components.i18n import t
from components.state import Turn
from engine.react.record import RecordBlock, TurnRecord, compact, run_record
from engine.react.step import Step
from engine.react.stream import StreamWriter
from engine.react.types import ANSWER_TYPES, ReActType

DATA_TYPES = frozenset({ReActType.TABLE, ReActType.CHART})


def _without_tables(steps: list[Step]) -> list[Step]:
    return [
        s.model_copy(update={"observations": [o.model_copy(update={"table": None}) for o in s.observations]})
        for s in steps
    ]


def _version(turn: Turn, record: TurnRecord, blocks: list[RecordBlock], steps: list[Step], note: str) -> Turn:
    writer = StreamWriter()
    kept = [b.as_block() for b in blocks] + [RecordBlock(type=ReActType.WARNING, text=note).as_block()]
    content = "".join(writer.block(b.type, b.content) for b in kept)
    smaller = run_record(steps, kept, content, record.answer, record.grounding, record.usage)
    smaller = smaller.model_copy(update={"draft": record.draft, "source": record.source})
    return turn.model_copy(update={"content": content, "record": compact(smaller)})


def fitted(turn: Turn, lang: str = "en") -> list[Turn]:
    """Smaller versions of ``turn``, to try in order: without its data blocks, then its answer alone."""
    if turn.role != "assistant":
        return []
    record = turn.run_record()
    without_data = [b for b in record.blocks if b.type not in DATA_TYPES]
    answers = [b for b in record.blocks if b.type in ANSWER_TYPES or b.type is ReActType.ERROR]
    return [
        _version(turn, record, without_data, _without_tables(record.steps), t("turn_data_left_out", lang)),
        _version(turn, record, answers, [], t("turn_trace_left_out", lang)),
    ]
