"""Settings: theme, answer language, detail level, Show Thoughts, and the backend."""

from __future__ import annotations

import time

import streamlit as st

from components.app_context import known_themes
from components.i18n import LANGUAGES, t
from components.inert import inert
from components.state import session

conversation, settings = session()
lang = settings.language
st.set_page_config(page_title=t("settings", lang), page_icon=":material/settings:")
st.title(t("settings", lang))
st.caption(t("settings_note", lang))

themes, _ = known_themes()
options = [None, *themes]
current = settings.theme if settings.theme in themes else None
settings.theme = st.selectbox(
    t("theme", lang),
    options,
    index=options.index(current),
    format_func=lambda name: name or t("no_theme", lang),
    key="settings_theme",
)
codes = list(LANGUAGES)
settings.language = st.selectbox(
    t("language", lang),
    codes,
    index=codes.index(settings.language) if settings.language in codes else 0,
    format_func=lambda code: LANGUAGES[code],
    key="settings_language",
)
details = ["brief", "normal", "detailed"]
settings.detail = st.radio(
    t("detail", lang),
    details,
    index=details.index(settings.detail),
    format_func=lambda d: t(f"detail_{d}", lang),
    horizontal=True,
    key="settings_detail",
)
settings.show_thoughts = st.toggle(t("show_thoughts", lang), value=settings.show_thoughts, key="settings_show")

st.divider()
from engine.llm.factory import build_llm, resolve_spec  # noqa: E402

try:
    spec = resolve_spec()
    st.markdown(f"**{t('backend', lang)}:** `{spec.label()}`")
    if spec.base_url:
        from engine.llm.errors import public_address

        st.caption(public_address(spec.base_url))
except ValueError as exc:
    spec = None
    st.error(inert(str(exc)))

if spec is not None and st.button(t("test_connection", lang), key="test_connection"):
    from engine.llm.base import LLMError

    started = time.monotonic()
    try:
        build_llm(spec).generate([{"role": "user", "content": "Reply with OK."}], max_tokens=5)
        st.success(t("connection_ok", lang, s=time.monotonic() - started))
    except LLMError as exc:
        st.error(inert(exc.message))
    except Exception as exc:  # any other failure: one readable sentence, never a trace
        st.error(inert(f"{type(exc).__name__}: {str(exc)[:200]}"))

if settings.language != lang:
    st.rerun()  # relabel the page in the new language
