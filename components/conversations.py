"""The sidebar's list of past conversations: search, open, rename, delete (confirmed), new.

The open conversation's id is in the URL (``?c=<id>``), and the branch on show is named
by its last turn (``&b=<turn id>``), so a reload or a bookmark reopens both. Titles are user text: they are shown through ``safe_label`` (no markup).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel

from components.i18n import t
from components.inert import inert
from components.render import safe_label
from engine.store import BadInput, ConversationRecord, ConversationRepository, ConversationSummary, NotFound
from engine.store.errors import StoreError
from engine.store.inputs import valid_id
from engine.store.resilient import ResilientStore

URL_PARAM = "c"
BRANCH_PARAM = "b"
_CONFIRM = "conv_confirm_delete"
_ACTION = "conv_action"
_ERROR = "conv_error"
_MENU = "conv_menu_{}"  # the popover of a row; its open state is closed by writing False here


class SidebarAction(BaseModel):
    """What the user asked for in the sidebar during this run (``none``: nothing)."""

    kind: Literal["none", "new", "open", "renamed", "deleted"] = "none"
    conversation_id: str | None = None


def _open_store(url: str | None) -> ResilientStore:
    return ResilientStore(url)


def shared_store() -> ResilientStore:
    """The app server's one store for ``DATABASE_URL`` (Streamlit's resource cache), shared by every session."""
    import streamlit as st

    from engine.settings import current

    return st.cache_resource(_open_store, show_spinner=False)(current().database_url)


def conversation_id_from_url() -> str | None:
    """The conversation named in the URL, if the value can be an id at all."""
    import streamlit as st

    value = st.query_params.get(URL_PARAM)
    return value if valid_id(value) else None


def set_url_conversation(conversation_id: str | None) -> None:
    import streamlit as st

    if conversation_id:
        st.query_params[URL_PARAM] = conversation_id
    elif URL_PARAM in st.query_params:
        del st.query_params[URL_PARAM]


def branch_from_url() -> str | None:
    """The turn the URL names as the end of the branch on show, if the value can be an id at all."""
    import streamlit as st

    value = st.query_params.get(BRANCH_PARAM)
    return value if valid_id(value) else None


def set_url_branch(turn_id: str | None) -> None:
    import streamlit as st

    if turn_id:
        if st.query_params.get(BRANCH_PARAM) != turn_id:
            st.query_params[BRANCH_PARAM] = turn_id
    elif BRANCH_PARAM in st.query_params:
        del st.query_params[BRANCH_PARAM]


def request_open(conversation_id: str) -> None:
    """From a callback: the next run opens ``conversation_id`` (named in the URL), as a click in the list does."""
    _on_open(conversation_id)


def open_conversation(store: ConversationRepository, user: str, conversation_id: str) -> ConversationRecord | None:
    """The conversation for a session that opens it: turns left running by a dead process become interrupted."""
    try:
        store.mark_interrupted(user, conversation_id)
    except NotFound:
        return None
    return store.get(user, conversation_id)


def _status(store: Any, user: str, lang: str) -> None:
    import streamlit as st

    if getattr(store, "misconfigured", False):
        st.warning(t("conv_store_misconfigured", lang), icon=":material/cloud_off:")
    elif getattr(store, "replaced", False):
        st.error(t("conv_store_replaced", lang), icon=":material/cloud_off:")
    elif getattr(store, "is_down", False):
        st.warning(t("conv_store_down", lang), icon=":material/cloud_off:")
    lost = store.lost_turns(user) if hasattr(store, "lost_turns") else []  # this user's only
    if lost:
        st.error(t("conv_lost", lang, n=len(lost)), icon=":material/error:")


def _act(kind: str, conversation_id: str | None = None) -> None:
    import streamlit as st

    st.session_state[_ACTION] = SidebarAction(kind=kind, conversation_id=conversation_id)


def _on_new() -> None:
    import streamlit as st

    st.session_state.pop(_CONFIRM, None)
    set_url_conversation(None)
    _act("new")


def _on_open(conversation_id: str) -> None:
    set_url_conversation(conversation_id)
    _act("open", conversation_id)


def _on_rename(store: ConversationRepository, user: str, conversation_id: str) -> None:
    import streamlit as st

    try:
        store.rename(user, conversation_id, st.session_state.get(f"conv_title_{conversation_id}") or "")
    except BadInput:
        st.session_state[_ERROR] = "conv_bad_title"
    except NotFound:
        st.session_state[_ERROR] = "conv_not_found"
    else:
        _close_menu(conversation_id)
        _act("renamed", conversation_id)


def _close_menu(conversation_id: str) -> None:
    import streamlit as st

    st.session_state[_MENU.format(conversation_id)] = False


def _on_ask_delete(conversation_id: str) -> None:
    import streamlit as st

    _close_menu(conversation_id)  # the confirmation is drawn under the row, not under the open menu
    st.session_state[_CONFIRM] = conversation_id


def _on_delete(
    store: ConversationRepository,
    user: str,
    conversation_id: str,
    current_id: str | None,
    on_deleted: Callable[[str], None] | None,
) -> None:
    import streamlit as st

    st.session_state.pop(_CONFIRM, None)
    try:
        store.delete(user, conversation_id)
    except NotFound:
        st.session_state[_ERROR] = "conv_not_found"
        return
    if on_deleted is not None:
        on_deleted(conversation_id)  # what lives beside the store: the conversation's files
    if conversation_id == current_id:
        set_url_conversation(None)
    _act("deleted", conversation_id)


def _on_cancel() -> None:
    import streamlit as st

    st.session_state.pop(_CONFIRM, None)


def _row(
    store: ConversationRepository,
    user: str,
    item: ConversationSummary,
    current_id: str | None,
    lang: str,
    files_of: Callable[[str], int] | None,
    on_deleted: Callable[[str], None] | None,
) -> None:
    import streamlit as st

    label = safe_label(item.title, 48) or t("conv_untitled", lang)
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    row.button(
        label,
        key=f"conv_open_{item.id}",
        type="primary" if item.id == current_id else "tertiary",
        width="stretch",
        help=item.updated_at.strftime("%Y-%m-%d %H:%M UTC"),
        on_click=_on_open,
        args=(item.id,),
    )
    menu = row.popover(
        "",
        icon=":material/more_vert:",
        help=t("conv_options", lang),
        key=_MENU.format(item.id),
        on_change="rerun",  # tracked, so that Delete and Rename can close it
        width="content",
    )
    with menu:
        st.text_input(t("conv_rename", lang), value=item.title, max_chars=200, key=f"conv_title_{item.id}")
        st.button(
            t("conv_rename_save", lang),
            icon=":material/edit:",
            key=f"conv_rename_{item.id}",
            on_click=_on_rename,
            args=(store, user, item.id),
        )
        st.button(
            t("conv_delete", lang),
            icon=":material/delete:",
            key=f"conv_delete_{item.id}",
            on_click=_on_ask_delete,
            args=(item.id,),
        )
    if st.session_state.get(_CONFIRM) == item.id:
        files = files_of(item.id) if files_of is not None else 0
        confirm = (
            t("conv_delete_confirm_files", lang, title=label, n=files)
            if files
            else t("conv_delete_confirm", lang, title=label)
        )
        st.warning(confirm, icon=":material/warning:")
        yes, no = st.columns(2)
        yes.button(
            t("conv_delete_yes", lang),
            type="primary",
            icon=":material/delete_forever:",
            key="conv_yes",
            on_click=_on_delete,
            args=(store, user, item.id, current_id, on_deleted),
        )
        no.button(t("conv_cancel", lang), icon=":material/close:", key="conv_no", on_click=_on_cancel)


def take_action() -> SidebarAction:
    """What a sidebar button asked for before this run (its callback ran first); read it once, at the top."""
    import streamlit as st

    return st.session_state.pop(_ACTION, None) or SidebarAction()


def conversation_sidebar(
    store: ConversationRepository,
    user: str,
    current_id: str | None,
    lang: str = "en",
    container: Any = None,
    *,
    action: SidebarAction | None = None,
    files_of: Callable[[str], int] | None = None,
    on_deleted: Callable[[str], None] | None = None,
) -> SidebarAction:
    """Draw the conversation list (in the sidebar unless ``container`` is given) and say what the user asked for.

    Call it before drawing the chat: the buttons act in callbacks, so the action of a
    click is returned at the top of the run that follows it, and the list already
    shows its effect.

    ``open``: load ``conversation_id`` (the URL already names it); ``new``: start an empty
    conversation (the URL no longer names one); ``deleted``: if it was the open one,
    start an empty one; ``renamed``: redraw.

    A page that must know the action before it draws the list (to highlight the
    conversation it then opens) reads it with ``take_action`` and passes it as
    ``action``. ``files_of`` counts a conversation's attached files for the delete
    confirmation; ``on_deleted`` removes them once the conversation is deleted.
    """
    import streamlit as st

    if action is None:
        action = take_action()
    error = st.session_state.pop(_ERROR, None)
    with container if container is not None else st.sidebar:
        st.subheader(t("conv_header", lang))
        status = st.container()  # filled after the list is read, which is what finds the database gone
        if error:
            st.error(t(error, lang))
        st.button(t("conv_new", lang), icon=":material/add:", width="stretch", key="conv_new", on_click=_on_new)
        search = st.text_input(
            t("conv_search", lang),
            key="conv_search",
            placeholder=t("conv_search", lang),
            icon=":material/search:",
            label_visibility="collapsed",
            max_chars=200,
        )
        try:
            items = store.list(user, search or None)
        except StoreError as exc:
            st.warning(inert(str(exc)))
            items = []
        with status:
            _status(store, user, lang)
        if not items:
            st.caption(t("conv_no_match" if search else "conv_empty", lang))
        for item in items:
            _row(store, user, item, current_id, lang, files_of, on_deleted)
    return action
