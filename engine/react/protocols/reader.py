"""Reading one model step written in ReAct form, token by token.

The reader forwards the model's text into the raw stream under canonical labels as
it arrives, and ends the step when the model goes past it: an ``Observation:`` it
wrote itself, anything after an Action Input, or an answer after an Action (an
answer written before the tool ran is never shown). Once an answer opens, every
line the model writes belongs to it, label-like or not.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.react.parser import ParseEvent, ReActStreamParser, reemit
from engine.react.stream import StreamWriter
from engine.react.types import ANSWER_TYPES, ReActBlock, ReActType


class StopStep(Exception):
    """The model went past where its step ends."""


class ReActReader:
    def __init__(
        self, writer: StreamWriter, accept: Iterable[ReActType], *, hold_unlabeled: bool, terminal=ANSWER_TYPES
    ) -> None:
        self.writer = writer
        self.parser = ReActStreamParser(accept=accept, terminal=terminal)
        self.hold_unlabeled = hold_unlabeled  # unlabeled text waits until its role is known
        self.kinds: list[ReActType] = []  # the type each parsed block ends up with
        self._held: list[str] = []

    def feed(self, delta: str) -> str:
        return "".join(self._forward(e) for e in self.parser.feed(delta))

    def close(self) -> str:
        return "".join(self._forward(e) for e in self.parser.close())

    @property
    def holding(self) -> bool:
        return ReActType.UNKNOWN in self.kinds

    def release(self, kind: ReActType) -> str:
        """Write the held unlabeled text as a block of ``kind``."""
        if not self.holding:
            return ""
        text = "".join(self._held).strip()
        self._held.clear()
        self.kinds[self.kinds.index(ReActType.UNKNOWN)] = kind
        return self.writer.block(kind, text, end=False) if text else ""

    def blocks(self) -> list[ReActBlock]:
        return [b.model_copy(update={"type": k}) for b, k in zip(self.parser.blocks, self.kinds, strict=False)]

    def answer_written(self) -> bool:
        return any(k in ANSWER_TYPES for k in self.kinds)

    def _forward(self, event: ParseEvent) -> str:
        if event.kind == "start":
            kind = event.type
            if kind is ReActType.OBSERVATION:
                raise StopStep
            if self.kinds and (
                self.kinds[-1] is ReActType.ACTION_INPUT or (kind in ANSWER_TYPES and ReActType.ACTION in self.kinds)
            ):
                raise StopStep
            if kind is ReActType.UNKNOWN:
                if self.hold_unlabeled:
                    self.kinds.append(kind)
                    return ""
                kind = ReActType.THOUGHT
            lead = self.release(ReActType.THOUGHT)
            self.kinds.append(kind)
            return lead + self.writer.block(kind, end=False)
        if self.kinds and self.kinds[-1] is ReActType.UNKNOWN:
            self._held.append(event.text)  # raw: written later through writer.block, which escapes it
            return ""
        return self.writer.write(reemit(event))
