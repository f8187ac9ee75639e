"""The record of a turn's run, kept with the stored turn beside its raw stream.

``TurnRecord`` holds the run's typed steps as the engine produced them (thoughts, calls,
observations with their status and tables, usage), the blocks the turn showed in order,
the draft the check set aside, the answer, its grounding and the run's usage. History,
the exports and the feedback export read it; only the tracer reads the raw stream, to
draw the turn.

A block is stored as where its content lies in the turn's raw stream (``span``), or as
its text when the stream does not hold it as it is (labels the engine escaped); a
step's thought and answer, and an Observation's text and table, as the block that
showed them (``shown``), when one did exactly; a step's model text as where the stream
holds it (``model_spans``). The record does not keep the stream's
text, or a table, twice; ``resolved`` gives it all back, a table or a chart as data.

A turn stored before the record existed, or whose record is unreadable, is upgraded at
read time (``read_record``): its blocks come from its raw stream, through the one parser,
and its steps from those blocks (``source == "stream"``: an Observation's status was not
written in the stream, so it is not known).
"""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from engine.grounding import GroundingReport
from engine.llm.base import Usage
from engine.react.parser import parse_blocks
from engine.react.step import Observation, Step, ToolCall
from engine.react.types import ANSWER_TYPES, ReActBlock, ReActType
from engine.settings import EngineConfig
from engine.tools.results import TableData

RECORD_VERSION = 1
MAX_RECORD_ITEMS = 5000  # steps or blocks: a stored record with more is not one this engine wrote
DATA_BYTES = EngineConfig.model_fields["turn_data_bytes"].default
# The fields a block can hold for its step or its Observation, and the blocks that can
STEP_FIELDS = MappingProxyType({"thought": frozenset({ReActType.THOUGHT}), "answer": ANSWER_TYPES | {ReActType.DRAFT}})
OBSERVATION_FIELDS = MappingProxyType(
    {"text": frozenset({ReActType.OBSERVATION}), "table": frozenset({ReActType.TABLE})}
)

# (step, observation or -1 for the step itself, field, block): the field is what that block showed
Link = tuple[int, int, Literal["thought", "answer", "text", "table"], int]


class RecordBlock(BaseModel):
    """One block the turn showed: stored, where it is in the raw stream (or its text);
    resolved, its text, or a table or a chart as data."""

    type: ReActType
    text: str = ""
    span: tuple[int, int] | None = None
    table: TableData | None = None
    chart: dict[str, Any] | None = None

    @property
    def content(self) -> str:
        """The block's content as the stream carried it (a table or a chart as JSON)."""
        if self.table is not None:
            return self.table.model_dump_json()
        if self.chart is not None:
            return json.dumps(self.chart, ensure_ascii=False)
        return self.text

    def as_block(self) -> ReActBlock:
        return ReActBlock(type=self.type, content=self.content)


class TurnRecord(BaseModel):
    """What one turn's run did; ``source`` says whether the engine wrote it or it was read back from the stream."""

    version: int = RECORD_VERSION
    source: Literal["engine", "stream"] = "engine"
    steps: list[Step] = Field(default_factory=list, max_length=MAX_RECORD_ITEMS)
    blocks: list[RecordBlock] = Field(default_factory=list, max_length=MAX_RECORD_ITEMS)
    draft: str | None = None  # the model's answer the check set aside for the one shown
    answer: str = ""
    grounding: GroundingReport | None = None
    usage: Usage = Field(default_factory=Usage)
    shown: list[Link] = Field(default_factory=list, max_length=4 * MAX_RECORD_ITEMS)
    model_spans: list[tuple[int, int, int]] = Field(
        default_factory=list, max_length=MAX_RECORD_ITEMS
    )  # step, start, end

    def resolved(self, raw: str) -> TurnRecord | None:
        """The record with its blocks read from ``raw``, the turn's stream, and its tables put
        back; None when a block lies outside it (the record is not this stream's)."""
        if all(b.span is None for b in self.blocks) and not self.shown and not self.model_spans:
            return self
        blocks = []
        for block in self.blocks:
            if block.span is None:
                blocks.append(block)
                continue
            start, end = block.span
            if not 0 <= start <= end <= len(raw):
                return None
            blocks.append(_typed(ReActBlock(type=block.type, content=raw[start:end])))
        steps = [s.model_copy(update={"observations": list(s.observations)}) for s in self.steps]
        for si, oi, field, bi in self.shown:
            if not (0 <= si < len(steps) and -1 <= oi < len(steps[si].observations) and 0 <= bi < len(blocks)):
                return None
            block = blocks[bi]
            value = block.table if field == "table" else block.content
            if oi < 0 and field in STEP_FIELDS:
                steps[si] = steps[si].model_copy(update={field: value})
            elif oi >= 0 and field in OBSERVATION_FIELDS:
                obs = steps[si].observations[oi]
                steps[si].observations[oi] = obs.model_copy(update={field: value})
            else:
                return None
        for si, start, end in self.model_spans:
            if not (0 <= si < len(steps) and 0 <= start <= end <= len(raw)):
                return None
            steps[si] = steps[si].model_copy(update={"model_text": raw[start:end]})
        return self.model_copy(update={"blocks": blocks, "steps": steps, "shown": [], "model_spans": []})

    def react_blocks(self) -> list[ReActBlock]:
        return [b.as_block() for b in self.blocks]

    def tables(self) -> list[TableData]:
        return [b.table for b in self.blocks if b.table is not None]

    def charts(self) -> list[dict[str, Any]]:
        return [b.chart for b in self.blocks if b.chart is not None]


