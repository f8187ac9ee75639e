"""A running turn's lease, kept by the run itself while its stream is consumed.

The run saves its turn with what it has produced so far (the save renews the lease in
the store, and a process killed after it leaves that much): every ``write_every_s``
while new tokens come (so that any tab or server can follow the stream from the store),
and every ``renew_every_s`` in any case (the heartbeat of an idle run). Every
``poll_every_s`` it asks the store whether a Stop was requested from another tab or
server. All are checked on each token, and an idle stream yields an empty token every
few tenths of a second, so none waits for the model. At most one write per
``write_every_s`` and one primary-key read per poll, whatever the token rate; no write
for the stream when no token came since the last one."""

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
        write_every_s: float | None = None,
        poll_every_s: float = POLL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._renew, self._stop_requested, self._clock = renew, stop_requested, clock
        self.renew_every_s, self.poll_every_s = renew_every_s, poll_every_s
        self.write_every_s = write_every_s  # None: the stream is saved only with the renewals
        start = clock()
        self._next_renew = start + renew_every_s
        self._next_write = start + (write_every_s or 0.0)
        self._next_poll = start + poll_every_s
        self._unsaved = False  # tokens came since the last save
        self.renewals = 0  # saves made because the heartbeat was due
        self.writes = 0  # saves made earlier, for new tokens
        self.polls = 0

    def _write_due(self, now: float) -> bool:
        return self.write_every_s is not None and self._unsaved and now >= self._next_write

    def tick(self, before_renew: Callable[[], None] | None = None, grown: bool = False) -> bool:
        """Save and poll when due (``before_renew`` first brings the turn up to date; ``grown``: this
        tick brings new tokens); True when a Stop was requested (the run then stops the usual way)."""
        now = self._clock()
        self._unsaved = self._unsaved or grown
        renew_due = now >= self._next_renew
        if renew_due or self._write_due(now):
            self._next_renew = now + self.renew_every_s
            self._next_write = now + (self.write_every_s or 0.0)
            self._unsaved = False
            if renew_due:
                self.renewals += 1
            else:
                self.writes += 1
            if before_renew is not None:
                before_renew()
            self._renew()
        if now >= self._next_poll:
            self._next_poll = now + self.poll_every_s
            self.polls += 1
            return self._stop_requested()
        return False
