"""Leases of running turns: which app server runs a turn, and whether it still does.

A turn saved ``running`` carries its owner (the saving store's ``owner_id()``) and a
heartbeat (when it was saved). The owner saves it again at least every
``renew_every(lease_s)`` while the run goes. Any other store (another tab's server,
another app server) shows it running while its heartbeat is younger than the lease,
and interrupted once the lease has expired: the owner died or lost the database. A
store shows a turn it owns but no longer runs as interrupted at once.

Times are the app servers' UTC clocks; a team's servers keep them in step (NTP), well
within a lease. A Stop from any tab or server sets ``stop_requested`` on the row (only
on a running turn of the asking user's conversation); the owner polls it, one
primary-key read at most every ``POLL_S``, and stops its run the existing way.
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa

from engine.store.schema import conversations, turns

POLL_S = 1.0  # how often a run asks the store whether a Stop was requested


def owner_id() -> str:
    """A name for one store in one process: host, pid and a random part (a restarted pid is another owner)."""
    return f"{socket.gethostname()[:80]}:{os.getpid()}:{secrets.token_hex(4)}"


def renew_every(lease_s: float) -> float:
    """Seconds between two heartbeats of a running turn: a third of the lease, at most 5 s."""
    return max(0.05, min(5.0, lease_s / 3))


@dataclass(frozen=True)
class LeaseView:
    """What a store knows when it reads turns: itself, the turns it runs now, the lease, the time."""

    owner: str
    running_here: frozenset[str]
    lease_s: float
    now: datetime

    @property
    def cutoff(self) -> datetime:
        return self.now - timedelta(seconds=self.lease_s)

    def shown(self, turn_id: str, status: str, owner: str | None, heartbeat_at: datetime | None) -> tuple[str, bool]:
        """The status to show for a stored turn, and whether it is a live run (here or elsewhere)."""
        if status != "running":
            return status, False
        if turn_id in self.running_here:
            return "running", True
        if owner == self.owner or heartbeat_at is None or heartbeat_at < self.cutoff:
            return "interrupted", False
        return "running", True

    def expired(self) -> sa.ColumnElement[bool]:
        """SQL condition: a ``running`` row whose run is over (what ``shown`` calls interrupted)."""
        t = turns.c
        mine_not_running = sa.and_(t.lease_owner == self.owner, t.id.not_in(sorted(self.running_here)))
        return sa.and_(
            t.status == "running",
            sa.or_(t.heartbeat_at.is_(None), t.heartbeat_at < self.cutoff, mine_not_running),
        )


def turn_columns() -> tuple[sa.Column[Any], ...]:
    """What a page reads of a stored turn (``shown_turn`` makes it the turn shown)."""
    return tuple(turns.c[name] for name in ("id", "status", "data", "parent_id", "lease_owner", "heartbeat_at"))


def shown_turn(row: sa.Row, view: LeaseView) -> dict[str, Any]:
    """A stored turn as a page shows it: its status by the lease, and ``live`` (never saved back) while a run goes on."""
    data = dict(row.data)
    data["status"], live = view.shown(row.id, row.status, row.lease_owner, row.heartbeat_at)
    if live:
        data["live"] = True
    data["parent_id"] = row.parent_id
    return data


def read_turn(
    conn: sa.Connection, conversation_id: str, turn_id: str, owned: sa.ColumnElement[bool], view: LeaseView
) -> dict[str, Any] | None:
    """One turn of a conversation ``owned`` selects, as ``shown_turn`` shows it: a primary-key read."""
    row = conn.execute(sa.select(*turn_columns()).where(_turn(conversation_id, turn_id, owned))).first()
    return shown_turn(row, view) if row is not None else None


def mark_expired(conn: sa.Connection, conversation_id: str, shown: list[dict[str, Any]], view: LeaseView) -> list[str]:
    """Record as ``interrupted`` the turns ``shown`` so whose rows are still expired (a heartbeat since counts)."""
    marked = []
    for turn in shown:
        if turn["status"] != "interrupted":
            continue
        where = sa.and_(turns.c.conversation_id == conversation_id, turns.c.id == turn["id"], view.expired())
        if conn.execute(turns.update().where(where).values(status="interrupted", data=turn)).rowcount:
            marked.append(turn["id"])
    return marked


def _turn(conversation_id: str, turn_id: str, owned: sa.ColumnElement[bool]) -> sa.ColumnElement[bool]:
    """SQL condition: the turn ``turn_id`` of ``conversation_id``, in a conversation ``owned`` selects."""
    mine = sa.select(conversations.c.id).where(conversations.c.id == conversation_id, owned)
    return sa.and_(turns.c.conversation_id.in_(mine), turns.c.id == turn_id)


def request_stop(conn: sa.Connection, conversation_id: str, turn_id: str, owned: sa.ColumnElement[bool]) -> bool:
    """Ask the owner of a running turn to stop it; False when no such running turn is the user's."""
    where = sa.and_(_turn(conversation_id, turn_id, owned), turns.c.status == "running")
    return bool(conn.execute(turns.update().where(where).values(stop_requested=True)).rowcount)


def stop_requested(conn: sa.Connection, conversation_id: str, turn_id: str, owned: sa.ColumnElement[bool]) -> bool:
    """True once a Stop was requested for this turn of the user's conversation."""
    query = sa.select(turns.c.stop_requested).where(_turn(conversation_id, turn_id, owned))
    return bool(conn.execute(query).scalar())
