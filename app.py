"""The analyst chat page: a live ReAct trace, inline questions, Stop, export.

All conversation state lives in ``st.session_state`` (typed models in
``components/state.py``). Every turn builds a fresh engine, gives it the history,
and streams; every rerun redraws every past turn from its stored stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import streamlit as st

from components.app_context import engine_context
from components.export import to_json, to_markdown
from components.grounding_view import annotator, grounding_widgets
from components.i18n import plural, t
from components.render import draw
from components.state import Conversation, Settings, Turn, session
from components.tracer import StreamlitChatTracer
from components.turn_runner import consume
from engine.react.run_state import EngineResult

HEARTBEAT_S = 0.3  # how soon a Stop is noticed while a tool runs
st.set_page_config(page_title="ReAct analyst", page_icon=":material/query_stats:", layout="centered")
conversation, settings = session()
lang = settings.language


def backend_label() -> str:
    from engine.llm.factory import resolve_spec

    try:
        return resolve_spec().label()
    except ValueError as exc:
        return str(exc)


def tracer_for(turn: Turn) -> StreamlitChatTracer:
    """The one renderer of a turn, live or replayed: same widgets, same keys."""
    return StreamlitChatTracer(
        st.container(),
        lang=lang,
        show_trace=settings.show_thoughts,
        key=turn.id,
        annotate=annotator(turn.answer, turn.grounding, lang),
    )


def render_footer(turn: Turn) -> None:
    if turn.status == "stopped":
        st.caption(f":material/stop_circle: {t('stopped', lang)}")
    if turn.status == "running":
        return
    unsupported = len(turn.grounding.unsupported) if turn.grounding else 0
    flagged = f" · :orange[{plural('unsupported', unsupported, lang)}]" if unsupported else ""
    st.caption(
        f"{plural('step', turn.iterations, lang)} · {turn.tokens:,} {t('tokens', lang)} · "
        f"{turn.elapsed:.1f} s · {turn.backend}{flagged}"
    )


def set_reply(answer: str) -> None:
    st.session_state.pending_reply = answer


def submit_typed_reply(key: str) -> None:
    text = (st.session_state.get(key) or "").strip()
    if text:
        st.session_state.pending_reply = text


def render_question(turn: Turn) -> None:
    """The agent's question inside its turn: choice buttons, or a free-text field."""
    suspended = turn.suspended
    if suspended is None:
        return
    st.info(f"**{t('question_for_you', lang)}:** {suspended.question}", icon=":material/help:")
    if turn is not conversation.pending:
        return
    if suspended.choices:
        columns = st.columns(min(len(suspended.choices), 4))
        for i, choice in enumerate(suspended.choices):
            columns[i % len(columns)].button(
                choice, key=f"choice-{turn.id}-{i}", on_click=set_reply, args=(choice,), width="stretch"
            )
    key = f"reply-{turn.id}"
    with st.form(f"form-{turn.id}", clear_on_submit=True, border=False):
        st.text_input(t("your_answer", lang), key=key)
        st.form_submit_button(t("send", lang), on_click=submit_typed_reply, args=(key,))


def render_turn(turn: Turn) -> None:
    if turn.role == "user":
        st.markdown(turn.content)
        return
    tracer_for(turn).replay(turn.content)
    draw(grounding_widgets(turn.grounding, lang))
    render_question(turn)
    render_footer(turn)


def make_engine(current: Settings, history: list[dict[str, str]]):
    from engine.react.agent import ReActEngine

    ragkwargs = {"theme": current.theme, "language": current.language, "detail": current.detail}
    engine = ReActEngine(ragkwargs=ragkwargs, context=engine_context())
    engine.set_history(history)
    return engine


def stream_into(turn: Turn, start: Callable[[object], Iterator[str]], history: list[dict[str, str]]) -> None:
    """Stream a run into ``turn``; what is produced is kept even if the user stops."""
    with st.chat_message("assistant"):
        tracer = tracer_for(turn)
        spinner = st.empty()
        spinner.caption(f":material/hourglass_top: {t('running', lang)}")
        try:
            engine = make_engine(settings, history)
        except Exception as exc:  # the engine cannot even start: one readable sentence, history kept
            message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            consume(turn, iter([f"Error: {message}\n"]), tracer, lambda: EngineResult(status="error", error=message))
        else:
            beats = [0]

            def heartbeat() -> None:
                beats[0] += 1
                spinner.caption(f":material/hourglass_top: {t('running', lang)} {'·' * (beats[0] % 4)}")

            consume(turn, start(engine), tracer, lambda: engine.result, heartbeat)
    spinner.empty()


# ---- sidebar ------------------------------------------------------------------------
with st.sidebar:
    if st.button(t("new_conversation", lang), icon=":material/add:", width="stretch"):
        st.session_state.conversation = Conversation()
        st.session_state.pop("pending_reply", None)
        st.rerun()
    settings.show_thoughts = st.toggle(t("show_thoughts", lang), value=settings.show_thoughts, key="show_thoughts")
    st.caption(f"{t('backend', lang)}: {backend_label()}")
    st.caption(f"{t('theme', lang)}: {settings.theme or t('no_theme', lang)}")
    with st.expander(t("export", lang)):
        settings.export_thoughts = st.checkbox(
            t("export_with_thoughts", lang), value=settings.export_thoughts, key="export_thoughts"
        )
        for label, export, name, mime in (
            ("export_md", to_markdown, "conversation.md", "text/markdown"),
            ("export_json", to_json, "conversation.json", "application/json"),
        ):
            data = export(conversation, settings.export_thoughts, settings)
            st.download_button(t(label, lang), data, file_name=name, mime=mime, width="stretch")

# ---- the conversation -----------------------------------------------------------------
st.title(t("app_title", lang))
for earlier in conversation.turns:
    if earlier.status == "running":  # a run cut short by a stop or a rerun
        earlier.status = "stopped"

pending = conversation.pending
reply = st.session_state.pop("pending_reply", None) if pending is not None else None

for turn in conversation.turns:
    with st.chat_message(turn.role):
        render_turn(turn)

placeholder = t("answer_placeholder" if pending is not None else "chat_placeholder", lang)
prompt = st.chat_input(placeholder, submit_mode="stop", key="chat")

if prompt and pending is not None and reply is None:
    st.session_state.pending_reply = prompt  # typed in the main box: it answers the question
    st.rerun()

if pending is not None and reply is not None and pending.suspended is not None:
    suspended = pending.suspended
    pending.status = "replied"  # the question stays in its turn; the reply is the analyst's message
    conversation.turns.append(Turn(role="user", content=reply))
    with st.chat_message("user"):
        st.markdown(reply)
    resumed = Turn(role="assistant", status="running")
    conversation.turns.append(resumed)
    stream_into(resumed, lambda engine: engine.resume_sync(suspended, reply, HEARTBEAT_S), [])
    st.rerun()
elif prompt:
    question = prompt if isinstance(prompt, str) else getattr(prompt, "text", "")
    if question.strip():
        history = conversation.history()
        conversation.turns.append(Turn(role="user", content=question))
        with st.chat_message("user"):
            st.markdown(question)
        turn = Turn(role="assistant", status="running")
        conversation.turns.append(turn)
        stream_into(turn, lambda engine: engine.stream_sync(question, HEARTBEAT_S), history)
        st.rerun()