def _typed(block: ReActBlock) -> RecordBlock:
    """A block as the record keeps it: a table or a chart the engine wrote as JSON, as data."""
    if block.type is ReActType.TABLE:
        try:
            return RecordBlock(type=block.type, table=TableData.model_validate_json(block.content))
        except ValidationError:
            pass
    elif block.type is ReActType.CHART:
        try:
            chart = json.loads(block.content)
        except (ValueError, RecursionError):
            chart = None
        if isinstance(chart, dict):
            return RecordBlock(type=block.type, chart=chart)
    return RecordBlock(type=block.type, text=block.content)


def _spans(blocks: list[ReActBlock], raw: str) -> list[RecordBlock]:
    """Each block as where its content is in ``raw``, in order (its text when ``raw`` does not hold it as it is)."""
    out, pos = [], 0
    for block in blocks:
        start = raw.find(block.content, pos) if block.content else -1
        if start < 0:
            out.append(RecordBlock(type=block.type, text=block.content))
            continue
        pos = start + len(block.content)
        out.append(RecordBlock(type=block.type, span=(start, pos)))
    return out


def _draft(blocks: list[ReActBlock]) -> str | None:
    drafts = [b.content for b in blocks if b.type is ReActType.DRAFT]
    return drafts[-1] if drafts else None


def _bounded(steps: list[Step], data_bytes: int) -> list[Step]:
    """The steps with their tables cut to the data budget the stream had, in the same order."""
    left, out = data_bytes, []
    for step in steps:
        if not any(o.table is not None for o in step.observations):
            out.append(step)
            continue
        observations = []
        for obs in step.observations:
            if obs.table is not None:
                table = obs.table.within_bytes(max(left, 0))
                left -= len(table.model_dump_json().encode())
                obs = obs.model_copy(update={"table": table})
            observations.append(obs)
        out.append(step.model_copy(update={"observations": observations}))
    return out


def _columns_prefix(table: TableData) -> str:
    return '{"columns":' + json.dumps(table.columns, ensure_ascii=False, separators=(",", ":"))


def _table_links(steps: list[Step], blocks: list[ReActBlock]) -> list[Link]:
    """Each Observation's table paired with the TABLE block that showed it, when every one
    has its block, in order and with its columns (else none is paired)."""
    slots = [(si, oi) for si, s in enumerate(steps) for oi, o in enumerate(s.observations) if o.table is not None]
    shown = [bi for bi, b in enumerate(blocks) if b.type is ReActType.TABLE]
    if len(slots) != len(shown):
        return []
    links: list[Link] = [(si, oi, "table", bi) for (si, oi), bi in zip(slots, shown, strict=True)]
    for si, oi, _, bi in links:
        if not blocks[bi].content.startswith(_columns_prefix(steps[si].observations[oi].table)):  # type: ignore[arg-type]
            return []
    return links


def _text_links(steps: list[Step], blocks: list[ReActBlock]) -> list[Link]:
    """Each thought, answer and Observation text paired with the next block, in order, that showed it exactly."""
    links: list[Link] = []
    cursor = 0

    def find(value: str | None, types: frozenset[ReActType]) -> int | None:
        nonlocal cursor
        if not value:
            return None
        for bi in range(cursor, len(blocks)):
            if blocks[bi].type in types and blocks[bi].content == value:
                cursor = bi + 1
                return bi
        return None

    for si, step in enumerate(steps):
        if (bi := find(step.thought, STEP_FIELDS["thought"])) is not None:
            links.append((si, -1, "thought", bi))
        for oi, obs in enumerate(step.observations):
            if (bi := find(obs.text, OBSERVATION_FIELDS["text"])) is not None:
                links.append((si, oi, "text", bi))
        if (bi := find(step.answer, STEP_FIELDS["answer"])) is not None:
            links.append((si, -1, "answer", bi))
    return links


def _unlinked(steps: list[Step], links: list[Link]) -> list[Step]:
    """The steps without the values their links point to (the block holds them)."""
    cleared = {"thought": "", "answer": None, "text": "", "table": None}
    out = [s.model_copy(update={"observations": list(s.observations)}) for s in steps]
    for si, oi, field, _ in links:
        if oi < 0:
            out[si] = out[si].model_copy(update={field: cleared[field]})
        else:
            out[si].observations[oi] = out[si].observations[oi].model_copy(update={field: cleared[field]})
    return out


