"""The analyst chat: a live ReAct trace, inline questions, Stop, files dropped into the
chat, follow-ups sent while a run goes on, and conversations that last (stored per user,
reopened from the URL).

Every turn builds a fresh engine, gives it the history of the branch on show, and
streams; every rerun redraws every turn of that branch from its stored stream. Turns are
saved when they start, as they run (the lease: a Stop from another tab or server is heard
through it) and when they end. An edited question or a regenerated answer is a new branch
beside the old one, never written over it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import streamlit as st

from components.app_context import engine_context
from components.attachments import (
    FILE_TYPES,
    attached_files,
    attachments_dir,
    ingest_dropped,
    ragkwargs_for,
    remove_attachments,
)
from components.chat_during_run import hearing
from components.chat_sidebar import chat_sidebar
from components.conversations import shared_store, take_action
from components.followup_view import NEXT_QUESTION, LiveFollowUps, draw_followups
from components.i18n import t
from components.inert import inert
from components.persistence import ensure_stored, fork, open_from_url, run_lease, save
from components.samples import sample_questions
from components.state import Turn, session
from components.stop_redraw import rerun_when_stopped
from components.turn_runner import consume
from components.turn_view import EDITED, PENDING_REPLY, REGENERATE, render_turn, tracer_for
from components.users import current_user
from components.warmup import show_status, start_warmup
from engine.react.run_state import EngineResult

HEARTBEAT_S = 0.3  # how soon a Stop is noticed while a tool runs

_, settings = session()
lang = settings.language
context = engine_context()
user = current_user(lang)
store = shared_store()
action = take_action()  # first the conversation the last click asked for, then everything drawn of it
conversation = open_from_url(store, user, action, lang)
chat_sidebar(
    store,
    user,
    conversation,
    settings,
    action,
    files_of=lambda cid: attached_files(context, cid),
    on_deleted=lambda cid: remove_attachments(context, cid),
)
folder = attachments_dir(context, conversation)
warmup = start_warmup(context, settings.theme)


def make_engine(history: list[dict[str, str]]):
    from engine.react.agent import ReActEngine

    engine = ReActEngine(ragkwargs=ragkwargs_for(settings, folder), context=context)
    engine.set_history(history)
    return engine


def stream_into(turn: Turn, start: Callable[[object], Iterator[str]], history: list[dict[str, str]]) -> None:
    """Stream a run into ``turn``; what is produced is kept (and saved) even if the user stops."""
    save(store, user, conversation, settings, turn)
    bubble = st.chat_message("assistant")
    live = LiveFollowUps(turn, lang, lambda: save(store, user, conversation, settings, turn))  # below the bubble
    engine = None
    with bubble, hearing() as heard:  # the chat box stays open: what is sent from now on is a follow-up
        tracer = tracer_for(turn, settings)
        spinner = st.empty()
        waited = 0.0
        if not warmup.done.is_set():
            spinner.caption(f":material/downloading: {t('warm_waiting', lang)}")
            waited = warmup.wait()
        spinner.caption(f":material/hourglass_top: {t('running', lang)}")
        try:
            try:
                engine = make_engine(history)
            except Exception as exc:  # the engine cannot even start: one readable sentence, history kept
                message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
                failed = EngineResult(status="error", error=message)
                consume(turn, iter([f"Error: {message}\n"]), tracer, lambda: failed)
            else:
                beats = [0]

                def heartbeat() -> None:
                    beats[0] += 1
                    spinner.caption(f":material/hourglass_top: {t('running', lang)} {'·' * (beats[0] % 4)}")

                lease = run_lease(store, user, conversation, settings, turn)
                listen = lambda: live.listen(engine, heard)  # noqa: E731 - the engine of this run
                consume(turn, start(engine), tracer, lambda: engine.result, heartbeat, lease, listen)
        finally:
            turn.elapsed += waited  # the analyst waited for it too
            result = engine.result if engine is not None else EngineResult()
            late = [h.text for h in heard if h.kind == "send"]  # heard after the last token
            live.finish(result.followups, result.followups_left, turn.status in ("answered", "suspended"), late)
            save(store, user, conversation, settings, turn)
            if turn.status == "stopped":
                rerun_when_stopped()  # a stopped run cannot draw: a new run shows the turn as stopped
            else:
                spinner.empty()


def say(text: str) -> None:
    """The analyst's message: kept, saved and shown."""
    said = Turn(role="user", content=text)
    conversation.add(said)
    save(store, user, conversation, settings, said)
    with st.chat_message("user"):
        st.markdown(inert(text))


