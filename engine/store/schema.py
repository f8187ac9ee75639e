"""The tables as the newest migration leaves them (SQLAlchemy Core), for the repository's queries.

The migrations in ``migrations/versions`` are what create and change them; keep the two in step.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("created_at", sa.DateTime, nullable=False),
)

conversations = sa.Table(
    "conversations",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("title", sa.String(200), nullable=False, server_default=""),
    sa.Column("title_search", sa.String(200), nullable=False, server_default=""),
    sa.Column("theme", sa.String(100)),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("updated_at", sa.DateTime, nullable=False),
)

turns = sa.Table(
    "turns",
    metadata,
    sa.Column(
        "conversation_id",
        sa.String(64),
        sa.ForeignKey("conversations.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("role", sa.String(20), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("updated_at", sa.DateTime, nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    # The lease of a running turn (revision 0005): its owner, its last heartbeat, a stop asked of it.
    sa.Column("lease_owner", sa.String(120)),
    sa.Column("heartbeat_at", sa.DateTime),
    sa.Column("stop_requested", sa.Boolean, nullable=False, server_default=sa.false()),
    # the turn this one follows (revision 0006): None for the first; an edit or a regenerate is a sibling
    sa.Column("parent_id", sa.String(64)),
    sa.Index("ix_turns_parent", "conversation_id", "parent_id"),
)

# Full-text search over the turns' text (revision 0003): an FTS5 table in SQLite, a
# table with a GIN tsvector index in PostgreSQL; the same three columns in both.
turn_search = sa.Table(
    "turn_search",
    metadata,
    sa.Column("conversation_id", sa.String(64), primary_key=True),
    sa.Column("turn_id", sa.String(64), primary_key=True),
    sa.Column("body", sa.Text, nullable=False),
)

# A user's rating of an answer (revision 0004): beside the turn, so saving the turn again
# never changes it, and a user's rated answers are one indexed query.
feedback = sa.Table(
    "feedback",
    metadata,
    sa.Column("conversation_id", sa.String(64), primary_key=True),
    sa.Column("turn_id", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("rating", sa.String(8), nullable=False),
    sa.Column("comment", sa.Text, nullable=False, server_default=""),
    sa.Column("updated_at", sa.DateTime, nullable=False),
    sa.ForeignKeyConstraint(["conversation_id", "turn_id"], ["turns.conversation_id", "turns.id"], ondelete="CASCADE"),
    sa.CheckConstraint("rating IN ('up', 'down')", name="ck_feedback_rating"),
)
