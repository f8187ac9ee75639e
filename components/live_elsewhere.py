"""A turn another session or server is running: said so, with a Stop that goes through the store.

The Stop asks the store (``request_stop``); the server running the turn polls that
flag and stops its run within about a second, keeping what it produced. What the
click found (asked, no longer running, or the store's one sentence) is shown under
the turn until the turn is drawn from the store again."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from components.i18n import t
from components.inert import inert
from components.state import Turn
from engine.store.errors import StoreError

Stopper = Callable[[Turn], bool]  # asks the store to stop the turn; False when it no longer runs
_ASKED = "stop_asked_{}"


def _ask(turn: Turn, stop: Stopper) -> None:
    try:
        outcome = "stop_asked" if stop(turn) else "stop_not_running"
    except StoreError as exc:
        outcome = str(exc)
    st.session_state[_ASKED.format(turn.id)] = outcome


def live_elsewhere(turn: Turn, lang: str, stop: Stopper | None) -> None:
    st.caption(f":material/sync: {t('running_elsewhere', lang)}")
    asked = st.session_state.get(_ASKED.format(turn.id))
    if asked is not None:
        known = asked in ("stop_asked", "stop_not_running")
        st.caption(f":material/stop_circle: {t(asked, lang) if known else inert(asked)}")
    elif stop is not None:
        st.button(
            t("stop_elsewhere", lang),
            icon=":material/stop_circle:",
            key=f"stop-elsewhere-{turn.id}",
            help=t("stop_elsewhere_help", lang),
            on_click=_ask,
            args=(turn, stop),
        )
