"""Throttled rendering: a long answer is redrawn a bounded number of times, not once
per token, so the page neither flickers nor slows down quadratically."""

from __future__ import annotations

import time
from collections.abc import Callable


class Throttle:
    def __init__(self, interval_s: float = 0.08, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval_s = interval_s
        self._clock = clock
        self._last = float("-inf")

    def ready(self) -> bool:
        """True at most once per interval; the caller then redraws."""
        now = self._clock()
        if now - self._last >= self.interval_s:
            self._last = now
            return True
        return False

    def reset(self) -> None:
        self._last = float("-inf")
