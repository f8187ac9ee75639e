"""One turn on the page, live or replayed: the trace and answer (one tracer), the
grounding, an inline question, the footer, the answer's rating, the versions of a turn
(‹ 2/3 ›: its edits or regenerates, switched without re-running), and the actions
(copy an answer, fork the branch down to it; regenerate the last answer, edit and resend
the last question)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from components.cautions import beside_trace, stored_cautions
from components.conversations import set_url_branch
from components.feedback import Rater, feedback_bar
from components.grounding_view import annotator, grounding_widgets
from components.i18n import money, number, plural, t
from components.inert import inert
from components.live_elsewhere import Stopper, live_elsewhere
from components.live_follow import Reader, follow_live
from components.render import draw
from components.state import Conversation, Preferences, Turn
from components.tracer import StreamlitChatTracer
from engine.settings import current

Forker = Callable[[Turn], None]

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


def branch_switcher(turn: Turn, conversation: Conversation, lang: str) -> None:
    """‹ n/N › on a turn that has other versions; a click shows another branch (the URL names it), nothing re-runs."""
    versions = conversation.siblings(turn)
    if len(versions) < 2:
        return
    n = next(i for i, version in enumerate(versions) if version.id == turn.id)
    row = st.container(horizontal=True, vertical_alignment="center", gap="small", key=f"branches-{turn.id}")
    row.button(
        "‹",
        key=f"branch-prev-{turn.id}",
        help=t("branch_previous", lang),
        type="tertiary",
        disabled=n == 0,
        on_click=set_url_branch,
        args=(versions[n - 1].id,),
    )
    row.caption(f"{n + 1}/{len(versions)}", width="content")
    row.button(
        "›",
        key=f"branch-next-{turn.id}",
        help=t("branch_next", lang),
        type="tertiary",
        disabled=n == len(versions) - 1,
        on_click=set_url_branch,
        args=(versions[min(n + 1, len(versions) - 1)].id,),
    )


def _answer_actions(turn: Turn, last: bool, lang: str, rate: Rater | None, fork: Forker | None) -> None:
    if not turn.answer:
        return
    columns = st.columns([1, 1, 1, 1.2, 1, 4.8], gap="small")
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
    if fork is not None:
        columns[2].button(
            ":material/fork_right:", key=f"fork-{turn.id}", help=t("fork", lang), on_click=fork, args=(turn,)
        )
    if rate is not None:
        feedback_bar(turn, rate, lang, columns[3:5])


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


def render_followed(
    turn: Turn,
    conversation: Conversation,
    settings: Preferences,
    follow: Reader,
    stop: Stopper | None,
    after: Callable[[Turn], None],
) -> None:
    """A turn another session or server runs, in its own bubble, redrawn live from the store
    (``follow`` reads it again), with what ``after`` draws below it (its follow-ups)."""
    replay = lambda live: tracer_for(live, settings).replay(live.content)  # noqa: E731 - the one tracer
    follow_live(turn, settings.language, follow, replay, stop, current().live_follow_s, after)
    branch_switcher(turn, conversation, settings.language)


def render_turn(
    turn: Turn,
    conversation: Conversation,
    settings: Preferences,
    *,
    last: bool = False,
    rate: Rater | None = None,
    stop: Stopper | None = None,
    fork: Forker | None = None,
) -> None:
    lang = settings.language
    if turn.role == "user":
        st.markdown(inert(turn.content))
        branch_switcher(turn, conversation, lang)
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
    branch_switcher(turn, conversation, lang)
    if turn.status in ("answered", "error", "stopped", "interrupted"):
        _answer_actions(turn, last, lang, rate, fork)
