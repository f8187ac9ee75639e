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
    with op.batch_alter_table("turns") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(120), nullable=True))
        batch.add_column(sa.Column("heartbeat_at", sa.DateTime, nullable=True))
        batch.add_column(sa.Column("stop_requested", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("stop_requested")
        batch.drop_column("heartbeat_at")
        batch.drop_column("lease_owner")
