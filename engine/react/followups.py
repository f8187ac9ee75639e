"""Follow-ups: messages the analyst sends while a run is going (FIM One's rules).

The app hands them to the running engine (``ReActEngine.inject``) from another thread
than the loop's, so the ``Inbox`` is guarded by a lock. The loop takes what is waiting
at a step boundary: after the model's step in the text and JSON protocols, and only
after the tool results in a protocol that declares ``followups_after_tools`` (native
function calling: an assistant message with tool calls must be followed by its tool
messages before any user message). Everything taken at one boundary becomes one user
message, marked as a follow-up. An answer about to be given when a follow-up is waiting
is held back (retyped a Draft) and the loop runs again. A follow-up not yet taken can be
recalled or edited; once the run has its answer the inbox is closed, and what arrives
then, or was never taken, starts the next turn (the app's part).

In the history later turns get, a follow-up is a ``pinned`` user message (the app's
``Conversation.history``), so history compression keeps it."""

from __future__ import annotations

import threading
from typing import Any

from engine.react.opening import bound_question
from engine.react.prompts import message
from engine.react.run_state import FollowUp
from engine.react.step import Step
from engine.react.stream import StreamWriter
from engine.react.types import ReActType

Message = dict[str, Any]


class Inbox:
    """The follow-ups of one run. Thread-safe: ``put``, ``recall`` and ``edit`` come from
    the app, ``take`` and ``close`` from the loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[FollowUp] = []
        self._taken: list[FollowUp] = []
        self._open = True

    def put(self, text: str) -> FollowUp | None:
        """Queue ``text`` for the next boundary; None once the run has its answer (or for
        blank text): the caller sends it as the next question instead."""
        if not text.strip():
            return None
        with self._lock:
            if not self._open:
                return None
            item = FollowUp(text=text)
            self._pending.append(item)
            return item

    def recall(self, followup_id: str) -> FollowUp | None:
        """Take back a follow-up the loop has not taken yet; None when it was taken already."""
        with self._lock:
            for i, item in enumerate(self._pending):
                if item.id == followup_id:
                    return self._pending.pop(i)
            return None

    def edit(self, followup_id: str, text: str) -> bool:
        """Change a follow-up not taken yet; False when it was taken already (or ``text`` is blank)."""
        if not text.strip():
            return False
        with self._lock:
            for i, item in enumerate(self._pending):
                if item.id == followup_id:
                    self._pending[i] = item.model_copy(update={"text": text})
                    return True
            return False

    def pending(self) -> list[FollowUp]:
        with self._lock:
            return list(self._pending)

    def taken(self) -> list[FollowUp]:
        with self._lock:
            return list(self._taken)

    def take(self) -> list[FollowUp]:
        """Everything waiting, now part of the run (no longer recalled or edited)."""
        with self._lock:
            if not self._open:
                return []
            out, self._pending = self._pending, []
            self._taken.extend(out)
            return out

    def close(self) -> list[FollowUp]:
        """The run is over: no more follow-ups are taken; those still waiting are returned
        (each starts the next turn)."""
        with self._lock:
            self._open = False
            out, self._pending = self._pending, []
            return out


def after_tools(protocol: object) -> bool:
    """Whether the protocol takes follow-ups only after the step's tool results (declared)."""
    return bool(getattr(protocol, "followups_after_tools", False))


def followup_message(items: list[FollowUp], language: str, max_tokens: int) -> tuple[Message, list[str]]:
    """One user message for everything taken at a boundary (each follow-up bounded like a
    question), and the warnings for those that were cut."""
    texts, warnings = [], []
    for item in items:
        text, cut = bound_question(item.text.strip(), max_tokens)
        if cut:
            warnings.append(message("followup_cut", language, n=len(text) - 4))  # 4: " […]"
        texts.append(text)
    return {"role": "user", "content": message("followup", language, text="\n\n".join(texts))}, warnings


def hand_over(
    items: list[FollowUp], messages: list[Message], writer: StreamWriter, language: str, max_tokens: int
) -> str:
    """Add the follow-ups taken at this boundary to the run's messages; the stream text that says so."""
    if not items:
        return ""
    msg, warnings = followup_message(items, language, max_tokens)
    messages.append(msg)
    return "".join(writer.block(ReActType.WARNING, w) for w in warnings)


def hold_back(
    inbox: Inbox, step: Step, messages: list[Message], writer: StreamWriter, language: str, max_tokens: int
) -> str | None:
    """An answer is about to be given: with follow-ups waiting, it becomes a Draft, the
    model's turn and the follow-ups join the messages, and the loop runs again (the stream
    text is returned). None when nothing is waiting: the answer goes ahead."""
    items = inbox.take()
    if not items:
        return None
    messages.append({"role": "assistant", "content": step.model_text or step.answer or ""})
    out = writer.block(ReActType.DRAFT, message("followup_held", language))
    return out + hand_over(items, messages, writer, language, max_tokens)
