"""One turn on the page, live or replayed: the trace and answer (one tracer), the
grounding, an inline question, the footer, the answer's rating, and the actions of the
latest turns (copy an answer, regenerate it, edit and resend the question)."""

from __future__ import annotations

import streamlit as st

from components.cautions import beside_trace, stored_cautions
from components.feedback import Rater, feedback_bar
from components.grounding_view import annotator, grounding_widgets
from components.i18n import money, number, plural, t
from components.inert import inert
from components.live_elsewhere import Stopper, live_elsewhere
from components.render import draw
from components.state import Conversation, Preferences, Turn
from components.tracer import StreamlitChatTracer

PENDING_REPLY = "pending_reply"
REGENERATE = "regenerate"
EDITED = "edited_question"


def tracer_for(turn: Turn, settings: Preferences) -> StreamlitChatTracer:
    """The one renderer of a turn, live or replayed: same widgets, same keys."""
    lang = settings.language
    return StreamlitChatTracer(
        st.container(),
        lang=lang,
        show_trace=settings.show_thoughts,
        key=turn.id,
        annotate=annotator(turn.answer, turn.grounding, lang, turn.id),
    )


def render_footer(turn: Turn, lang: str, stop: Stopper | None = None) -> None:
    if turn.live and turn.status == "running":
        live_elsewhere(turn, lang, stop)
        return
    if turn.status == "stopped":
        st.caption(f":material/stop_circle: {t('stopped', lang)}")
    if turn.status == "interrupted":
        st.caption(f":material/report: {t('interrupted', lang)}")
    if turn.status == "running":
        return
    unsupported = len(turn.grounding.unsupported) if turn.grounding else 0
    flagged = f" · :orange[{plural('unsupported', unsupported, lang)}]" if unsupported else ""
    cost = f" · {money(turn.cost, lang)}" if turn.cost is not None else ""
    st.caption(
        f"{plural('step', turn.iterations, lang)} · {number(turn.tokens, lang)} {t('tokens', lang)}{cost} · "
        f"{number(turn.elapsed, lang, 1)} s · {turn.backend}{flagged}"
    )


def _set(key: str, value: object) -> None:
    st.session_state[key] = value


def _submit_typed(source_key: str, target_key: str) -> None:
    text = (st.session_state.get(source_key) or "").strip()
    if text:
        st.session_state[target_key] = text


def render_question(turn: Turn, conversation: Conversation, lang: str) -> None:
    """The agent's question inside its turn: choice buttons, or a free-text field, while it waits."""
    suspended = turn.suspended
    if suspended is None:
        return
    st.info(f"**{t('question_for_you', lang)}:** {inert(suspended.question)}", icon=":material/help:")
    if turn is not conversation.pending:
        return
    if suspended.choices:
        columns = st.columns(min(len(suspended.choices), 4))
        for i, choice in enumerate(suspended.choices):
            columns[i % len(columns)].button(
                inert(choice), key=f"choice-{turn.id}-{i}", on_click=_set, args=(PENDING_REPLY, choice), width="stretch"
            )
    key = f"reply-{turn.id}"
    with st.form(f"form-{turn.id}", clear_on_submit=True, border=False):
        st.text_input(t("your_answer", lang), key=key)
        st.form_submit_button(t("send", lang), on_click=_submit_typed, args=(key, PENDING_REPLY))


def _answer_actions(turn: Turn, last: bool, lang: str, rate: Rater | None) -> None:
    if not turn.answer:
        return
    columns = st.columns([1, 1, 1.2, 1, 5.8], gap="small")
    with columns[0].popover(":material/content_copy:", help=t("copy_answer", lang)):
        st.caption(t("copy_hint", lang))
        st.code(turn.answer, language="markdown", wrap_lines=True)
    if last:
        columns[1].button(
            ":material/refresh:",
            key=f"regen-{turn.id}",
            help=t("regenerate", lang),
            on_click=_set,
            args=(REGENERATE, True),
        )
    if rate is not None:
        feedback_bar(turn, rate, lang, columns[2:4])


def _question_actions(turn: Turn, lang: str) -> None:
    key = f"edit-{turn.id}"
    with st.popover(":material/edit:", help=t("edit_question", lang)):
        st.text_area(t("edit_question", lang), value=turn.content, key=key, label_visibility="collapsed")
        st.button(
            t("resend", lang),
            icon=":material/send:",
            key=f"resend-{turn.id}",
            on_click=_submit_typed,
            args=(key, EDITED),
        )


def render_turn(
    turn: Turn,
    conversation: Conversation,
    settings: Preferences,
    *,
    last: bool = False,
    rate: Rater | None = None,
    stop: Stopper | None = None,
) -> None:
    lang = settings.language
    if turn.role == "user":
        st.markdown(inert(turn.content))
        if last:
            _question_actions(turn, lang)
        return
    tracer_for(turn, settings).replay(turn.content)
    cautions = stored_cautions(turn)
    if cautions is not None and settings.show_thoughts:  # the trace shows some as Warning blocks already
        cautions = beside_trace(turn, cautions)
    draw(grounding_widgets(turn.grounding, lang, cautions, turn.id))
    render_question(turn, conversation, lang)
    render_footer(turn, lang, stop)
    if turn.status in ("answered", "error", "stopped", "interrupted"):
        _answer_actions(turn, last, lang, rate)
