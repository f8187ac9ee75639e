"""The engine context of the app process: one per Streamlit server, shared by every
session (indexes, tool router, MCP hub are infrastructure, not conversation state)."""

from __future__ import annotations

import streamlit as st

from engine.context import EngineContext


@st.cache_resource(show_spinner=False)
def engine_context() -> EngineContext:
    return EngineContext()
