"""Branches, not overwrites: each turn names its parent, and set-aside turns become branches.

Adds ``turns.parent_id`` (None for a conversation's first turn). Before this revision an
edited question or a regenerated answer set the old turns aside (status ``replaced``,
hidden). Each conversation's tree is rebuilt from its turns in order: a turn's parent
is the last turn of the branch then on show, after the turns set aside before the turn
was written have left it (a set-aside turn's ``updated_at`` is when it was set aside).
A set-aside turn gets back a status it can be shown with (``answered``, or ``error`` /
``stopped`` for an answer that has none) and its text is indexed for full-text search.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _fold(text: str) -> str:
    # A copy of engine.store.inputs.fold as it was when this revision was written.
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _body(data: dict[str, Any]) -> str:
    # A copy of engine.store.inputs.searchable_text as it was when this revision was written.
    text = data.get("content") if data.get("role") == "user" else data.get("answer")
    if not isinstance(text, str):
        return ""
    return _fold(re.sub(r"\s+", " ", re.sub(r"[\x00-\x1f\x7f]", " ", text)).strip())


def _restored(data: dict[str, Any]) -> str:
    """The status a set-aside turn is shown with (the one it had before is not known)."""
    if data.get("role") == "user" or data.get("answer"):
        return "answered"
    return "error" if data.get("error") else "stopped"


def _parents(rows: list[sa.Row]) -> dict[str, str | None]:
    """Each turn's parent, from the turns of one conversation in the order they were written."""
    path: list[sa.Row] = []
    out: dict[str, str | None] = {}
    for row in rows:
        while path and path[-1].status == "replaced" and path[-1].updated_at <= row.created_at:
            path.pop()  # set aside before this turn was written: not on the branch it continues
        out[row.id] = path[-1].id if path else None
        path.append(row)
    return out


def upgrade() -> None:
    op.add_column("turns", sa.Column("parent_id", sa.String(64), nullable=True))  # no table rebuild in SQLite
    op.create_index("ix_turns_parent", "turns", ["conversation_id", "parent_id"])
    bind = op.get_bind()
    ids = [row[0] for row in bind.execute(sa.text("SELECT DISTINCT conversation_id FROM turns")).all()]
    set_parent = sa.text("UPDATE turns SET parent_id = :p WHERE conversation_id = :c AND id = :t")
    restore = sa.text("UPDATE turns SET status = :s, data = :d WHERE conversation_id = :c AND id = :t").bindparams(
        sa.bindparam("d", type_=sa.JSON)
    )
    index = sa.text("INSERT INTO turn_search (conversation_id, turn_id, body) VALUES (:c, :t, :b)")
    for conversation_id in ids:
        rows = bind.execute(
            sa.text(
                "SELECT id, status, created_at, updated_at, data FROM turns "
                "WHERE conversation_id = :c ORDER BY seq, created_at, id"
            ).columns(created_at=sa.DateTime, updated_at=sa.DateTime, data=sa.JSON),
            {"c": conversation_id},
        ).all()
        parents = [{"c": conversation_id, "t": turn_id, "p": parent} for turn_id, parent in _parents(rows).items()]
        if any(p["p"] is not None for p in parents):
            bind.execute(set_parent, [p for p in parents if p["p"] is not None])
        for row in rows:
            if row.status != "replaced":
                continue
            data = json.loads(row.data) if isinstance(row.data, str) else dict(row.data)
            data["status"] = _restored(data)
            bind.execute(restore, {"s": data["status"], "d": data, "c": conversation_id, "t": row.id})
            if body := _body(data):
                bind.execute(index, {"c": conversation_id, "t": row.id, "b": body})


def downgrade() -> None:
    op.drop_index("ix_turns_parent", table_name="turns")
    # ALTER TABLE … DROP COLUMN in both dialects: a batch copy of ``turns`` would recreate the
    # table, and the feedback rows would go with it (ON DELETE CASCADE).
    op.execute("ALTER TABLE turns DROP COLUMN parent_id")
