"""Feedback on answers: set, changed, cleared, kept apart from the turn's own saves, and
scoped to its user (another user can neither read nor set it)."""

import json

import pytest
import sqlalchemy as sa

from engine.store import BadInput, ConversationStore, NotFound, Unavailable
from engine.store.inputs import MAX_COMMENT_CHARS
from engine.store.resilient import ResilientStore


def answered(store, user="alice", question="What was Q3 revenue?", answer="11.6 M€"):
    conv = store.create(user, "")
    store.save_turn(user, conv.id, {"id": "u1", "role": "user", "content": question})
    store.save_turn(user, conv.id, {"id": "a1", "role": "assistant", "answer": answer, "status": "answered"})
    return conv.id


def feedback_of(store, user, conversation_id, turn_id="a1"):
    turn = next(t for t in store.get(user, conversation_id).turns if t["id"] == turn_id)
    return turn.get("feedback")


def test_a_rating_is_kept_with_the_turn_changed_and_cleared(store):
    cid = answered(store)
    store.set_feedback("alice", cid, "a1", "down", "  The figure is Q2's, not Q3's.  ")
    first = feedback_of(store, "alice", cid)
    assert (first["rating"], first["comment"]) == ("down", "The figure is Q2's, not Q3's.")
    assert first["updated_at"]
    store.set_feedback("alice", cid, "a1", "up")
    assert (feedback_of(store, "alice", cid)["rating"], feedback_of(store, "alice", cid)["comment"]) == ("up", "")
    store.set_feedback("alice", cid, "a1", None)
    assert feedback_of(store, "alice", cid) is None
    assert store.rated_turns("alice") == []


def test_saving_the_turn_again_keeps_its_rating_and_stores_none_in_the_turn(store):
    cid = answered(store)
    store.set_feedback("alice", cid, "a1", "up", "right")
    turn = next(t for t in store.get("alice", cid).turns if t["id"] == "a1")
    store.save_turn("alice", cid, turn | {"feedback": {"rating": "down", "comment": "forged"}})
    assert feedback_of(store, "alice", cid)["rating"] == "up"
    assert feedback_of(store, "alice", cid)["comment"] == "right"
    with store.engine.connect() as conn:
        data = conn.execute(sa.text("SELECT data FROM turns WHERE id = 'a1'")).scalar()
    assert (json.loads(data) if isinstance(data, str) else data)["feedback"] is None  # nothing of it in the turn


def test_another_user_can_neither_read_nor_set_a_rating(store):
    cid = answered(store)
    store.set_feedback("alice", cid, "a1", "down", "wrong quarter")
    with pytest.raises(NotFound):
        store.set_feedback("mallory", cid, "a1", "up", "overwritten")
    with pytest.raises(NotFound):
        store.set_feedback("mallory", cid, "a1", None)
    assert store.get("mallory", cid) is None
    assert store.rated_turns("mallory") == []
    # mallory's own conversation, with a turn of the same id, is rated apart
    other = answered(store, "mallory")
    store.set_feedback("mallory", other, "a1", "up")
    assert feedback_of(store, "alice", cid)["rating"] == "down"
    assert feedback_of(store, "alice", cid)["comment"] == "wrong quarter"
    assert [(r.conversation_id, r.feedback.rating) for r in store.rated_turns("alice")] == [(cid, "down")]
    assert [(r.conversation_id, r.feedback.rating) for r in store.rated_turns("mallory")] == [(other, "up")]


def test_bad_ratings_and_comments_get_one_sentence_and_change_nothing(store):
    cid = answered(store)
    store.set_feedback("alice", cid, "a1", "up", "kept")
    too_long = "x" * (MAX_COMMENT_CHARS + 1)
    for rating, comment, words in [
        ("up", too_long, f"at most {MAX_COMMENT_CHARS} characters"),
        (None, "a comment alone", "needs a rating"),
        ("meh", "", "'up' or 'down'"),
        ("up", 42, "must be text"),
    ]:
        with pytest.raises(BadInput) as caught:
            store.set_feedback("alice", cid, "a1", rating, comment)
        assert words in str(caught.value) and str(caught.value).count(".") <= 2
    with pytest.raises(BadInput, match="Only an answer"):
        store.set_feedback("alice", cid, "u1", "up")
    for turn_id in ("nope", "../a1", "a1' OR 1=1 --"):
        with pytest.raises(NotFound):
            store.set_feedback("alice", cid, turn_id, "up")
    assert (feedback_of(store, "alice", cid)["rating"], feedback_of(store, "alice", cid)["comment"]) == ("up", "kept")


