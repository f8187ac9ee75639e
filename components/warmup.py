"""Loading what the first question needs while the analyst reads the page: the
embedding model, the chat model when it runs in-process, the theme's index, the tool
router's vectors and the MCP servers. The page shows how far it got; a question asked
before it is done waits for it, and the turn's time includes that wait."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import streamlit as st

from components.i18n import t
from engine.context import EngineContext


@dataclass
class Warmup:
    steps: dict[str, str] = field(default_factory=dict)  # step → "loading" | "ready" | a failure sentence
    done: threading.Event = field(default_factory=threading.Event)
    started: float = field(default_factory=time.monotonic)

    def run(self, context: EngineContext, theme: str | None) -> None:
        tasks = [("embeddings", lambda: context.embed(["warm up"]))]
        if context.settings.mistral_api_key is None and context.settings.openai_base_url is None:
            tasks.append(
                ("chat_model", lambda: context.build_llm().generate([{"role": "user", "content": "Hi"}], max_tokens=1))
            )
        if theme:
            tasks.append(("index", lambda: context.indexes.get(theme)))
        tasks.append(("tools", lambda: context.route("warm up", context.registry(theme))))  # tables load here too
        for name, _ in tasks:
            self.steps[name] = "loading"
        for name, task in tasks:
            try:
                task()
                self.steps[name] = "ready"
            except Exception as exc:  # the run will say what is wrong in its own words; warm-up only prepares
                self.steps[name] = f"{type(exc).__name__}"
        self.done.set()

    def wait(self, timeout_s: float = 120.0) -> float:
        """Block until warm-up is done; the seconds waited."""
        started = time.monotonic()
        self.done.wait(timeout_s)
        return time.monotonic() - started


@st.cache_resource(show_spinner=False)
def _start(_context: EngineContext, theme: str | None) -> Warmup:
    warmup = Warmup()
    threading.Thread(target=warmup.run, args=(_context, theme), daemon=True, name="warmup").start()
    return warmup


def start_warmup(context: EngineContext, theme: str | None) -> Warmup:
    """Once per server and theme; returns at once."""
    return _start(context, theme)


REFRESH_S = 1.0  # how often the status redraws itself while loading; nothing runs once warm


def status_line(warmup: Warmup, lang: str) -> str | None:
    """The one-line status while models load; None once they are ready."""
    if warmup.done.is_set():
        return None
    ready = [t(f"warm_{name}", lang) for name, state in warmup.steps.items() if state == "ready"]
    waiting = [t(f"warm_{name}", lang) for name, state in warmup.steps.items() if state == "loading"]
    line = t("warm_loading", lang, items=", ".join(waiting) or "…")
    if ready:
        line += " " + t("warm_ready", lang, items=", ".join(ready))
    return line


@st.fragment(run_every=REFRESH_S)
def _live_status(warmup: Warmup, lang: str) -> None:
    line = status_line(warmup, lang)
    if line is None:  # warm: the whole page reruns once, draws the samples, and no longer draws this fragment
        st.rerun()
    st.caption(f":material/downloading: {line}")


def show_status(warmup: Warmup, lang: str) -> None:
    """The status while models load, redrawn by itself every ``REFRESH_S`` until warm-up
    is done; nothing once it is (an idle page then runs nothing)."""
    if warmup.done.is_set():
        return
    _live_status(warmup, lang)
