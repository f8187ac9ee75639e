"""A page drawing a run of this server: the task's stream as it arrives, its follow-ups,
its Stop; then the page runs again and shows the finished turn.

Any script run of any session does this for a running turn whose task is in this
process (``components/run_task.py``): the tab that asked, the same tab after a rerun, a
reload or a page switch, another tab. It replays the stream so far into the one tracer,
then feeds it the tokens as the task produces them (those of ``BATCH_S`` at a time: one
wake-up, not one per token; the tracer's throttle keeps the drawing cheap), waking on
the task's condition rather than polling. While it draws,
``chat_during_run.hearing`` takes the analyst's follow-ups, Recall, Edit and Stop
without ending the script run; anything else ends this script run only, and the next
one draws the run again."""

from __future__ import annotations

import time

import streamlit as st

from components.chat_during_run import hearing
from components.followup_view import LiveFollowUps, queue_next_question
from components.i18n import t
from components.inert import inert
from components.run_task import RunTask
from components.state import Conversation, Preferences, Turn
from components.turn_view import tracer_for

WAIT_S = 0.3  # the longest the page waits for a token before it touches the page (where Streamlit hears a click)
BATCH_S = 0.02  # after drawing, the tokens of this long are taken together: one wake-up and one feed, not one per token


def draw_task(
    task: RunTask, settings: Preferences, lang: str, wait_s: float = WAIT_S, batch_s: float = BATCH_S
) -> None:
    """Draw ``task``'s turn live here until its run is over (the caller then runs the page again)."""
    bubble = st.chat_message("assistant")
    live = LiveFollowUps(lang, task.stop)  # below the bubble
    with bubble, hearing(on_stop=task.stop) as heard:
        tracer = tracer_for(task.turn, settings)
        status = st.empty()
        seen, version, beats, state = 0, -1, 0, None
        while True:
            parts, done = task.read(seen, wait_s)
            if chunk := "".join(parts):  # the one parser reads a stream the same in any chunks
                tracer.feed(chunk)
            seen += len(parts)
            while heard:
                live.apply(task, heard.pop(0))
            followups, now = task.followups()
            if now != version:
                version = now
                live.redraw(followups)
            if done:
                return
            if not parts or state != (task.phase, task.problem):  # idle, or news: a yield point, a sign of life
                beats, state = beats + 1, (task.phase, task.problem)
                status.caption(_status_line(task, lang, beats))
            elif batch_s:
                time.sleep(batch_s)  # well within the tracer's redraw interval (80 ms): nothing shows later


def _status_line(task: RunTask, lang: str, beats: int) -> str:
    if task.phase == "warming":
        return f":material/downloading: {t('warm_waiting', lang)}"
    line = f":material/hourglass_top: {t('running', lang)} {'·' * (beats % 4)}"
    if task.problem:
        line += f" · :material/cloud_off: {inert(task.problem)}"
    return line


def take_finished(conversation: Conversation, task: RunTask) -> Turn | None:
    """The task's final turn in place of the conversation's copy of it. When the run left
    follow-ups for the next question (and no page claimed them yet), they are queued here
    and taken out of the turn, which is returned to be saved so."""
    final = task.final_turn()
    claimed = task.claim_next()
    if claimed:
        queue_next_question("\n\n".join(f.text for f in claimed))
        ids = {f.id for f in claimed}
        final.followups = [f for f in final.followups if f.id not in ids]
    take_turn(conversation, final)
    return final if claimed else None


def take_turn(conversation: Conversation, fresh: Turn) -> None:
    """``fresh`` in place of the conversation's turn of the same id (same place in the tree)."""
    for turns in (conversation.turns, conversation.tree):
        for i, turn in enumerate(turns):
            if turn.id == fresh.id:
                turns[i] = fresh