def test_a_comment_keeps_its_text_as_text(store):
    cid = answered(store)
    hostile = '<script>alert("x")</script>\n\x00second line\x07 — «é»'
    store.set_feedback("alice", cid, "a1", "down", hostile)
    assert feedback_of(store, "alice", cid)["comment"] == '<script>alert("x")</script>\n second line  — «é»'


def test_rated_turns_bring_their_question_and_follow_the_rating_order(store):
    cid = answered(store, question="Q3 revenue?", answer="11.6 M€")
    store.save_turn("alice", cid, {"id": "u2", "role": "user", "content": "And Q4?"})
    store.save_turn(
        "alice", cid, {"id": "a2", "role": "assistant", "answer": "12 M€", "grounding": {"grounding": "ok"}}
    )
    store.set_feedback("alice", cid, "a2", "up", "")
    store.set_feedback("alice", cid, "a1", "down", "wrong")
    rated = store.rated_turns("alice")
    assert [(r.question, r.turn["answer"], r.feedback.rating) for r in rated] == [
        ("And Q4?", "12 M€", "up"),
        ("Q3 revenue?", "11.6 M€", "down"),
    ]
    assert [r.turn["id"] for r in store.rated_turns("alice", "down")] == ["a1"]


def test_deleting_the_conversation_deletes_its_ratings(store):
    cid = answered(store)
    store.set_feedback("alice", cid, "a1", "up")
    store.delete("alice", cid)
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM feedback")).scalar() == 0
    assert store.rated_turns("alice") == []


class Flaky(ConversationStore):
    """A real store whose database can be made unreachable for the feedback calls and reads."""

    down = False

    def set_feedback(self, *args, **kwargs):
        if self.down:
            raise Unavailable("down")
        return super().set_feedback(*args, **kwargs)

    def get(self, *args, **kwargs):
        if self.down:
            raise Unavailable("down")
        return super().get(*args, **kwargs)


def test_a_rating_given_while_the_database_is_down_is_saved_when_it_is_back(tmp_path):
    real = Flaky(f"sqlite:///{tmp_path / 'app.db'}")
    cid = answered(real)
    resilient = ResilientStore(factory=lambda: real, retry_every_s=0)
    assert resilient.get("alice", cid) is not None  # read once: shown while the database is down
    real.down = True
    resilient.set_feedback("alice", cid, "a1", "down", "first thought")
    resilient.set_feedback("alice", cid, "a1", "up", "on second thought")  # replaces the waiting one
    assert resilient.is_down
    assert feedback_of(resilient, "alice", cid)["comment"] == "on second thought"
    assert resilient.get("bob", cid) is None
    real.down = False
    assert resilient.flush()
    assert (feedback_of(real, "alice", cid)["rating"], feedback_of(real, "alice", cid)["comment"]) == (
        "up",
        "on second thought",
    )
    assert [r.feedback.rating for r in resilient.rated_turns("alice")] == ["up"]
    with pytest.raises(BadInput):  # checked at once, not queued to fail later
        resilient.set_feedback("alice", cid, "a1", "up", "x" * (MAX_COMMENT_CHARS + 1))
    real.close()


def test_the_store_export_carries_the_rating_of_its_user_only(store):
    cid = answered(store)
    store.set_feedback("alice", cid, "a1", "down", "wrong quarter")
    exported = json.loads(store.export("alice", cid))
    assert exported["turns"][1]["feedback"]["comment"] == "wrong quarter"
    assert "feedback" not in exported["turns"][0]
    with pytest.raises(NotFound):
        store.export("mallory", cid)
