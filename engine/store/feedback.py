"""The feedback table's queries, run by ``ConversationStore`` inside its own transactions.

A rating is keyed by (conversation, turn, user). The repository checks that the
conversation is the user's before it calls these; each query is filtered by the user
as well, so a rating is never read or written across users even when called directly.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from engine.store.errors import BadInput, NotFound
from engine.store.models import Feedback, RatedTurn
from engine.store.schema import conversations, feedback, turns


def _feedback(row: sa.Row) -> Feedback:
    return Feedback(rating=row.rating, comment=row.comment, updated_at=row.updated_at.replace(tzinfo=UTC))


def check_answer(conn: sa.Connection, conversation_id: str, turn_id: str, owned: sa.ColumnElement[bool]) -> None:
    """``NotFound`` unless the turn is in a conversation ``owned`` accepts (the user's); ``BadInput`` unless an answer."""
    role = conn.execute(
        sa.select(turns.c.role)
        .join(conversations, conversations.c.id == turns.c.conversation_id)
        .where(turns.c.conversation_id == conversation_id, turns.c.id == turn_id, owned)
    ).scalar()
    if role is None:  # no such turn, or not this user's conversation: the same answer
        raise NotFound(conversation_id)
    if role != "assistant":
        raise BadInput("Only an answer can be rated.")


def write(
    conn: sa.Connection,
    insert: Callable[..., Any],
    key: dict[str, Any],
    rating: str | None,
    comment: str,
    now: datetime,
) -> None:
    """Set (upsert) or, with no rating, clear the rating ``key`` names (conversation_id, turn_id, user_id)."""
    f = feedback.c
    if rating is None:
        conn.execute(
            feedback.delete().where(
                f.conversation_id == key["conversation_id"], f.turn_id == key["turn_id"], f.user_id == key["user_id"]
            )
        )
        return
    values = {"rating": rating, "comment": comment, "updated_at": now}
    stmt = insert(feedback).values(**key, **values)
    conn.execute(stmt.on_conflict_do_update(index_elements=["conversation_id", "turn_id", "user_id"], set_=values))


def of_conversation(conn: sa.Connection, conversation_id: str, user_id: int | None) -> dict[str, Feedback]:
    """The user's ratings in one conversation, by turn id."""
    if user_id is None:
        return {}
    f = feedback.c
    rows = conn.execute(
        sa.select(f.turn_id, f.rating, f.comment, f.updated_at).where(
            f.conversation_id == conversation_id, f.user_id == user_id
        )
    ).all()
    return {row.turn_id: _feedback(row) for row in rows}


def rated(conn: sa.Connection, user_id: int | None, rating: str | None = None) -> list[RatedTurn]:
    """The user's rated answers, oldest rating first, each with the question it answered.

    The question is the answer's parent when it is a question (the branch it is on),
    else the nearest question before it: a regenerated answer keeps the question it answered.
    """
    if user_id is None:
        return []
    f, t, c = feedback.c, turns.c, conversations.c
    query = (
        sa.select(
            f.conversation_id,
            f.rating,
            f.comment,
            f.updated_at,
            t.seq,
            t.data,
            t.parent_id,
            c.title,
            c.theme,
            c.settings,
        )
        .join(turns, sa.and_(t.conversation_id == f.conversation_id, t.id == f.turn_id))
        .join(conversations, c.id == f.conversation_id)
        .where(f.user_id == user_id, c.user_id == user_id)
        .order_by(f.updated_at, f.conversation_id, f.turn_id)
    )
    if rating is not None:
        query = query.where(f.rating == rating)
    rows = conn.execute(query).all()
    questions: dict[str, tuple[list[int], list[str]]] = {}
    by_id: dict[tuple[str, str], str] = {}
    ids = sorted({row.conversation_id for row in rows})
    for start in range(0, len(ids), 500):
        asked = conn.execute(
            sa.select(t.conversation_id, t.id, t.seq, t.data)
            .where(t.conversation_id.in_(ids[start : start + 500]), t.role == "user")
            .order_by(t.conversation_id, t.seq)
        ).all()
        for row in asked:
            seqs, texts = questions.setdefault(row.conversation_id, ([], []))
            seqs.append(row.seq)
            texts.append(str(dict(row.data).get("content", "")))
            by_id[(row.conversation_id, row.id)] = texts[-1]
    out = []
    for row in rows:
        seqs, texts = questions.get(row.conversation_id, ([], []))
        before = bisect.bisect_left(seqs, row.seq) - 1
        nearest = texts[before] if before >= 0 else ""
        out.append(
            RatedTurn(
                conversation_id=row.conversation_id,
                title=row.title,
                theme=row.theme,
                settings=row.settings or {},
                question=by_id.get((row.conversation_id, row.parent_id or ""), nearest),
                turn=dict(row.data),
                feedback=_feedback(row),
            )
        )
    return out
