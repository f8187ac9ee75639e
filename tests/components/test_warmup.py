"""The warm-up status redraws itself while loading and is gone once warm."""

from streamlit.testing.v1 import AppTest

from components.warmup import Warmup, status_line


def test_the_status_line_follows_the_steps():
    warmup = Warmup(steps={"embeddings": "ready", "index": "loading"})
    loading = status_line(warmup, "en")
    assert "Loading in the background" in loading or "index" in loading.lower()
    warmup.steps["index"] = "ready"
    assert status_line(warmup, "en") != loading
    warmup.done.set()
    assert status_line(warmup, "en") is None


def _page():
    import streamlit as st

    from components.warmup import show_status

    show_status(st.session_state["warmup"], "en")
    st.write("page end")


def test_the_page_shows_a_live_status_while_loading_and_none_once_warm():
    warmup = Warmup(steps={"embeddings": "loading"})
    app = AppTest.from_function(_page)
    app.session_state["warmup"] = warmup
    app.run()
    assert any("downloading" in c.value for c in app.caption)
    warmup.steps["embeddings"] = "ready"
    warmup.done.set()
    app.run()
    assert not app.caption and app.markdown[-1].value == "page end"
