"""StreamlitChatTracer: a thin renderer over the engine's ReActStreamParser, and the
one way a turn is drawn, live or replayed (a replay feeds the stored stream at once),
with the same widget keys either way.

Raw tokens go into the one parser; each block is drawn into its own placeholder as
it forms. A new block is drawn at once; growing text is redrawn at most once per
throttle interval, and everything is drawn in its final state at ``close()``.

A long Answer is streamed paragraph by paragraph: finished paragraphs (outside code
fences) are settled into elements of their own and never sent again, so only the
paragraph being written is redrawn. The bytes sent grow linearly with the answer,
not quadratically."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from components.inert import inert
from components.render import answer_markdown, draw, group_indices, group_widgets
from components.throttle import Throttle
from engine.react.parser import ReActStreamParser
from engine.react.types import ANSWER_TYPES

LONG_TAIL = 4000  # characters of one paragraph after which it is settled at a sentence end


class AnswerStream:
    """Markdown that grows at its end, drawn as settled paragraphs plus one live tail."""

    def __init__(self, slot: Any) -> None:
        self.slot = slot
        self.box = slot.container()
        self.tail = self.box.empty()
        self.parts = [self.tail]  # one placeholder per paragraph drawn, the live tail last
        self.settled = 0  # characters of the answer already settled
        self.fences = 0  # code fences in the settled part

    def update(self, text: str) -> None:
        pending = text[self.settled :]
        cut = self._last_safe_break(pending)
        if cut > 0:
            self.tail.markdown(inert(answer_markdown(pending[:cut])))
            self.fences += pending[:cut].count("```")
            self.settled += cut
            self.tail = self.box.empty()
            self.parts.append(self.tail)
            pending = pending[cut:]
        self.tail.markdown(inert(answer_markdown(pending)))

    def replace(self, markdown: str) -> None:
        """Draw ``markdown`` as the whole answer, in place of every paragraph drawn so far.

        The paragraphs are overwritten in place (the first gets the answer, the others
        are emptied): a new container put where the old one was would keep the old
        one's children on the page, and the answer would be drawn twice."""
        first, *rest = self.parts
        first.markdown(inert(markdown))
        for part in rest:
            part.empty()

    def _last_safe_break(self, pending: str) -> int:
        """The end of the last blank line in ``pending`` that is outside a code fence;
        in a paragraph longer than ``LONG_TAIL`` with none, the last sentence end."""
        index = pending.rfind("\n\n")
        while index > 0:
            if (self.fences + pending[:index].count("```")) % 2 == 0:
                return index + 2
            index = pending.rfind("\n\n", 0, index)
        if (
            len(pending) > LONG_TAIL
            and (self.fences + pending.count("```")) % 2 == 0
            and "|" not in pending[-LONG_TAIL:]
        ):
            sentence = pending.rfind(". ")
            if sentence > 0:
                return sentence + 2
        return 0


class StreamlitChatTracer:
    def __init__(
        self,
        container: Any,
        *,
        lang: str = "en",
        show_trace: bool = True,
        throttle: Throttle | None = None,
        key: str = "turn",
        annotate: Callable[[str], str] | None = None,
    ) -> None:
        self.parser = ReActStreamParser()
        self.container = container
        self.lang = lang
        self.show_trace = show_trace
        self.throttle = throttle or Throttle()
        self.key = key
        self.annotate = annotate  # the finished answer as the page shows it (footnotes, flags)
        self.renders = 0
        self._parts: list[str] = []
        self._slots: list[Any] = []
        self._answers: dict[int, AnswerStream] = {}
        self._final: set[int] = set()

    @property
    def raw(self) -> str:
        return "".join(self._parts)

    def feed(self, token: str) -> None:
        self._parts.append(token)
        events = self.parser.feed(token)
        if not events:
            return
        for event in events:
            if event.kind == "retyped":  # an answer became a draft: draw its group again
                self._redraw_block(event.index)
        if any(e.kind in ("start", "retyped") for e in events) or self.throttle.ready():
            self.render()

    def replay(self, text: str) -> None:
        """Draw a stored stream at once, exactly as it was drawn live."""
        if text:
            self.feed(text)
        self.close()

    def _redraw_block(self, index: int) -> None:
        for gi, indices in enumerate(group_indices(self.parser.blocks)):
            if index in indices:
                self._final.discard(gi)
                self._answers.pop(gi, None)

    def close(self) -> None:
        self.parser.close()
        self.render(final=True)

    def render(self, final: bool = False) -> None:
        blocks = self.parser.blocks
        groups = group_indices(blocks)
        while len(self._slots) < len(groups):
            self._slots.append(self.container.empty())
        last = len(groups) - 1
        for gi, indices in enumerate(groups):
            if gi in self._final:
                continue
            members = [blocks[i] for i in indices]
            done = gi < last or final
            slot = self._slots[gi]
            if members[0].type in ANSWER_TYPES:
                self._render_answer(gi, slot, members[0].content, live=not done)
            elif not self.show_trace and members[0].is_trace:
                slot.empty()
            else:
                draw(group_widgets(members, self.lang, f"{self.key}-{gi}"), slot.container())
            self.renders += 1
            if done:
                self._final.add(gi)

    def _render_answer(self, gi: int, slot: Any, content: str, live: bool) -> None:
        stream = self._answers.get(gi)
        if stream is None:
            stream = self._answers[gi] = AnswerStream(slot)
        if live:
            stream.update(self.parser.current_text().lstrip())
            return
        if self.annotate is not None:
            annotated = self.annotate(content)
            if annotated != content:  # footnote marks and flags: the whole answer, drawn once
                stream.replace(annotated)
                return
        stream.update(content)
