"""Leases on running turns: who runs a turn, when it last said so, and a stop asked of it.

Adds to ``turns``: ``lease_owner`` (the app server running the turn), ``heartbeat_at``
(when it last saved the running turn) and ``stop_requested`` (a Stop from any tab or
server, which the owner polls). Existing turns keep their rows; none has a lease, so a
turn left ``running`` by an older version shows as interrupted, as it did before.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no batch copy of the table): the rows, their feedback and their search entries stay put.
    op.add_column("turns", sa.Column("lease_owner", sa.String(120), nullable=True))
    op.add_column("turns", sa.Column("heartbeat_at", sa.DateTime, nullable=True))
    op.add_column("turns", sa.Column("stop_requested", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    # ALTER TABLE … DROP COLUMN in both dialects (SQLite 3.35+): a batch copy of ``turns``
    # would drop and recreate the table, and the feedback rows would go with it (ON DELETE CASCADE).
    for column in ("stop_requested", "heartbeat_at", "lease_owner"):
        op.execute(f"ALTER TABLE turns DROP COLUMN {column}")
