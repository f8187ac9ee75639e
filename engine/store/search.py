"""Full-text search over the turns' text (the ``turn_search`` table of revision 0003):
the query that finds conversations by their words, and keeping a turn's text in step."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

import engine.store.inputs as inputs
from engine.store.schema import conversations, turn_search


def searched(query: sa.Select, search: str | None, dialect: str) -> sa.Select:
    """``query`` of conversations, kept to those whose title holds ``search`` (anywhere, no case,
    no accents) or whose turns hold its every word; only its letters and digits reach the
    full-text query, so no text is ever a syntax error there."""
    if not search or not inputs.one_line(search):
        return query
    c = conversations.c
    found = c.title_search.like(inputs.like_pattern(search), escape="\\")
    words = inputs.search_words(search)
    if words:
        found = sa.or_(found, c.id.in_(text_matches(dialect, words)))
    return query.where(found)


def text_matches(dialect: str, words: list[str]) -> sa.Select:
    """The conversations with a turn holding every word (each also as a prefix): FTS5, or PostgreSQL's tsvector."""
    s = turn_search.c
    if dialect == "sqlite":
        match = sa.text("turn_search MATCH :fts").bindparams(fts=" ".join(f'"{w}"*' for w in words))
    else:
        tsquery = sa.func.to_tsquery("simple", " & ".join(f"{w}:*" for w in words))
        match = sa.func.to_tsvector("simple", s.body).op("@@")(tsquery)
    return sa.select(s.conversation_id).where(match)


def index_turn(conn: sa.Connection, conversation_id: str, data: dict[str, Any]) -> None:
    """Keep the turn's searchable text in step with the turn, in the caller's transaction."""
    s = turn_search.c
    conn.execute(turn_search.delete().where(s.conversation_id == conversation_id, s.turn_id == data["id"]))
    body = inputs.searchable_text(data)
    if body:
        conn.execute(turn_search.insert().values(conversation_id=conversation_id, turn_id=data["id"], body=body))
