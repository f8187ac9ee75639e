"""StreamlitChatTracer: a thin renderer over the engine's ReActStreamParser.

Raw tokens go into the one parser; each block is drawn into its own placeholder as
it forms. A new block is drawn at once; growing text is redrawn at most once per
throttle interval, and everything is drawn in its final state at ``close()``."""

from __future__ import annotations

from typing import Any

from components.render import draw, group_indices, group_widgets, is_trace
from components.throttle import Throttle
from engine.react.parser import ReActStreamParser


class StreamlitChatTracer:
    def __init__(
        self,
        container: Any,
        *,
        lang: str = "en",
        show_trace: bool = True,
        throttle: Throttle | None = None,
        key: str = "turn",
    ) -> None:
        self.parser = ReActStreamParser()
        self.container = container
        self.lang = lang
        self.show_trace = show_trace
        self.throttle = throttle or Throttle()
        self.key = key
        self.renders = 0
        self._parts: list[str] = []
        self._slots: list[Any] = []
        self._final: set[int] = set()
        self._dirty = False

    @property
    def raw(self) -> str:
        return "".join(self._parts)

    def feed(self, token: str) -> None:
        self._parts.append(token)
        events = self.parser.feed(token)
        if not events:
            return
        started = any(e.kind == "start" for e in events)
        self._dirty = True
        if started or self.throttle.ready():
            self.render()

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
            slot = self._slots[gi]
            if not self.show_trace and is_trace(members[0]):
                slot.empty()
            else:
                draw(group_widgets(members, self.lang, f"{self.key}-{gi}"), slot.container())
                self.renders += 1
            if gi < last or final:
                self._final.add(gi)
        self._dirty = False