def answer_with(start: Callable[[object], Iterator[str]], history: list[dict[str, str]]) -> None:
    turn = Turn(role="assistant", status="running")
    conversation.add(turn)
    stream_into(turn, start, history)


def ask(question: str) -> None:
    history = conversation.history()
    say(question)
    answer_with(lambda engine: engine.stream_sync(question, HEARTBEAT_S), history)


def rate(turn: Turn, rating: str | None, comment: str) -> None:
    """Store the analyst's rating of an answer of this conversation (None clears it)."""
    store.set_feedback(user, conversation.id or "", turn.id, rating, comment)  # no id yet: NotFound, one sentence


def stop_elsewhere(turn: Turn) -> bool:
    """Ask, through the store, the session or server running ``turn`` to stop it."""
    return store.request_stop(user, conversation.id or "", turn.id)


def read_again(turn: Turn) -> Turn | None:
    """``turn`` as the store has it now (a run elsewhere writes its stream as it goes), the user's only."""
    found = store.get_turn(user, conversation.id or "", turn.id)
    return Turn.model_validate(found) if found is not None else None


def fork_at(turn: Turn) -> None:
    """Copy the branch down to ``turn`` into a new conversation (the next run opens it)."""
    fork(store, user, conversation, turn, lang)


# ---- the conversation -----------------------------------------------------------------
st.title(inert(conversation.title) or t("app_title", lang))  # a title is a first question: untrusted
show_status(warmup, lang)
for earlier in conversation.turns:
    if earlier.status == "running" and not earlier.live:  # a run of this page cut short by a stop or a rerun
        earlier.status = "stopped"

pending = conversation.pending
reply = st.session_state.pop(PENDING_REPLY, None) if pending is not None else None
last_user = max((i for i, x in enumerate(conversation.turns) if x.role == "user"), default=None)

for i, turn in enumerate(conversation.turns):
    with st.chat_message(turn.role):
        last = i == len(conversation.turns) - 1 or i == last_user
        render_turn(
            turn, conversation, settings, last=last, rate=rate, stop=stop_elsewhere, fork=fork_at, follow=read_again
        )
    draw_followups(turn, lang)  # the analyst's messages sent during its run

sample = None
if not conversation.turns and settings.theme and warmup.done.is_set():  # drawn from what warm-up loaded
    samples = sample_questions(
        context.indexes.get(settings.theme) if warmup.steps.get("index") == "ready" else None,
        context.table_catalog([context.settings.themes_root / settings.theme]),
        lang,
    )
    if samples:
        st.caption(t("samples", lang))
        sample = st.pills(t("samples", lang), samples, key="sample", label_visibility="collapsed")

placeholder = t("answer_placeholder" if pending is not None else "chat_placeholder", lang)
prompt = st.chat_input(placeholder, key="chat", accept_file="multiple", file_type=FILE_TYPES)
text = (prompt if isinstance(prompt, str) else getattr(prompt, "text", "")) if prompt else ""
text = text or st.session_state.pop(NEXT_QUESTION, "")  # sent after the last run had its answer
dropped = list(getattr(prompt, "files", None) or []) if prompt else []

if dropped:
    ensure_stored(store, user, conversation, settings, text or dropped[0].name)
    folder = attachments_dir(context, conversation)
    ingest_dropped(dropped, settings, folder, context, lang)

if text and pending is not None and reply is None:
    st.session_state[PENDING_REPLY] = text  # typed in the main box: it answers the question
    st.rerun()

if pending is not None and reply is not None and pending.suspended is not None:
    suspended = pending.suspended
    pending.status = "replied"  # the question stays in its turn; the reply is the analyst's message
    save(store, user, conversation, settings, pending)
    say(reply)
    answer_with(lambda engine: engine.resume_sync(suspended, reply, HEARTBEAT_S), [])
    st.rerun()
elif st.session_state.pop(REGENERATE, False) and last_user is not None:
    question = conversation.turns[last_user].content
    conversation.branch_at(last_user + 1)  # the new answer is a sibling of the one on show
    answer_with(lambda engine: engine.stream_sync(question, HEARTBEAT_S), conversation.history()[:-1])
    st.rerun()
elif (edited := st.session_state.pop(EDITED, None)) and last_user is not None:
    conversation.branch_at(last_user)  # the edited question is a sibling of the one on show
    ask(edited)
    st.rerun()
elif (text.strip() or sample) and pending is None:
    ask(text.strip() or sample)
    st.rerun()
