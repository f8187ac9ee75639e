"""The app: navigation between the chat and the other pages, titled in the UI language.

All conversation state lives in ``st.session_state`` (typed models in
``components/state.py``) and, turn by turn, in the conversation store."""

from __future__ import annotations

import streamlit as st

from components.i18n import t
from components.state import session

_, settings = session()
lang = settings.language
st.set_page_config(page_title=t("app_title", lang), page_icon=":material/query_stats:", layout="centered")
pages = [
    st.Page("pages/chat.py", title=t("page_chat", lang), icon=":material/forum:", default=True),
    st.Page("pages/1_Settings.py", title=t("settings", lang), icon=":material/settings:", url_path="settings"),
    st.Page(
        "pages/2_Index_browser.py", title=t("index_browser", lang), icon=":material/folder_open:", url_path="index"
    ),
    st.Page(
        "pages/3_Tool_catalogue.py", title=t("tool_catalogue", lang), icon=":material/construction:", url_path="tools"
    ),
]
st.navigation(pages).run()
