"""Thumbs up or down under an answer, and an optional comment, saved for this user.

Clicking the selected thumb again clears the rating. A comment needs a rating and has
a bounded length; a comment refused says why in one sentence and stays in its box, so
nothing typed is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

import streamlit as st

from components.i18n import number, t
from components.inert import inert
from components.state import Turn
from engine.store.errors import StoreError
from engine.store.inputs import MAX_COMMENT_CHARS
from engine.store.models import Feedback

Rater = Callable[[Turn, str | None, str], None]  # stores (turn, rating or None, comment); raises StoreError
RATING_OF = MappingProxyType({1: "up", 0: "down"})  # st.feedback("thumbs"): 0 is the thumb down, 1 the thumb up
INDEX_OF = MappingProxyType({rating: index for index, rating in RATING_OF.items()})


def thumbs_key(turn: Turn) -> str:
    return f"thumbs-{turn.id}"


def comment_key(turn: Turn) -> str:
    return f"feedback-comment-{turn.id}"


def _problem_key(turn: Turn) -> str:
    return f"feedback-problem-{turn.id}"


def _apply(turn: Turn, rating: str | None, comment: str, rate: Rater, lang: str) -> None:
    """Check, store, and keep on the turn; or leave one sentence saying why not."""
    comment = comment.strip()
    st.session_state.pop(_problem_key(turn), None)
    if rating is None and comment:
        problem = t("feedback_rate_first", lang)
    elif len(comment) > MAX_COMMENT_CHARS:
        problem = t("feedback_too_long", lang, limit=number(MAX_COMMENT_CHARS, lang), count=number(len(comment), lang))
    else:
        try:
            rate(turn, rating, comment)
        except StoreError as exc:
            problem = str(exc)
        else:
            turn.feedback = Feedback(rating=rating, comment=comment) if rating else None
            return
    st.session_state[_problem_key(turn)] = problem


def _on_thumbs(turn: Turn, rate: Rater, lang: str) -> None:
    rating = RATING_OF.get(st.session_state.get(thumbs_key(turn)))
    kept = turn.feedback.comment if turn.feedback is not None and rating is not None else ""
    _apply(turn, rating, kept, rate, lang)


def _on_comment(turn: Turn, rate: Rater, lang: str) -> None:
    rating = turn.feedback.rating if turn.feedback is not None else None
    _apply(turn, rating, st.session_state.get(comment_key(turn)) or "", rate, lang)


def feedback_bar(turn: Turn, rate: Rater, lang: str, columns: list) -> None:
    """The thumbs in ``columns[0]``, the comment box (a popover) in ``columns[1]``, a refusal below."""
    rated = turn.feedback
    with columns[0]:
        st.feedback(
            "thumbs",
            key=thumbs_key(turn),
            default=INDEX_OF[rated.rating] if rated is not None else None,
            on_change=_on_thumbs,
            args=(turn, rate, lang),
        )
    icon = ":material/chat:" if rated is not None and rated.comment else ":material/add_comment:"
    with columns[1].popover(icon, help=t("feedback_comment", lang)):
        with st.form(f"feedback-form-{turn.id}", border=False):
            st.text_area(
                t("feedback_comment_label", lang, limit=number(MAX_COMMENT_CHARS, lang)),
                value=rated.comment if rated is not None else "",
                key=comment_key(turn),
            )
            st.form_submit_button(t("feedback_save", lang), on_click=_on_comment, args=(turn, rate, lang))
    problem = st.session_state.get(_problem_key(turn))
    if problem:
        st.warning(inert(problem), icon=":material/rate_review:")
