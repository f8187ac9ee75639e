"""AppTest of the chat page's feedback: thumbs under each answer, a click stores the
rating for this user, a comment is saved beside it (or refused in one sentence, the
text kept), and a reopened conversation shows both; the export carries them."""

import json
import os

import streamlit as st

import components.chat_sidebar
from components.feedback import comment_key, thumbs_key
from engine.store import ConversationStore
from engine.store.inputs import LOCAL_USER, MAX_COMMENT_CHARS
from tests.apptest_helpers import new_app


def asked(app_env, question="What was Q3 revenue?", answer="Revenue was 11.6 M€ in Q3."):
    app_env.script.extend([{"text": f"Answer: {answer}"}])
    at = new_app()
    at.chat_input[0].set_value(question).run()
    assert not at.exception
    conversation = at.session_state["conversation"]
    return at, conversation.id, conversation.turns[-1]


def stored_feedback(conversation_id: str, turn_id: str, user: str = LOCAL_USER):
    store = ConversationStore(os.environ["DATABASE_URL"])
    try:
        record = store.get(user, conversation_id)
        if record is None:
            return "no conversation"
        return next(t for t in record.turns if t["id"] == turn_id).get("feedback")
    finally:
        store.close()


def save_comment(at, turn, text):
    at.text_area(key=comment_key(turn)).input(text)
    next(b for b in at.button if b.label == "Save the comment").click()
    return at.run()


def refusals(at) -> list[str]:
    """The feedback's own one-sentence refusals (the answer's cautions are warnings too)."""
    return [w.value for w in at.warning if w.icon == ":material/rate_review:"]


def reopen(conversation_id: str):
    st.cache_resource.clear()  # a restarted server
    at = new_app()
    at.query_params["c"] = conversation_id
    return at.run()


def test_thumbs_under_an_answer_store_the_rating_and_a_click_again_clears_it(app_env):
    at, cid, answer = asked(app_env)
    assert [f.key for f in at.feedback] == [thumbs_key(answer)]  # one per answer, none under the question
    assert at.feedback[0].value is None
    at.feedback(key=thumbs_key(answer)).set_value(1).run()
    assert not at.exception
    assert stored_feedback(cid, answer.id)["rating"] == "up"
    at.feedback(key=thumbs_key(answer)).set_value(0).run()
    assert stored_feedback(cid, answer.id)["rating"] == "down"
    at.feedback(key=thumbs_key(answer)).set_value(None).run()
    assert stored_feedback(cid, answer.id) is None
    assert at.session_state["conversation"].turns[-1].feedback is None


def test_a_comment_is_saved_with_the_rating_and_a_reopened_conversation_shows_both(app_env, monkeypatch):
    exported = []
    real = components.chat_sidebar.to_json
    monkeypatch.setattr(components.chat_sidebar, "to_json", lambda c, *a: exported.append(real(c, *a)) or exported[-1])
    at, cid, answer = asked(app_env)
    at.feedback(key=thumbs_key(answer)).set_value(0).run()
    hostile = 'Wrong quarter: that is Q2. <img src=x onerror="alert(1)"> ![p](http://evil.example/p.png)'
    at = save_comment(at, answer, hostile)
    assert not at.exception and refusals(at) == [], [w.value for w in at.warning]
    assert stored_feedback(cid, answer.id) == {"rating": "down", "comment": hostile, "updated_at": ANY_TIME}
    again = reopen(cid)
    assert not again.exception
    assert again.feedback(key=thumbs_key(answer)).value == 0  # the thumb down shows as chosen
    assert again.text_area(key=comment_key(answer)).value == hostile
    assert json.loads(exported[-1])["turns"][1]["feedback"]["comment"] == hostile  # the export of the reopened one
    assert all("onerror" not in m.value for m in again.markdown)  # the comment is drawn in its box only


class _AnyTime:
    def __eq__(self, other):
        return isinstance(other, str) and other[:2] == "20" and "T" in other


ANY_TIME = _AnyTime()


def test_a_comment_too_long_or_without_a_rating_gets_one_sentence_and_stays_in_its_box(app_env):
    at, cid, answer = asked(app_env)
    at = save_comment(at, answer, "A comment without a rating.")
    assert refusals(at) == [
        "Rate the answer with a thumb up or down before adding a comment; your text is kept in the box."
    ]
    assert at.text_area(key=comment_key(answer)).value == "A comment without a rating."
    assert stored_feedback(cid, answer.id) is None
    at.feedback(key=thumbs_key(answer)).set_value(1).run()
    assert refusals(at) == []
    long = "y" * (MAX_COMMENT_CHARS + 5)
    at = save_comment(at, answer, long)
    assert len(refusals(at)) == 1 and f"this one has {MAX_COMMENT_CHARS + 5:,}" in refusals(at)[0]
    assert at.text_area(key=comment_key(answer)).value == long  # nothing typed is lost
    assert stored_feedback(cid, answer.id) == {"rating": "up", "comment": "", "updated_at": ANY_TIME}


def test_another_user_opening_the_conversation_sees_neither_it_nor_its_rating(app_env, monkeypatch):
    import components.users

    who = ["alice"]
    monkeypatch.setattr(components.users, "current_user", lambda lang="en": who[0])
    at, cid, answer = asked(app_env)
    at.feedback(key=thumbs_key(answer)).set_value(0).run()
    at = save_comment(at, answer, "alice's private comment")
    assert stored_feedback(cid, answer.id, "alice")["comment"] == "alice's private comment"
    who[0] = "mallory"
    other = reopen(cid)
    assert not other.exception
    assert other.session_state["conversation"].turns == [] and len(other.feedback) == 0
    assert all("alice's private comment" not in a.value for a in other.text_area)
    assert stored_feedback(cid, answer.id, "mallory") == "no conversation"
