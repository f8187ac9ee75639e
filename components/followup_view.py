"""The analyst's follow-ups of a turn: drawn as the analyst's messages, marked "sent during
the run", live (a waiting one has Recall and Edit) and on replay; and what the run does
with a message typed, recalled or edited while it streams (``chat_during_run.incoming``).

The engine decides when a follow-up is taken (``engine/react/followups.py``); the turn
keeps every follow-up the run took, saved at once, so a replayed or exported turn shows
it, and the history of later turns has it pinned (``Conversation.history``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import streamlit as st

from components.chat_during_run import RECALL, SAVE, TEXT, Incoming, followup_key
from components.i18n import t
from components.inert import inert
from components.state import SentFollowUp, Turn

NEXT_QUESTION = "followup_next_question"  # session key: what arrived too late for the run, asked next


def draw_followups(turn: Turn, lang: str, *, live: bool = False, n: int = 0) -> None:
    """Each follow-up as the analyst's message; ``live``: a waiting one can still be recalled or edited."""
    for item in turn.followups:
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
    """The follow-ups of the turn being run, drawn below it, and the run's Stop beneath them."""

    def __init__(self, turn: Turn, lang: str, save: Callable[[], None]) -> None:
        self.turn, self.lang, self._save = turn, lang, save
        self.late: list[str] = []  # arrived once the run had its answer: the next question
        self._slot = st.empty()
        self._n = 0
        self._stop = st.empty()
        self._stop.button(
            t("run_stop", lang), key="run_stop", help=t("run_stop_help", lang), icon=":material/stop_circle:"
        )

    def redraw(self) -> None:
        self._n += 1  # fresh widget keys: one script run cannot draw a key twice
        with self._slot.container():
            draw_followups(self.turn, self.lang, live=True, n=self._n)

    def listen(self, engine: Any, heard: list[Incoming]) -> None:
        """On each token: apply what the analyst did (``chat_during_run.hearing``), and show
        which follow-ups the run has taken since."""
        changed = self._sync(engine.followups.taken())
        while heard:
            got = heard.pop(0)
            changed = self._apply(got.kind, got.followup_id, got.text, engine) or changed
        if changed:
            self._save()
            self.redraw()

    def _apply(self, kind: str, followup_id: str, text: str, engine: Any) -> bool:
        waiting = {f.id: f for f in self.turn.followups if f.status == "waiting"}
        if kind == "send":
            item = engine.inject(text)
            if item is None:  # the run has its answer: the message starts the next turn
                self.late.append(text)
                st.toast(t("followup_next_turn", self.lang))
                return False
            self.turn.followups.append(SentFollowUp(id=item.id, text=text))
            return True
        if followup_id not in waiting:
            st.toast(t("followup_taken_already", self.lang))
            return False
        if kind == "recall" and engine.followups.recall(followup_id) is not None:
            self.turn.followups = [f for f in self.turn.followups if f.id != followup_id]
            return True
        if kind == "edit" and engine.followups.edit(followup_id, text):
            waiting[followup_id].text = text
            return True
        st.toast(t("followup_taken_already", self.lang))
        return self._sync(engine.followups.taken())

    def _sync(self, taken: list[Any]) -> bool:
        ids = {f.id for f in taken}
        changed = False
        for item in self.turn.followups:
            if item.status == "waiting" and item.id in ids:
                item.status, changed = "taken", True
        return changed

    def finish(self, taken: list[Any], left: list[Any], ended: bool, late: list[str]) -> None:
        """The run is over: what it took is marked taken. What it left, and what came too
        late (``late``: heard after its last token), is the next question when the run
        ``ended`` (answered, or asked the analyst); after a Stop or an error it stays in the
        turn, unread. Draws nothing when the run was not ``ended``: a stopped script run
        cannot draw."""
        self._sync(taken)
        left_ids = {f.id for f in left}
        if not ended:
            self.turn.followups += [SentFollowUp(id=uuid.uuid4().hex[:10], text=text) for text in late]
            for item in self.turn.followups:
                if item.status == "waiting":
                    item.status = "unread"
            return
        self.late = [f.text for f in self.turn.followups if f.id in left_ids] + self.late + late
        self.turn.followups = [f for f in self.turn.followups if f.id not in left_ids]
        self._stop.empty()
        if self.late:
            st.session_state[NEXT_QUESTION] = "\n\n".join(self.late)
