"""The follower of a turn running elsewhere: each look reads the turn again and draws
what the store has; once the run is over the page runs again; while the store cannot
be read the turn stays as drawn, with the store's one sentence."""

from streamlit.testing.v1 import AppTest


def script(mode: str) -> None:
    import streamlit as st

    from components.live_follow import follow_live
    from components.state import Turn
    from engine.store.errors import Unavailable

    st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    turn = Turn(id="a1", role="assistant", status="running", live=True, content="Thought: first\n")

    def read(shown: Turn) -> Turn | None:
        st.session_state.setdefault("read", []).append(shown.id)
        if mode == "down":
            raise Unavailable("The conversation database cannot be reached right now.")
        if mode == "over":  # the run ended: the first look finds it answered, the next page run shows it
            if st.session_state["runs"] == 1:
                return shown.model_copy(update={"status": "answered", "live": False})
            return shown
        return shown.model_copy(update={"content": shown.content + "Thought: second\n"})

    follow_live(turn, "en", read, lambda live: st.markdown(live.content), None, 0.25)


def run(mode: str) -> AppTest:
    return AppTest.from_function(script, args=(mode,)).run()


def test_each_look_draws_the_turn_as_the_store_has_it_now():
    at = run("growing")
    assert not at.exception
    assert at.session_state["read"] == ["a1"]
    assert [m.value for m in at.markdown] == ["Thought: first\nThought: second"]
    assert any("Running in another tab" in c.value for c in at.caption)


def test_a_run_found_over_runs_the_page_again():
    at = run("over")
    assert not at.exception
    assert at.session_state["runs"] == 2 and at.session_state["read"] == ["a1", "a1"]


def test_a_store_that_cannot_be_read_keeps_the_turn_drawn_with_one_sentence():
    at = run("down")
    assert not at.exception
    assert at.session_state["runs"] == 1  # no rerun loop while the database is away
    assert [m.value for m in at.markdown] == ["Thought: first"]
    assert any("cannot be reached right now" in c.value for c in at.caption)
