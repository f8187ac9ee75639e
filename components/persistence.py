"""The open conversation and the store: which conversation and which branch the URL
names, and every turn saved when it starts, while it runs (its lease) and when it ends,
under the current user. A conversation with a turn running elsewhere is read again on
each rerun."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from components.conversations import (
    SidebarAction,
    branch_from_url,
    conversation_id_from_url,
    open_conversation,
    request_open,
    set_url_branch,
    set_url_conversation,
)
from components.i18n import t
from components.inert import inert
from components.run_lease import RunLease
from components.state import Conversation, Preferences, Turn
from components.turn_fit import fitted
from engine.settings import current
from engine.store.errors import StoreError, TooLarge
from engine.store.inputs import title_from_question
from engine.store.lease import renew_every
from engine.store.models import ConversationRepository

_URL_TIP = "url_branch_tip"  # the branch this page last put in the URL (a newer turn moves it on)


def open_from_url(store: ConversationRepository, user: str, action: SidebarAction, lang: str) -> Conversation:
    """The conversation this run shows: the one the URL names (loaded once), or a new one,
    on the branch the URL names (switched without re-running anything)."""
    conversation: Conversation = st.session_state.conversation
    wanted = conversation_id_from_url()
    if action.kind == "new" or (action.kind == "deleted" and action.conversation_id == conversation.id):
        conversation = Conversation()
    elif wanted and (wanted != conversation.id or any(x.live for x in conversation.turns)):
        try:
            record = open_conversation(store, user, wanted)
        except StoreError as exc:
            st.warning(inert(str(exc)))
            record = None
        if record is None:
            st.warning(t("conv_not_found", lang), icon=":material/search_off:")
            set_url_conversation(None)
            conversation = Conversation()
        else:
            tree = [Turn.model_validate(item) for item in record.turns]
            conversation = Conversation(id=record.id, title=record.title, tree=tree)
            conversation.show(branch_from_url())
    elif wanted is None and conversation.id is not None and action.kind == "none":
        st.query_params["c"] = conversation.id  # keep the URL naming the open conversation
    tip = branch_from_url()
    changed = tip != st.session_state.get(_URL_TIP)  # the URL moved since this page last set it
    if tip and changed and tip != conversation.tip and any(turn.id == tip for turn in conversation.tree):
        conversation.show(tip)  # a ‹ › click, a reload, or the URL edited: another branch of the open conversation
    set_url_branch(conversation.tip)
    st.session_state[_URL_TIP] = conversation.tip
    if action.kind == "renamed" and action.conversation_id == conversation.id:
        conversation.title = _stored_title(store, user, conversation)  # the heading follows the rename
    st.session_state.conversation = conversation
    return conversation


def _stored_title(store: ConversationRepository, user: str, conversation: Conversation) -> str:
    try:
        record = store.get(user, conversation.id) if conversation.id else None
    except StoreError:
        record = None
    return record.title if record is not None else conversation.title


def ensure_stored(
    store: ConversationRepository, user: str, conversation: Conversation, settings: Preferences, question: str
) -> None:
    """Create the stored conversation, titled by its first question, and name it in the URL."""
    if conversation.id is not None:
        return
    record = store.create(
        user,
        title=title_from_question(question),
        theme=settings.theme,
        settings=settings.model_dump(include={"theme", "language", "detail"}),
    )
    conversation.id, conversation.title = record.id, record.title
    st.query_params["c"] = record.id


def save(
    store: ConversationRepository, user: str, conversation: Conversation, settings: Preferences, turn: Turn
) -> None:
    """Write ``turn`` (creating the stored conversation with its first question); a store
    that is down queues it, and says so in the sidebar. A turn too large to keep is saved
    without its tables and charts (or its trace), saying so, never left as it was."""
    try:
        first = next((x.content for x in conversation.turns if x.role == "user"), turn.content)
        ensure_stored(store, user, conversation, settings, first)
        _save_fitting(store, user, conversation.id, turn, settings.language)
    except StoreError as exc:
        st.toast(inert(str(exc)), icon=":material/cloud_off:")
    # The URL names the new branch from the next run on (``open_from_url``), never during a run:
    # changing it while a turn streams put the chat box back from Stop to Send mid-run.


def fork(store: ConversationRepository, user: str, conversation: Conversation, turn: Turn, lang: str) -> None:
    """From a callback: copy the branch down to ``turn`` into a new conversation, opened by the next run."""
    try:
        record = store.fork(user, conversation.id or "", turn.id, t("fork_title", lang, title=conversation.title))
    except StoreError as exc:  # not stored yet, another user's, or the database away: one sentence
        st.toast(inert(str(exc)), icon=":material/cloud_off:")
        return
    set_url_branch(None)
    request_open(record.id)
    st.toast(t("forked", lang), icon=":material/fork_right:")


def _save_fitting(store: ConversationRepository, user: str, conversation_id: str | None, turn: Turn, lang: str) -> None:
    try:
        store.save_turn(user, conversation_id, turn.model_dump(mode="json"))
        return
    except TooLarge:
        smaller = fitted(turn, lang)
        if not smaller:
            raise
    for i, version in enumerate(smaller):
        try:
            store.save_turn(user, conversation_id, version.model_dump(mode="json"))
        except TooLarge:
            if i == len(smaller) - 1:
                raise
            continue
        turn.content, turn.record = version.content, version.record  # the page shows what is kept, with its note
        return


def saver(store: ConversationRepository, user: str, conversation_id: str, lang: str) -> Callable[[Turn], str | None]:
    """How a run's task saves its turn, from its own thread (no page to draw on): fitted as
    ``save`` fits it; the store's one sentence returned when it could not (the page shows it)."""

    def save_turn(turn: Turn) -> str | None:
        try:
            _save_fitting(store, user, conversation_id, turn, lang)
        except StoreError as exc:
            return str(exc)
        return None

    return save_turn


def run_lease(
    store: ConversationRepository, user: str, conversation_id: str, turn_id: str, renew: Callable[[], None]
) -> RunLease:
    """The lease a turn's run keeps: ``renew`` saves the turn as it goes (its stream every
    ``STREAM_WRITE_S`` while it grows, a heartbeat within ``TURN_LEASE_S`` anyway), a Stop from the store polled."""
    config = current()
    return RunLease(
        renew,
        lambda: store.stop_requested(user, conversation_id, turn_id),
        renew_every_s=renew_every(config.turn_lease_s),
        write_every_s=config.stream_write_s,
    )
