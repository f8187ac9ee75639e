"""The chat page's sidebar: past conversations, Show Thoughts, where dropped files go,
the backend and theme, and the exports.

It is drawn after the page has opened the conversation the sidebar's last click asked
for (``take_action`` then ``open_from_url``), so the highlight, the heading and the
exports are all of the conversation on screen."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from components.conversations import SidebarAction, conversation_sidebar
from components.export import to_json, to_markdown
from components.i18n import money, t
from components.state import Conversation, Preferences
from engine.store.models import ConversationRepository


def backend_label() -> str:
    """The model's one label, as the footer and Settings show it."""
    from engine.llm.factory import resolve_spec

    try:
        return resolve_spec().label()
    except ValueError as exc:
        return str(exc)


def chat_sidebar(
    store: ConversationRepository,
    user: str,
    conversation: Conversation,
    settings: Preferences,
    action: SidebarAction,
    *,
    files_of: Callable[[str], int] | None = None,
    on_deleted: Callable[[str], None] | None = None,
) -> None:
    """``conversation``: the one this run shows (already opened); ``action``: the click that led to it."""
    lang = settings.language
    conversation_sidebar(store, user, conversation.id, lang, action=action, files_of=files_of, on_deleted=on_deleted)
    with st.sidebar:
        st.divider()
        settings.show_thoughts = st.toggle(t("show_thoughts", lang), value=settings.show_thoughts, key="show_thoughts")
        options = ["conversation", "theme"] if settings.theme else ["conversation"]
        settings.files_to = st.radio(
            t("files_to", lang),
            options,
            index=options.index(settings.files_to) if settings.files_to in options else 0,
            format_func=lambda o: t(f"files_to_{o}", lang),
            key="files_to",
        )
        st.caption(f"{t('backend', lang)}: {backend_label()}")
        st.caption(f"{t('theme', lang)}: {settings.theme or t('no_theme', lang)}")
        if costs := conversation.costs():
            total = " + ".join(money(c, lang) for c in costs)
            st.caption(f"{t('conversation_cost', lang)}: {total}")
        with st.expander(t("export", lang), icon=":material/download:"):
            settings.export_thoughts = st.checkbox(
                t("export_with_thoughts", lang), value=settings.export_thoughts, key="export_thoughts"
            )
            for label, export, name, mime in (
                ("export_md", to_markdown, "conversation.md", "text/markdown"),
                ("export_json", to_json, "conversation.json", "application/json"),
            ):
                data = export(conversation, settings.export_thoughts, settings)
                st.download_button(t(label, lang), data, file_name=name, mime=mime, width="stretch")
