"""The raw stream as the engine writes it: canonical labels, and untrusted text that
can never open a block of its own."""

from __future__ import annotations

from engine.react.parser import ReActStreamParser, escape_labels
from engine.react.step import Note, Observation, ToolCall
from engine.react.types import CANONICAL_LABEL, ReActType
from engine.settings import EngineConfig

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
