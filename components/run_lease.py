"""A running turn's lease, kept by the run itself while its stream is consumed.

Every ``renew_every_s`` the run saves its turn with what it has produced so far (the
save renews the lease in the store, and a process killed after it leaves that much);
every ``poll_every_s`` it asks the store whether a Stop was requested from another tab
or server. Both are checked on each token, and an idle stream yields an empty token
every few tenths of a second, so neither waits for the model. At most one write per
renewal and one primary-key read per poll, whatever the token rate."""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.store.lease import POLL_S


class RunLease:
    """``renew`` saves the running turn; ``stop_requested`` reads the store's Stop flag for it."""

    def __init__(
        self,
        renew: Callable[[], None],
        stop_requested: Callable[[], bool],
        *,
        renew_every_s: float,
        poll_every_s: float = POLL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._renew, self._stop_requested, self._clock = renew, stop_requested, clock
        self.renew_every_s, self.poll_every_s = renew_every_s, poll_every_s
        start = clock()
        self._next_renew = start + renew_every_s
        self._next_poll = start + poll_every_s
        self.renewals = 0
        self.polls = 0

    def tick(self, before_renew: Callable[[], None] | None = None) -> bool:
        """Renew and poll when due (``before_renew`` first brings the turn up to date); True when
        a Stop was requested (the run then stops the usual way)."""
        now = self._clock()
        if now >= self._next_renew:
            self._next_renew = now + self.renew_every_s
            self.renewals += 1
            if before_renew is not None:
                before_renew()
            self._renew()
        if now >= self._next_poll:
            self._next_poll = now + self.poll_every_s
            self.polls += 1
            return self._stop_requested()
        return False
