"""Full-text search over the turns' text: SQLite FTS5, PostgreSQL tsvector.

Adds ``turn_search(conversation_id, turn_id, body)``: one row per turn that has text
(the question, or the answer), the text folded to lower case without accents. In
SQLite it is an FTS5 table; in PostgreSQL a table with a GIN index on
``to_tsvector('simple', body)`` (``simple``: no stemming, the same for English and
French). Existing turns are indexed here; the repository keeps it in step on every
turn write and delete.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
import re
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _fold(text: str) -> str:
    # A copy of engine.store.inputs.fold as it was when this revision was written.
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _body(data: object) -> str:
    # A copy of engine.store.inputs.searchable_text as it was when this revision was written.
    if isinstance(data, str):
        data = json.loads(data)
    if not isinstance(data, dict) or data.get("status") == "replaced":
        return ""
    text = data.get("content") if data.get("role") == "user" else data.get("answer")
    if not isinstance(text, str):
        return ""
    return _fold(re.sub(r"\s+", " ", re.sub(r"[\x00-\x1f\x7f]", " ", text)).strip())


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        op.execute(
            "CREATE VIRTUAL TABLE turn_search USING fts5("
            "conversation_id UNINDEXED, turn_id UNINDEXED, body, tokenize = 'unicode61 remove_diacritics 2')"
        )
    else:
        op.create_table(
            "turn_search",
            sa.Column(
                "conversation_id",
                sa.String(64),
                sa.ForeignKey("conversations.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("turn_id", sa.String(64), primary_key=True),
            sa.Column("body", sa.Text, nullable=False),
        )
        op.execute("CREATE INDEX ix_turn_search_body ON turn_search USING gin (to_tsvector('simple', body))")
    rows = bind.execute(sa.text("SELECT conversation_id, id, data FROM turns")).all()
    insert = sa.text("INSERT INTO turn_search (conversation_id, turn_id, body) VALUES (:c, :t, :b)")
    values = [{"c": r.conversation_id, "t": r.id, "b": body} for r in rows if (body := _body(r.data))]
    for start in range(0, len(values), 1000):
        bind.execute(insert, values[start : start + 1000])


def downgrade() -> None:
    op.drop_table("turn_search")
