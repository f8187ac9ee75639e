"""After a Stop, draw the page again at once.

Once Streamlit stops a run, the stopped run can no longer draw anything, and the page
would keep showing "Thinking…" until the analyst clicks something. So the stopped run
leaves a helper thread that waits for the run to end and then asks the analyst's
session for a new run (on Streamlit's event loop), which redraws the turn as stopped,
with what it produced. Only session ids and the session's own rerun request are used;
under AppTest (no server), nothing happens."""

from __future__ import annotations

import threading
import time


def rerun_when_stopped(timeout_s: float = 10.0) -> None:
    try:
        from streamlit import runtime
        from streamlit.runtime.app_session import AppSessionState
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
        if ctx is None or not runtime.exists():
            return
        info = runtime.get_instance()._session_mgr.get_active_session_info(ctx.session_id)
    except Exception:  # Streamlit's internals moved: the page redraws on the next click instead
        return
    if info is None:
        return
    session = info.session

    def later() -> None:
        deadline = time.monotonic() + timeout_s
        while session._state == AppSessionState.APP_IS_RUNNING and time.monotonic() < deadline:
            time.sleep(0.05)
        try:
            session._event_loop.call_soon_threadsafe(session.request_rerun, None)
        except RuntimeError:  # the server is shutting down
            pass

    threading.Thread(target=later, daemon=True, name="redraw-after-stop").start()
