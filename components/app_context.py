"""The engine context of the app process: one per Streamlit server, shared by every
session (indexes, tool router, MCP hub are infrastructure, not conversation state)."""

from __future__ import annotations

import streamlit as st

from components.inert import inert
from engine.context import EngineContext
from engine.rag.store import IndexProblem, theme_folders


@st.cache_resource(show_spinner=False)
def engine_context() -> EngineContext:
    return EngineContext()


def known_themes() -> tuple[list[str], set[str]]:
    """The themes to offer (with documents or an index) and those that have an index.

    When the vector store cannot be read, it says so in one line and the themes with
    documents are still offered."""
    context = engine_context()
    try:
        indexed = set(context.indexes.store.themes())
    except IndexProblem as exc:
        st.error(inert(str(exc)), icon=":material/cloud_off:")
        indexed = set()
    return sorted(indexed | set(theme_folders(context.settings.themes_root))), indexed
