"""The analyst's follow-ups of a turn: drawn as the analyst's messages, marked "sent during
the run", live (a waiting one has Recall and Edit) and on replay; and what the run does
with a message typed, recalled or edited while it streams (``chat_during_run.incoming``).

The engine decides when a follow-up is taken (``engine/react/followups.py``); the run's
task keeps every follow-up in its turn and saves it at once (``components/run_task.py``), so a replayed or exported turn shows
it, and the history of later turns has it pinned (``Conversation.history``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from components.chat_during_run import RECALL, SAVE, STOP_KEY, TEXT, Incoming, followup_key
from components.i18n import t
from components.inert import inert
from components.state import SentFollowUp, Turn

NEXT_QUESTION = "followup_next_question"  # session key: what arrived too late for the run, asked next


def draw_followups(turn: Turn, lang: str, *, live: bool = False, n: int = 0) -> None:
    """Each follow-up as the analyst's message; ``live``: a waiting one can still be recalled or edited."""
    draw_items(turn.followups, lang, live=live, n=n)


def draw_items(followups: list[SentFollowUp], lang: str, *, live: bool = False, n: int = 0) -> None:
    for item in followups:
        with st.chat_message("user"):
            mark = f":material/schedule_send: {t('sent_during_run', lang)}"
            if live and item.status == "waiting":
                mark += f" · {t('followup_waiting', lang)}"
            elif item.status == "unread":
                mark += f" · {t('followup_unread', lang)}"
            st.caption(mark)
            st.markdown(inert(item.text))
            if live and item.status == "waiting":
                _waiting_actions(item, lang, n)


def _waiting_actions(item: SentFollowUp, lang: str, n: int) -> None:
    row = st.container(horizontal=True, gap="small")
    row.button(
        t("followup_recall", lang),
        key=followup_key(RECALL, item.id, n),
        help=t("followup_recall_help", lang),
        icon=":material/undo:",
        type="tertiary",
    )
    with row.popover(t("followup_edit", lang), icon=":material/edit:"):
        with st.form(f"fu_form_{item.id}_{n}", border=False):  # no rerun while typing: only Save is heard
            st.text_area(t("followup_edit", lang), value=item.text, key=followup_key(TEXT, item.id, n))
            st.form_submit_button(t("followup_save", lang), key=followup_key(SAVE, item.id, n))


class LiveFollowUps:
    """The follow-ups of the run being drawn, below it, and the run's Stop beneath them; what the
    analyst does with them goes to the run's task (``components/run_task.py``)."""

    def __init__(self, lang: str, stop: Callable[[], None]) -> None:
        self.lang = lang
        self._slot = st.empty()
        self._n = 0
        self._stop = st.empty()
        clicked = self._stop.button(
            t("run_stop", lang), key=STOP_KEY, help=t("run_stop_help", lang), icon=":material/stop_circle:"
        )
        if clicked:  # clicked between two script runs: this run stops it
            stop()

    def redraw(self, followups: list[SentFollowUp]) -> None:
        self._n += 1  # fresh widget keys: one script run cannot draw a key twice
        with self._slot.container():
            draw_items(followups, self.lang, live=True, n=self._n)

    def apply(self, task: Any, got: Incoming) -> None:
        """What the analyst did (``chat_during_run.hearing``), handed to the run."""
        if got.kind == "stop":
            task.stop()
        elif got.kind == "send":
            if not task.send(got.text):  # the run has its answer: the message starts the next turn
                queue_next_question(got.text)
                st.toast(t("followup_next_turn", self.lang))
        elif not (task.recall(got.followup_id) if got.kind == "recall" else task.edit(got.followup_id, got.text)):
            st.toast(t("followup_taken_already", self.lang))


def queue_next_question(text: str) -> None:
    """``text`` is asked once the run being drawn is over (after what is queued already)."""
    queued = st.session_state.get(NEXT_QUESTION, "")
    st.session_state[NEXT_QUESTION] = f"{queued}\n\n{text}" if queued else text
