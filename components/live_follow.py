"""A turn another session or server is running, redrawn live from the store.

The run writes its stream so far to the store at a bounded rate (``STREAM_WRITE_S``);
this tab reads that one turn again every ``LIVE_FOLLOW_S`` (a fragment: the rest of the
page is not rerun) and draws it with the one tracer, as on replay, under the "running
elsewhere" caption and its Stop, and below it the follow-ups the analyst has sent
during the run so far (the run saves its turn as soon as one comes). Once the turn no longer runs (answered, stopped,
interrupted, or gone) the whole page runs again and shows it finished. While the store
cannot be read, the turn stays as last drawn, with the store's one sentence."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from components.inert import inert
from components.live_elsewhere import Stopper, live_elsewhere
from components.state import Turn
from engine.store.errors import StoreError

Reader = Callable[[Turn], Turn | None]  # the turn read again from the store, the user's only; None: not there
StreamDrawer = Callable[[Turn], None]  # draws a turn's stored stream (the replay tracer)
After = Callable[[Turn], None]  # draws what goes below the turn's bubble (its follow-ups)


def running_elsewhere(turn: Turn) -> bool:
    return turn.live and turn.status == "running"


def draw_followed(
    turn: Turn, lang: str, read: Reader, draw_stream: StreamDrawer, stop: Stopper | None, after: After | None = None
) -> None:
    """One look at the store: the turn as it is now (in its bubble, ``after`` below it), or the
    page run again once its run is over."""
    problem = None
    try:
        fresh = read(turn)
    except StoreError as exc:
        fresh, problem = turn, str(exc)
    if fresh is None or not running_elsewhere(fresh):
        st.rerun()  # the page reads the conversation again and draws the finished turn
    with st.chat_message("assistant"):
        draw_stream(fresh)
        live_elsewhere(fresh, lang, stop)
        if problem is not None:
            st.caption(f":material/cloud_off: {inert(problem)}")
    if after is not None:
        after(fresh)


def follow_live(
    turn: Turn,
    lang: str,
    read: Reader,
    draw_stream: StreamDrawer,
    stop: Stopper | None,
    every_s: float,
    after: After | None = None,
) -> None:
    """Draw ``turn`` and redraw it from the store every ``every_s`` until its run is over."""

    @st.fragment(run_every=every_s)
    def follow() -> None:
        draw_followed(turn, lang, read, draw_stream, stop, after)

    follow()
