"""A turn's follow-ups on the page, and what becomes of them when the run ends."""

from streamlit.testing.v1 import AppTest


def settled(ended: bool):
    from components.run_task import settle_followups
    from components.state import SentFollowUp, Turn
    from engine.react.followups import FollowUp

    turn = Turn(
        role="assistant",
        followups=[SentFollowUp(id="t1", text="taken one"), SentFollowUp(id="w1", text="left one")],
    )
    nxt = settle_followups(turn, [FollowUp(id="t1", text="taken one")], [FollowUp(id="w1", text="left one")], ended)
    return turn, nxt


def test_what_the_run_left_after_its_answer_is_the_next_question():
    turn, nxt = settled(True)
    assert nxt == ["w1"]  # the next question once a page claims it; kept in the turn till then
    assert [(f.text, f.status) for f in turn.followups] == [("taken one", "taken"), ("left one", "unread")]


def test_after_a_stop_what_the_run_left_stays_in_the_turn_unread_and_nothing_is_asked():
    turn, nxt = settled(False)
    assert nxt == []
    assert [(f.text, f.status) for f in turn.followups] == [("taken one", "taken"), ("left one", "unread")]


def test_a_message_sent_too_late_for_the_run_is_queued_as_the_next_question():
    def script() -> None:
        from components.followup_view import queue_next_question

        queue_next_question("first")
        queue_next_question("<b>second</b>")

    at = AppTest.from_function(script).run()
    assert not at.exception
    assert at.session_state["followup_next_question"] == "first\n\n<b>second</b>"


def test_follow_ups_are_drawn_as_the_analysts_messages_marked_and_inert():
    def script() -> None:
        from components.followup_view import draw_followups
        from components.state import SentFollowUp, Turn

        turn = Turn(role="assistant", followups=[SentFollowUp(id="a", text="![x](http://evil/p.png) <b>hi</b>")])
        draw_followups(turn, "fr")
        draw_followups(turn, "en", live=True, n=3)

    at = AppTest.from_function(script).run()
    assert not at.exception
    assert [m.name for m in at.chat_message] == ["user", "user"]
    assert "envoyé pendant l'exécution" in at.caption[0].value
    assert "waiting for the next step" in at.caption[1].value
    assert all("](http://evil" not in m.value or "\\![" in m.value for m in at.markdown)
    assert all("<b>" not in m.value for m in at.markdown)
    assert [b.key for b in at.button] == ["fu_recall_a_3", "fu_save_a_3"]  # only the live one: Recall, and Save
