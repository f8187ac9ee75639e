"""The conversation in the session: every turn in its tree, the branch on show in ``turns``."""

import json
from pathlib import Path

import pytest

from components.state import Conversation, Turn
from engine.react.record import MAX_RECORD_ITEMS, TurnRecord
from engine.store import ConversationStore
from tests.components.record_scenario import conversation as recorded
from tests.components.record_scenario import outputs


def ask(conversation: Conversation, question: str, answer: str) -> tuple[Turn, Turn]:
    said, answered = Turn(role="user", content=question), Turn(role="assistant", answer=answer)
    conversation.add(said)
    conversation.add(answered)
    return said, answered


def test_an_edit_and_a_regenerate_are_siblings_and_show_switches_between_branches():
    conversation = Conversation()
    q1, a1 = ask(conversation, "Paris?", "180")
    conversation.branch_at(0)  # an edit of the first question
    q2, a2 = ask(conversation, "Lyon?", "150")
    assert (q1.parent_id, q2.parent_id, a2.parent_id) == (None, None, q2.id)
    assert conversation.siblings(q2) == [q1, q2] and conversation.turns == [q2, a2]
    conversation.branch_at(1)  # a regenerate of the answer
    a3 = Turn(role="assistant", answer="151")
    conversation.add(a3)
    assert conversation.siblings(a3) == [a2, a3] and a3.parent_id == q2.id
    assert [t.answer for t in conversation.history() and conversation.turns if t.role == "assistant"] == ["151"]
    conversation.show(q1.id)
    assert conversation.turns == [q1, a1] and conversation.tip == a1.id
    assert [m["content"] for m in conversation.history()] == ["Paris?", "180"]
    conversation.show(a2.id)
    assert conversation.turns == [q2, a2]
    conversation.show("unknown")  # the newest branch
    assert conversation.turns == [q2, a3]
    assert len(conversation.tree) == 5


def test_turns_given_alone_are_one_branch():
    turns = [Turn(role="user", content="Hi"), Turn(role="assistant", answer="Hello"), Turn(role="user", content="More")]
    conversation = Conversation(turns=turns)
    assert [t.parent_id for t in conversation.turns] == [None, turns[0].id, turns[1].id]
    assert all(conversation.siblings(t) == [t] for t in turns)
    conversation.show(None)
    assert conversation.turns == turns


OLD = json.loads((Path(__file__).parent / "old_turns.json").read_text(encoding="utf-8"))
HOSTILE_RECORDS = [
    "not a record",
    {"version": 1, "steps": "not a list"},
    {"version": 1, "blocks": [{"type": "answer", "text": ["not", "text"]}]},
    {"version": 1, "steps": [{"number": i} for i in range(MAX_RECORD_ITEMS + 1)]},
]


def opened(turns: list[dict]) -> Conversation:
    """A stored conversation as the page opens it (``persistence.open_from_url``)."""
    conversation = Conversation(id="c1", title="Quarterly", tree=[Turn.model_validate(item) for item in turns])
    conversation.show(None)
    return conversation


def test_a_conversation_stored_before_turns_kept_their_record_opens_and_exports_as_before():
    conv = opened(OLD["turns"])
    assert all(turn.record is None for turn in conv.tree)
    assert [turn.run_record().source for turn in conv.tree if turn.role == "assistant"] == ["stream"] * 5
    assert outputs(conv) == OLD["outputs"]


@pytest.fixture(scope="module")
def recorded_turns() -> list[Turn]:
    return recorded().tree


def test_a_turns_record_is_saved_and_read_back_equal(recorded_turns, tmp_path):
    store = ConversationStore(f"sqlite:///{tmp_path / 'app.db'}")
    conv = store.create("alice", "Quarterly")
    for turn in recorded_turns:
        store.save_turn("alice", conv.id, turn.model_dump(mode="json"))
    stored = store.get("alice", conv.id).turns
    store.close()
    back = [Turn.model_validate(item) for item in stored]
    records = [turn.run_record() for turn in recorded_turns if turn.role == "assistant"]
    assert [turn.run_record() for turn in back if turn.role == "assistant"] == records
    assert all(r.source == "engine" for r in records)
    assert [len(r.steps) for r in records] == [
        2,
        2,
        2,
        0,
        0,
    ]  # the asked question's reply is in the resumed run's steps
    assert outputs(opened(stored)) == OLD["outputs"]


@pytest.mark.parametrize("hostile", HOSTILE_RECORDS, ids=["text", "steps", "block", "huge"])
def test_a_stored_turn_whose_record_is_not_one_opens_from_its_stream_and_keeps_what_was_stored(
    hostile, recorded_turns, tmp_path
):
    store = ConversationStore(f"sqlite:///{tmp_path / 'app.db'}")
    conv = store.create("alice", "Quarterly")
    for turn in recorded_turns:
        store.save_turn("alice", conv.id, {**turn.model_dump(mode="json"), "record": hostile})
    stored = store.get("alice", conv.id).turns
    conversation = opened(stored)
    assert all(turn.run_record().source == "stream" for turn in conversation.tree if turn.role == "assistant")
    assert outputs(conversation) == OLD["outputs"]
    assert [item["record"] for item in store.get("alice", conv.id).turns] == [hostile] * len(stored)  # nothing lost
    store.close()


def test_the_history_reads_the_answer_the_record_holds_and_a_running_turn_its_own_fields():
    record = TurnRecord(answer="From the record.")
    done = Turn(id="a1", role="assistant", content="Answer: From the record.", answer="stale", record=record)
    conv = Conversation(turns=[Turn(id="u1", role="user", content="q"), done])
    assert conv.history()[-1] == {"role": "assistant", "content": "From the record."}
    done.status = "running"  # a record is whole only once its run ended
    assert conv.history()[-1]["content"] == "stale"
    assert [b.content for b in done.blocks] == ["From the record."]


def test_follow_ups_a_run_took_are_pinned_in_the_history_before_its_answer():
    from components.state import SentFollowUp

    turns = [
        Turn(role="user", content="Budget?"),
        Turn(
            role="assistant",
            answer="92 euros.",
            followups=[
                SentFollowUp(id="a", text="In euros.", status="taken"),
                SentFollowUp(id="b", text="Never read.", status="unread"),
            ],
        ),
    ]
    assert Conversation(turns=turns).history() == [
        {"role": "user", "content": "Budget?"},
        {"role": "user", "content": "In euros.", "pinned": True},
        {"role": "assistant", "content": "92 euros."},
    ]