def run_record(
    steps: list[Step],
    blocks: list[ReActBlock],
    raw: str,
    answer: str,
    grounding: GroundingReport | None,
    usage: Usage,
    data_bytes: int = DATA_BYTES,
) -> TurnRecord:
    """The record of a run: the engine's own steps, and the blocks the turn showed of ``raw``, its stream.
    An Observation's table is kept as its TABLE block showed it (cut to the turn's data budget);
    one no block showed is cut to ``data_bytes`` the same way."""
    links = _table_links(steps, blocks) + _text_links(steps, blocks)
    kept = _unlinked(steps, links)
    spans, pos = [], 0
    for si, step in enumerate(kept):
        start = raw.find(step.model_text, pos) if step.model_text else -1
        if start >= 0:
            pos = start + len(step.model_text)
            spans.append((si, start, pos))
            kept[si] = step.model_copy(update={"model_text": ""})
    return TurnRecord(
        steps=_bounded(kept, data_bytes),
        blocks=_spans(blocks, raw),
        draft=_draft(blocks),
        answer=answer,
        grounding=grounding,
        usage=usage,
        shown=links,
        model_spans=spans,
    )


def steps_from_blocks(blocks: list[ReActBlock]) -> list[Step]:
    """Steps read back from a stream's blocks: thoughts, calls, observations and their tables, answers."""
    steps: list[Step] = []

    def current(opens: bool = False) -> Step:
        if opens or not steps:
            steps.append(Step(number=len(steps) + 1))
        return steps[-1]

    for block in blocks:
        last = steps[-1] if steps else None
        if block.type is ReActType.THOUGHT:
            fresh = last is None or last.thought or last.calls or last.answer is not None
            current(opens=bool(fresh)).thought = block.content
        elif block.type is ReActType.ACTION:
            step = current(opens=last is not None and (bool(last.observations) or last.answer is not None))
            step.calls.append(ToolCall(id=f"call_{step.number}_{len(step.calls) + 1}", name=block.content))
        elif block.type is ReActType.ACTION_INPUT and last is not None and last.calls:
            try:
                args = json.loads(block.content)
            except (ValueError, RecursionError):
                args = None
            call = last.calls[-1]
            if isinstance(args, dict):
                call.args = args
            else:
                call.raw_arguments = block.content
        elif block.type is ReActType.OBSERVATION:
            step = current()
            call = step.calls[len(step.observations)] if len(step.observations) < len(step.calls) else None
            n = sum(len(s.observations) for s in steps) + 1
            step.observations.append(
                Observation(
                    call_id=call.id if call else f"obs_{n}",
                    tool=call.name if call else "",
                    args=call.args if call else {},
                    text=block.content,
                    n=n,
                )
            )
        elif block.type is ReActType.TABLE and last is not None and last.observations:
            try:
                last.observations[-1].table = TableData.model_validate_json(block.content)
            except ValidationError:
                pass
        elif block.type in ANSWER_TYPES:
            current(opens=last is not None and last.answer is not None).answer = block.content
    return steps


def from_stream(content: str, answer: str = "", grounding: GroundingReport | None = None) -> TurnRecord:
    """The record of a turn stored without one: read back from its raw stream by the one parser."""
    blocks = parse_blocks(content)
    return TurnRecord(
        source="stream",
        steps=steps_from_blocks(blocks)[-MAX_RECORD_ITEMS:],
        blocks=[_typed(b) for b in blocks][-MAX_RECORD_ITEMS:],
        draft=_draft(blocks),
        answer=answer,
        grounding=grounding,
    )


def stored_record(data: Any) -> TurnRecord | None:
    """A stored record (its JSON text, as ``compact`` writes it, or that JSON read), or None
    when there is none or it is not one this engine can read (never an error)."""
    if data is None or isinstance(data, TurnRecord):
        return data
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            return None
    if not isinstance(data, dict) or data.get("version") != RECORD_VERSION:
        return None
    try:
        return TurnRecord.model_validate(data)
    except (ValidationError, RecursionError):
        return None


def read_record(turn: dict[str, Any]) -> TurnRecord:
    """The record of a stored assistant turn (its fields, as the store keeps them): its own,
    or one read back from its raw stream when it has none or one that is not a record. The
    one read-time upgrade of a turn stored before turns kept their record."""
    content = turn.get("content")
    record = stored_record(turn.get("record"))
    resolved = record.resolved(content if isinstance(content, str) else "") if record is not None else None
    if resolved is not None:
        return resolved
    answer = turn.get("answer")
    try:
        grounding = GroundingReport.model_validate(turn["grounding"]) if turn.get("grounding") else None
    except ValidationError:
        grounding = None
    return from_stream(
        content if isinstance(content, str) else "", answer if isinstance(answer, str) else "", grounding
    )


def compact(record: TurnRecord) -> str:
    """The record as the store keeps it: one JSON text in the turn (opening a conversation
    reads a string, not the record's many small objects; it is read when it is used),
    without the fields left at their defaults (read back, they are the defaults again),
    always with its version."""
    data = {"version": record.version, **record.model_dump(mode="json", exclude_defaults=True)}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
