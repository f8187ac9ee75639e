"""The raw stream as the engine writes it: canonical labels, and untrusted text that
can never open a block of its own; a reasoning model's thinking, streamed live as a
Thought ahead of its reply; the chart shown beside an answer.

The thinking is the model's own text and untrusted: no line of it can open a block
(an ``Answer:`` line in it stays inside the Thought), so it never becomes the answer,
and it is no evidence for the grounding check (evidence comes from Observations).
It is recorded on the step apart from the reply, so each backend can follow its
provider's rule for sending it back.

The chart is of the table result the answer was built on, chosen from the column types
(never HTML: a Vega-Lite spec as JSON)."""

from __future__ import annotations

import json

from engine.react.parser import ReActStreamParser, escape_labels, reemit
from engine.react.step import Note, Observation, Step, ToolCall
from engine.react.types import CANONICAL_LABEL, ReActType
from engine.settings import EngineConfig
from engine.tools.charts import suggest_chart, to_vega_lite

NOTE_TYPES = {"thought": ReActType.THOUGHT, "warning": ReActType.WARNING}


class StreamWriter:
    """Writes the raw stream and parses it with the same parser the client uses."""

    def __init__(self, data_bytes: int | None = None) -> None:
        self.parser = ReActStreamParser()
        self.at_line_start = True
        if data_bytes is None:
            data_bytes = EngineConfig.model_fields["turn_data_bytes"].default
        self.data_left = data_bytes  # bytes of TABLE and CHART blocks this run may still write

    def write(self, text: str) -> str:
        if text:
            self.parser.feed(text)
            self.at_line_start = text.endswith("\n")
        return text

    def block(self, block_type: ReActType, content: str = "", end: bool = True) -> str:
        lead = "" if self.at_line_start else "\n"
        first, newline, rest = content.partition("\n")  # the first line follows the label: never a label
        body = first + newline + escape_labels(rest)
        return self.write(f"{lead}{CANONICAL_LABEL[block_type]}: {body}" + ("\n" if end else ""))

    def untrusted(self, text: str) -> str:
        """Text inside the current block whose every line may look like a label
        (tool output, document text quoted by the engine)."""
        return self.write(escape_labels(text))

    # ---- step parts --------------------------------------------------------------
    def calls(self, calls: list[ToolCall]) -> str:
        out = []
        for call in calls:
            out.append(self.block(ReActType.ACTION, call.name))
            out.append(self.block(ReActType.ACTION_INPUT, call.arguments_json))
        return "".join(out)

    def observation(self, observation: Observation) -> str:
        out = self.block(ReActType.OBSERVATION, observation.text)
        if observation.table is not None:
            payload = observation.table.within_bytes(max(self.data_left, 0)).model_dump_json()
            self.data_left -= len(payload.encode())
            out += self.block(ReActType.TABLE, payload)
        return out

    def chart(self, payload: str | None) -> str:
        """The CHART block, when it fits in what is left of the data budget (a chart of part of the data would mislead)."""
        if payload is None or len(payload.encode()) > self.data_left:
            return ""
        self.data_left -= len(payload.encode())
        return self.block(ReActType.CHART, payload)

    def note(self, note: Note) -> str:
        return self.block(NOTE_TYPES[note.kind], note.text)


class ReasoningStream:
    """Writes reasoning deltas into the raw stream as one Thought block.

    Thinking that arrives once the reply has begun cannot go live without splitting
    the reply's blocks: it is kept (``late``) and written as a Thought before the
    step's tool calls, or, for a step that answered, kept on the step record only."""

    def __init__(self, writer: StreamWriter) -> None:
        self.writer = writer
        self.parts: list[str] = []
        self.late: list[str] = []
        self._parser: ReActStreamParser | None = None

    @property
    def text(self) -> str:
        return "".join(self.parts).strip()

    def feed(self, text: str, reply_started: bool) -> str:
        if not text:
            return ""
        self.parts.append(text)
        if reply_started:
            self.late.append(text)
            return ""
        out = ""
        if self._parser is None:
            self._parser = ReActStreamParser(accept={ReActType.THOUGHT}, terminal={ReActType.THOUGHT})
            self._parser.feed("Thought: ")
            out = self.writer.block(ReActType.THOUGHT, end=False)
        return out + "".join(self.writer.write(reemit(e)) for e in self._parser.feed(text) if e.kind != "start")

    def end(self) -> str:
        """Close the live Thought, before the reply's first token."""
        if self._parser is None:
            return ""
        out = "".join(self.writer.write(reemit(e)) for e in self._parser.close() if e.kind != "start")
        self._parser = None
        return out + ("" if self.writer.at_line_start else self.writer.write("\n"))

    def late_block(self) -> str:
        text = "".join(self.late).strip()
        self.late.clear()
        return self.writer.block(ReActType.THOUGHT, text) if text else ""


def chart_payload(steps: list[Step]) -> str | None:
    """The Vega-Lite spec for the run's latest table result, when a chart fits it."""
    tables = [o.table for s in steps for o in s.observations if o.table is not None]
    if not tables or len(tables[-1].rows) < 2:
        return None
    spec = suggest_chart(tables[-1])
    if spec is None:
        return None
    return json.dumps(to_vega_lite(spec, tables[-1]), ensure_ascii=False, default=str)
