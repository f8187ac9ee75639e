"""The analyst chat: a live ReAct trace, inline questions, Stop, files dropped into the
chat, follow-ups sent while a run goes on, and conversations that last (stored per user,
reopened from the URL).

Every turn builds a fresh engine, gives it the history of the branch on show, and runs
as a task of this server (``components/run_task.py``) that outlives the script run that
started it; every script run redraws every turn of that branch from its stored stream,
and draws a run of this server from its task as it streams (``components/run_follow.py``):
a rerun, a reload or a page switch draws it again. Turns are saved when they start, as
they run (the lease: a Stop from another tab or server is heard through it) and when
they end. An edited question or a regenerated answer is a new branch
beside the old one, never written over it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from components.app_context import engine_context
from components.attachments import (
    FILE_TYPES,
    attached_files,
    attachments_dir,
    ingest_dropped,
    ragkwargs_for,
    remove_attachments,
)
from components.chat_sidebar import chat_sidebar
from components.conversations import shared_store, take_action
from components.followup_view import NEXT_QUESTION, draw_followups, queue_next_question
from components.i18n import t
from components.inert import inert
from components.live_follow import running_elsewhere
from components.persistence import ensure_stored, fork, open_from_url, run_lease, save, saver
from components.run_follow import draw_task, take_finished, take_turn
from components.run_task import RunTask, run_registry
from components.samples import sample_questions
from components.state import Turn, session
from components.turn_view import EDITED, PENDING_REPLY, REGENERATE, render_followed, render_turn
from components.users import current_user
from components.warmup import show_status, start_warmup
from engine.store.errors import StoreError

HEARTBEAT_S = 0.3  # how soon a Stop is noticed while a tool runs

_, settings = session()
lang = settings.language
context = engine_context()
user = current_user(lang)
store = shared_store()
registry = run_registry()
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


def make_engine(history: list[dict[str, str]], ragkwargs: dict):
    from engine.react.agent import ReActEngine

    engine = ReActEngine(ragkwargs=ragkwargs, context=context)
    engine.set_history(history)
    return engine


def start_run(turn: Turn, start: Callable[[object], Iterator[str]], history: list[dict[str, str]]) -> None:
    """Start ``turn``'s run as a task of this server (saved first: the conversation has its id,
    the turn its lease); the next script run, and any later one, draws it."""
    save(store, user, conversation, settings, turn)
    cid, ragkwargs = conversation.id or "", ragkwargs_for(settings, folder)
    task = RunTask(
        user,
        cid,
        turn,
        lambda: make_engine(history, ragkwargs),
        start,
        saver(store, user, cid, lang),
        lambda renew: run_lease(store, user, cid, turn.id, renew),
        warmup=None if warmup.done.is_set() else warmup.wait,
    )
    registry.start(task)


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
    start_run(turn, start, history)


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


def read_quietly(turn: Turn) -> Turn | None:
    try:
        return read_again(turn)
    except StoreError:
        return None


def fork_at(turn: Turn) -> None:
    """Copy the branch down to ``turn`` into a new conversation (the next run opens it)."""
    fork(store, user, conversation, turn, lang)


# ---- the conversation -----------------------------------------------------------------
st.title(inert(conversation.title) or t("app_title", lang))  # a title is a first question: untrusted
show_status(warmup, lang)
for earlier in list(conversation.turns):
    if earlier.role != "assistant" or earlier.status != "running":
        continue
    found = registry.find(user, conversation.id, earlier.id)
    if found is not None and found.done.is_set():  # its run ended while no page drew it
        if changed := take_finished(conversation, found):
            save(store, user, conversation, settings, changed)
    elif found is None and not earlier.live:  # no task here (forgotten since): the store says what became of it
        fresh = read_quietly(earlier)
        if fresh is None:
            earlier.status = "stopped"
        else:
            take_turn(conversation, fresh)

pending = conversation.pending
reply = st.session_state.pop(PENDING_REPLY, None) if pending is not None else None
last_user = max((i for i, x in enumerate(conversation.turns) if x.role == "user"), default=None)

drawn: tuple[RunTask, DeltaGenerator] | None = None  # the run of this server to draw, and where
for i, turn in enumerate(conversation.turns):
    task = registry.find(user, conversation.id, turn.id) if turn.status == "running" else None
    if task is not None:
        drawn = (task, st.container())  # drawn at the end, once the chat box is on the page
        continue
    if running_elsewhere(turn):  # another server's run (or one this server forgot): followed from the store
        render_followed(
            turn, conversation, settings, read_again, stop_elsewhere, lambda live: draw_followups(live, lang)
        )
        continue
    with st.chat_message(turn.role):
        last = i == len(conversation.turns) - 1 or i == last_user
        render_turn(turn, conversation, settings, last=last, rate=rate, stop=stop_elsewhere, fork=fork_at)
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
if drawn is None:
    text = text or st.session_state.pop(NEXT_QUESTION, "")  # sent after the last run had its answer
dropped = list(getattr(prompt, "files", None) or []) if prompt else []

if dropped:
    ensure_stored(store, user, conversation, settings, text or dropped[0].name)
    folder = attachments_dir(context, conversation)
    ingest_dropped(dropped, settings, folder, context, lang)

if drawn is not None:  # a run goes on: what is sent now is a follow-up, or waits for its end
    task, slot = drawn
    if text.strip() and (dropped or task.stopping or not task.send(text)):
        queue_next_question(text)  # with files, as the run stops, or after its answer: the next question
        st.toast(t("followup_next_turn", lang))
    if st.session_state.get(EDITED) or st.session_state.get(REGENERATE):
        task.stop()  # the run ends first; the next script run asks again
    with slot:
        draw_task(task, settings, lang)
    if changed := take_finished(conversation, task):
        save(store, user, conversation, settings, changed)
    st.rerun()

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
