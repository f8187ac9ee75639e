"""A reasoning model's thinking, streamed live as a Thought ahead of its reply.

The thinking is the model's own text and untrusted: no line of it can open a block
(an ``Answer:`` line in it stays inside the Thought), so it never becomes the answer,
and it is no evidence for the grounding check (evidence comes from Observations).
It is recorded on the step apart from the reply, so each backend can follow its
provider's rule for sending it back.
"""

from __future__ import annotations

from engine.react.parser import ReActStreamParser, reemit
from engine.react.stream import StreamWriter
from engine.react.types import ReActType


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
