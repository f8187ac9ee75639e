"""The turns' parent links in SQL: a new turn's default parent, and the check that a parent belongs."""

from __future__ import annotations

import sqlalchemy as sa

from engine.store.errors import BadInput
from engine.store.schema import conversations, turns

BAD_PARENT = "A turn's parent is the id of a turn of the same conversation."


def last_turn() -> sa.ScalarSelect:
    """The conversation's last turn (correlated with the conversation row): the parent of a turn that names none."""
    t = turns.c
    return (
        sa.select(t.id).where(t.conversation_id == conversations.c.id).order_by(t.seq.desc()).limit(1).scalar_subquery()
    )


def check(conn: sa.Connection, conversation_id: str, parent_id: str, owned: sa.ColumnElement[bool]) -> None:
    """``BadInput`` unless ``parent_id`` is a turn of this conversation, which ``owned`` accepts (the user's)."""
    t = turns.c
    known = conn.execute(
        sa.select(t.id)
        .join(conversations, conversations.c.id == t.conversation_id)
        .where(t.conversation_id == conversation_id, t.id == parent_id, owned)
    ).scalar()
    if known is None:  # a turn of another conversation, anyone's, is no parent here
        raise BadInput(BAD_PARENT)
