"""The conversation in the session: every turn in its tree, the branch on show in ``turns``."""

from components.state import Conversation, Turn


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
