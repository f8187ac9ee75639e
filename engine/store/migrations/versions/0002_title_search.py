"""Title search without case or accents, and a newest-first index per user.

Adds ``conversations.title_search`` (the title folded to lower case without accents),
fills it for every existing conversation, and replaces the per-user index with one on
``(user_id, updated_at)`` that serves the newest-first list.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _fold(text: str) -> str:
    # A copy of engine.store.inputs.fold as it was when this revision was written: a
    # migration must keep producing the same result whatever the code becomes.
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def upgrade() -> None:
    with op.batch_alter_table("conversations") as batch:
        batch.add_column(sa.Column("title_search", sa.String(200), nullable=False, server_default=""))
    conversations = sa.table("conversations", sa.column("id", sa.String), sa.column("title", sa.String))
    bind = op.get_bind()
    rows = bind.execute(sa.select(conversations.c.id, conversations.c.title)).all()
    update = sa.text("UPDATE conversations SET title_search = :folded WHERE id = :id")
    for start in range(0, len(rows), 1000):
        chunk = rows[start : start + 1000]
        bind.execute(update, [{"id": row.id, "folded": _fold(row.title or "")} for row in chunk])
    op.drop_index("ix_conversations_user", table_name="conversations")
    op.create_index("ix_conversations_user_updated", "conversations", ["user_id", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_conversations_user_updated", table_name="conversations")
    op.create_index("ix_conversations_user", "conversations", ["user_id"])
    with op.batch_alter_table("conversations") as batch:
        batch.drop_column("title_search")
