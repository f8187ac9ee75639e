"""What the analyst does in the page while a run streams, heard by the page drawing it.

A run is a task of the server (``components/run_task.py``) that a script run draws, and
any click or message asks Streamlit for a new script run, which would end the drawing
at its next yield point (the run itself goes on: the new script run draws it again).
So, while a run is drawn, the script's request is looked at first, at every yield
point: a message typed in the chat box, a click on a follow-up's Recall or Save, or the
run's Stop is taken by the page (the request is used up, the drawing goes on). A Stop
clicked together with anything else stops the run and is handed back. Anything else
(any other widget, a page switch, a message with files) is handed back to Streamlit
exactly as it came: the script run ends and the next one draws the run again.

This wraps, for the run's duration only, the session's ``ScriptRequests.on_scriptrunner_yield``
(the call Streamlit makes itself at each yield point). Without a script run context (no
server, or Streamlit's internals moved), nothing is taken and the page behaves as
without follow-ups."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

from pydantic import BaseModel

CHAT_KEY = "chat"
STOP_KEY = "run_stop"  # the Stop under the run being drawn
RECALL, SAVE, TEXT = "fu_recall", "fu_save", "fu_text"  # follow-up widget keys: f"{kind}_{id}_{n}"
_TRIGGERS = ("trigger_value", "string_trigger_value", "chat_input_value", "json_trigger_value")


class Incoming(BaseModel):
    kind: Literal["send", "recall", "edit", "stop"]
    text: str = ""
    followup_id: str = ""


def followup_key(kind: str, followup_id: str, n: int) -> str:
    return f"{kind}_{followup_id}_{n}"


def _parse_key(key: str | None) -> tuple[str, str] | None:
    """``(kind, followup_id)`` of a follow-up widget's key."""
    for kind in (RECALL, SAVE, TEXT):
        if key and key.startswith(kind + "_"):
            followup_id, _, n = key[len(kind) + 1 :].rpartition("_")
            if followup_id and n.isdigit():
                return kind, followup_id
    return None


def _active(state: Any) -> bool:
    kind = state.WhichOneof("value")
    if kind not in _TRIGGERS:
        return False
    value = getattr(state, kind)
    return bool(value.ListFields()) if hasattr(value, "ListFields") else bool(value)


def stop_clicked(widget_states: Any) -> bool:
    """Whether the run's Stop is among what a rerun's widget states trigger."""
    from streamlit.runtime.state.common import user_key_from_element_id

    if widget_states is None:
        return False
    return any(
        _active(s) and s.WhichOneof("value") == "trigger_value" and user_key_from_element_id(s.id) == STOP_KEY
        for s in widget_states.widgets
    )


def read(widget_states: Any, chat_key: str = CHAT_KEY) -> Incoming | None:
    """The one thing of a rerun's widget states that the run takes, or None when the
    rerun asks for anything else (then the script run must end as Streamlit meant)."""
    from streamlit.runtime.state.common import user_key_from_element_id

    if widget_states is None:
        return None
    active = [s for s in widget_states.widgets if _active(s)]
    if len(active) != 1:
        return None
    state = active[0]
    key = user_key_from_element_id(state.id)
    if key == STOP_KEY and state.WhichOneof("value") == "trigger_value":
        return Incoming(kind="stop")
    if key == chat_key and state.WhichOneof("value") == "chat_input_value":
        value = state.chat_input_value
        attached = bool(value.file_uploader_state.uploaded_file_info) or value.HasField("audio_file_info")
        if attached or not value.data.strip():  # files and audio are taken in by a new script run
            return None
        return Incoming(kind="send", text=value.data)
    parsed = _parse_key(key)
    if parsed is None or state.WhichOneof("value") != "trigger_value":
        return None
    kind, followup_id = parsed
    if kind == RECALL:
        return Incoming(kind="recall", followup_id=followup_id)
    if kind == SAVE:
        texts = [
            s.string_value
            for s in widget_states.widgets
            if s.WhichOneof("value") == "string_value"
            and _parse_key(user_key_from_element_id(s.id)) == (TEXT, followup_id)
        ]
        if texts and texts[-1].strip():
            return Incoming(kind="edit", followup_id=followup_id, text=texts[-1])
    return None


@contextmanager
def hearing(chat_key: str = CHAT_KEY, on_stop: Callable[[], None] | None = None) -> Iterator[list[Incoming]]:
    """While the block runs, what the analyst does that the run takes lands in the list
    yielded (in order) instead of ending the script run; everything else ends it as before.
    ``on_stop`` is called at once when the run's Stop comes with other clicks (handed back)."""
    heard: list[Incoming] = []
    try:
        from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
        requests = getattr(ctx, "script_requests", None)
        original = requests.on_scriptrunner_yield if requests is not None else None
    except (ImportError, AttributeError):  # Streamlit's internals moved: a click ends the run, as without follow-ups
        original = None
    if original is None:
        yield heard
        return

    def filtered() -> Any:
        request = original()
        if request is None or request.type is not ScriptRequestType.RERUN:
            return request
        data = request.rerun_data
        same_page = not data.page_script_hash or data.page_script_hash == getattr(ctx, "page_script_hash", "")
        try:
            if on_stop is not None and stop_clicked(data.widget_states):
                on_stop()
            taken = read(data.widget_states, chat_key) if same_page and not data.fragment_id_queue else None
        except Exception:  # a request shaped otherwise than expected: Streamlit handles it, as without follow-ups
            taken = None
        if taken is None:
            return request  # Streamlit reruns, as it would have
        heard.append(taken)  # the request is used up: the run goes on
        return None

    requests.on_scriptrunner_yield = filtered  # Streamlit asks this at every yield point of the script
    try:
        yield heard
    finally:
        del requests.on_scriptrunner_yield  # the class's own again
