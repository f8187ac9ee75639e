"""The one incremental ReAct stream parser, used by the engine and by every client.

Feeding N characters costs O(N) in total: text is only held back at the start of a
line, and only while it could still become a label (at most ``_MAX_LABEL_CHARS``).
Labels are matched case-insensitively, with markdown decoration (``**Thought:**``,
``### Answer:``, ``- Action:``), optional step numbers (``Thought 2:``) and French
labels (``Pensée``, ``Réponse finale``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from engine.react.types import ANSWER_TYPES, ReActBlock, ReActType

LABEL_ALIASES: dict[str, ReActType] = {
    "thought": ReActType.THOUGHT,
    "thoughts": ReActType.THOUGHT,
    "pensée": ReActType.THOUGHT,
    "pensee": ReActType.THOUGHT,
    "réflexion": ReActType.THOUGHT,
    "action": ReActType.ACTION,
    "action input": ReActType.ACTION_INPUT,
    "action_input": ReActType.ACTION_INPUT,
    "entrée de l'action": ReActType.ACTION_INPUT,
    "entrée d'action": ReActType.ACTION_INPUT,
    "entree de l'action": ReActType.ACTION_INPUT,
    "entree d'action": ReActType.ACTION_INPUT,
    "observation": ReActType.OBSERVATION,
    "final answer": ReActType.FINAL_ANSWER,
    "réponse finale": ReActType.FINAL_ANSWER,
    "reponse finale": ReActType.FINAL_ANSWER,
    "answer": ReActType.ANSWER,
    "réponse": ReActType.ANSWER,
    "reponse": ReActType.ANSWER,
    "response": ReActType.RESPONSE,
    "conclusion": ReActType.CONCLUSION,
    "tool call": ReActType.ACTION,
    "tool result": ReActType.OBSERVATION,
    "draft": ReActType.DRAFT,
    "table": ReActType.TABLE,
    "chart": ReActType.CHART,
    "warning": ReActType.WARNING,
    "error": ReActType.ERROR,
}

# Types only the engine writes; a model writing these labels is writing content.
ENGINE_ONLY = frozenset(
    {ReActType.WARNING, ReActType.NOTE, ReActType.ERROR, ReActType.DRAFT, ReActType.TABLE, ReActType.CHART}
)
MODEL_LABELS = frozenset(set(ReActType) - ENGINE_ONLY - {ReActType.UNKNOWN})

ESCAPE = "\u200b"
_DECORATION = " \t>#*_-`"
_TAIL_DECORATION = " \t*_`0123456789"
_MAX_LABEL_CHARS = 48


def _alias_pattern(alias: str) -> str:
    return re.escape(alias).replace(r"\ ", r"\s+").replace("'", "['’]").replace("_", "[_ ]")


_LABEL_RE = re.compile(
    r"^[ \t>#*_\-`]*(?:\d+[.)]\s*)?("
    + "|".join(_alias_pattern(a) for a in sorted(LABEL_ALIASES, key=len, reverse=True))
    + r")(?:\s*\d+)?[ \t*_`]*[:：][*_`]*[ \t]?",
    re.IGNORECASE,
)
_PREFIXES = tuple(LABEL_ALIASES)
_OPENING_FENCE = re.compile(r"(?:```[\w-]*)?")


def _normalise(label: str) -> str:
    return " ".join(label.lower().replace("’", "'").split())


def label_type(label: str) -> ReActType | None:
    """The block type a bare label names (``"Réponse finale"`` → FINAL_ANSWER)."""
    return LABEL_ALIASES.get(_normalise(label))


class ParseEvent(NamedTuple):
    """``kind`` is ``start`` (a block begins), ``delta`` (content), ``escaped``
    (content at a line start that looks like a label this parser does not accept), or
    ``retyped`` (the block at ``index`` became ``type``: a ``Draft:`` marker turned the
    answer before it into a draft)."""

    kind: str
    index: int
    type: ReActType
    text: str


def reemit(event: ParseEvent) -> str:
    """An event's text as it must be written back into a stream: an ``escaped`` line
    (a label this parser did not accept) keeps its escape, so no client reads it as a block."""
    return ESCAPE + event.text if event.kind == "escaped" else event.text


class ReActStreamParser:
    """Rebuilds typed ReAct blocks from a raw token stream, incrementally.

    ``accept`` limits the labels that open blocks; any other label line is content
    (an ``escaped`` event). Once a block of a ``terminal`` type opens, no label opens
    another block: this is how a model's answer keeps every line it wrote.

    A ``Draft:`` block (written only by the engine) retypes the answer block just
    before it as DRAFT, and is itself read as a NOTE carrying the reason (a note about the
    draft: the answer that follows carries its own cautions)."""

    def __init__(self, accept: Iterable[ReActType] | None = None, terminal: Iterable[ReActType] = ()) -> None:
        self.accept = frozenset(accept) if accept is not None else frozenset(ReActType)
        self.terminal = frozenset(terminal)
        self._done: list[ReActBlock] = []
        self._type: ReActType | None = None
        self._parts: list[str] = []
        self._pending = ""
        self._line_start = True
        self._in_fence = False
        self._wrapped = False  # the step opened with a bare code fence: its closing fence is no content

    # ---- reading the result -------------------------------------------------
    @property
    def blocks(self) -> list[ReActBlock]:
        """Blocks so far, the one being written included (its content stripped)."""
        out = list(self._done)
        if self._type is not None:
            out.append(ReActBlock(type=self._type, content="".join(self._parts).strip()))
        return out

    def current_text(self) -> str:
        return "".join(self._parts)

    # ---- feeding ------------------------------------------------------------
    def feed(self, chunk: str) -> list[ParseEvent]:
        events: list[ParseEvent] = []
        if not chunk:
            return events
        if not self._line_start and "\n" not in chunk:  # the hot path: mid-line text
            self._content(chunk, events)
            return events
        pos, n = 0, len(chunk)
        while pos < n:
            nl = chunk.find("\n", pos)
            end = n if nl < 0 else nl + 1
            if self._line_start:
                self._pending += chunk[pos:end]
                self._classify(events)
            else:
                self._content(chunk[pos:end], events)
                if nl >= 0:
                    self._line_start = True
            pos = end
        return events

    def close(self) -> list[ParseEvent]:
        """Flush held-back text; call once at the end of the stream."""
        events: list[ParseEvent] = []
        if self._pending:
            self._classify(events, final=True)
        if self._type is not None:
            self._finish_block()
        return events

    # ---- internals ------------------------------------------------------------
    def _content(self, text: str, events: list[ParseEvent], kind: str = "delta") -> None:
        if self._type is None:
            self._start(ReActType.UNKNOWN, events)
        self._parts.append(text)
        events.append(ParseEvent(kind, len(self._done), self._type, text))  # type: ignore[arg-type]

    def _start(self, block_type: ReActType, events: list[ParseEvent]) -> None:
        if self._type is not None:
            self._finish_block()
        if block_type is ReActType.DRAFT:
            if self._done and self._done[-1].type in ANSWER_TYPES:
                index = len(self._done) - 1
                self._done[index] = self._done[index].model_copy(update={"type": ReActType.DRAFT})
                events.append(ParseEvent("retyped", index, ReActType.DRAFT, ""))
            block_type = ReActType.NOTE
        self._type = block_type
        self._in_fence = False
        events.append(ParseEvent("start", len(self._done), block_type, ""))

    def _finish_block(self) -> None:
        self._done.append(ReActBlock(type=self._type, content="".join(self._parts).strip()))  # type: ignore[arg-type]
        self._type = None
        self._parts = []

    def _classify(self, events: list[ParseEvent], final: bool = False) -> None:
        """Decide what the held-back start of a line is, or keep holding it."""
        s = self._pending
        complete = final or s.endswith("\n")
        in_answer = self._type in ANSWER_TYPES
        stripped = s.lstrip(" \t")
        if in_answer and (self._in_fence or stripped.startswith("`")):
            if not complete and len(stripped) < 3:
                return
            if self._wrapped and not self._in_fence and s.strip() == "```":
                if not complete:
                    return  # held: it may be the closing fence of the wrapper
                self._pending, self._wrapped = "", False  # the wrapper's closing fence: no content
                self._line_start = True
                return
            if stripped.startswith("```"):
                self._in_fence = not self._in_fence
            self._flush_pending(events, complete)
            return
        if complete or ":" in s or "：" in s or len(s) > _MAX_LABEL_CHARS:
            match = _LABEL_RE.match(s)
            if match is None:
                self._flush_pending(events, complete)
                return
            if match.end() == len(s) and not complete and len(s) <= _MAX_LABEL_CHARS:
                return  # decoration or a space may still follow the colon
            block_type = LABEL_ALIASES[_normalise(match.group(1))]
            if block_type not in self.accept or self._closed():
                self._flush_pending(events, complete, kind="escaped")
                return
            self._pending = ""
            if self._type is ReActType.UNKNOWN and not self._done and self._only_fence():
                self._wrapped = True
            self._start(block_type, events)
            rest = s[match.end() :]
            if rest:
                if block_type in ANSWER_TYPES and rest.lstrip(" \t").startswith("```"):
                    self._in_fence = True  # "Answer: ```" opens a fence inside the answer
                self._content(rest, events)
            self._line_start = complete
            return
        if self._could_be_label(s):
            return
        self._flush_pending(events, complete)

    def _closed(self) -> bool:
        """No label opens a block any more: a terminal block has begun. An unlabeled
        opening that is only a code fence (a whole turn wrapped in a fence) does not count."""
        if self._type not in self.terminal:
            return False
        return self._type is not ReActType.UNKNOWN or not self._only_fence()

    def _only_fence(self) -> bool:
        """The block so far is nothing but an opening code fence."""
        return bool(_OPENING_FENCE.fullmatch("".join(self._parts).strip()))

    def _flush_pending(self, events: list[ParseEvent], complete: bool, kind: str = "delta") -> None:
        text, self._pending = self._pending, ""
        if text.startswith(ESCAPE) and _LABEL_RE.match(text[1:]):
            text = text[1:]  # an escaped label line (see escape_labels): content, shown as written
        self._content(text, events, kind)
        self._line_start = complete

    @staticmethod
    def _could_be_label(s: str) -> bool:
        head = s.lstrip(_DECORATION).lower().replace("’", "'")
        if not head:
            return True
        if head[0].isdigit():  # "1. Thought:" numbering
            head = head.lstrip("0123456789.) ")
            if not head:
                return True
        head = " ".join(head.split()) + (" " if head[-1:].isspace() else "")
        core = head.rstrip(_TAIL_DECORATION)
        for alias in _PREFIXES:
            if alias.startswith(head) or (core and alias == core) or (core and alias.startswith(core) and core != head):
                return True
        return False


def parse_blocks(text: str, accept: Iterable[ReActType] | None = None) -> list[ReActBlock]:
    """Parse a whole transcript at once (the same parser, fed in one piece)."""
    parser = ReActStreamParser(accept)
    parser.feed(text)
    parser.close()
    return parser.blocks


def escape_labels(text: str) -> str:
    """Neutralise label-looking line starts in untrusted text (tool output, documents)
    so a document saying ``Answer: ...`` can never open an Answer block. A zero-width
    space is invisible when rendered."""
    if ":" not in text and "：" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _LABEL_RE.match(line):
            lines[i] = ESCAPE + line
    return "\n".join(lines)
