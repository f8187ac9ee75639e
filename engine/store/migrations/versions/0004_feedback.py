"""Feedback on answers: a rating (up or down) and a comment, per user and turn.

Adds ``feedback(conversation_id, turn_id, user_id, rating, comment, updated_at)``, keyed
by the turn and the user, removed with its turn (or its user), and an index on
``(user_id, updated_at)`` that serves a user's rated answers in order. Existing turns
are not touched: none of them has a rating yet.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "feedback",
        sa.Column("conversation_id", sa.String(64), primary_key=True),
        sa.Column("turn_id", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rating", sa.String(8), nullable=False),
        sa.Column("comment", sa.Text, nullable=False, server_default=""),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.ForeignKeyConstraint(
            ["conversation_id", "turn_id"], ["turns.conversation_id", "turns.id"], ondelete="CASCADE"
        ),
        sa.CheckConstraint("rating IN ('up', 'down')", name="ck_feedback_rating"),
    )
    op.create_index("ix_feedback_user_updated", "feedback", ["user_id", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_feedback_user_updated", table_name="feedback")
    op.drop_table("feedback")
