"""Follow-ups sent while the agent works (FIM One's rules): taken at the next step
boundary (after the tool results in native mode), merged, held answers, recall and
edit, and what comes after the answer left for the next turn."""

from __future__ import annotations

import threading

import pytest
from pydantic import BaseModel

from engine.llm.scripted import Reply
from engine.react.followups import Inbox
from engine.react.opening import compress_history
from engine.react.parser import parse_blocks
from engine.react.types import ReActType
from engine.tools.base import Tool
from tests.helpers import call, make_engine, run

FOLLOWUP_MARK = "[Follow-up from the analyst"


def injecting(engine_box: list, *texts: str, then: object):
    """A script item that, while the model writes its step, has the analyst send ``texts``."""

    def item(messages, kw):
        for text in texts:
            engine_box[0].inject(text)
        return then

    return item


def followup_messages(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["role"] == "user" and FOLLOWUP_MARK in (m.get("content") or "")]


def native_call(expression: str, call_id: str = "c1") -> Reply:
    return Reply(
        text="Thought: I compute.",
        tool_calls=[{"id": call_id, "name": "calculator", "arguments": f'{{"expression": "{expression}"}}'}],
    )


def assert_valid_native_order(messages: list[dict]) -> None:
    """Every assistant message with tool calls is followed by exactly its tool messages."""
    for i, m in enumerate(messages):
        if m["role"] == "assistant" and m.get("tool_calls"):
            ids = [c["id"] for c in m["tool_calls"]]
            following = messages[i + 1 : i + 1 + len(ids)]
            assert [f["role"] for f in following] == ["tool"] * len(ids), messages
            assert [f["tool_call_id"] for f in following] == ids


def test_native_takes_the_follow_up_only_after_the_tool_results():
    box: list = []
    engine = make_engine(
        [injecting(box, "Use 3 instead of 2.", then=native_call("2 + 2")), "Answer: 2 + 3 = 5."], native=True
    )
    box.append(engine)
    run(engine, "What is 2 + 2?")
    second = engine.llm.calls[1]
    assert_valid_native_order(second)
    assert [m["role"] for m in second[-3:]] == ["assistant", "tool", "user"]
    assert "Use 3 instead of 2." in second[-1]["content"] and FOLLOWUP_MARK in second[-1]["content"]
    assert [f.text for f in engine.result.followups] == ["Use 3 instead of 2."]
    assert engine.result.answer == "2 + 3 = 5."


class Peek(BaseModel):
    x: int = 0


class PeekInbox(Tool):
    """A tool that looks at what the engine's inbox still holds while it runs."""

    name = "peek"
    description = "Returns a number."
    Args = Peek

    def __init__(self, engine_box: list):
        self.box = engine_box
        self.pending_seen: list[str] | None = None

    async def run(self, args):
        self.pending_seen = [f.text for f in self.box[0].followups.pending()]
        return "41"


@pytest.mark.parametrize("native", [False, True])
def test_the_boundary_is_the_models_step_in_text_mode_and_the_tool_results_in_native(native):
    box: list = []
    tool = PeekInbox(box)
    first = Reply(text="Thought: peek.", tool_calls=[{"id": "p1", "name": "peek", "arguments": '{"x": 1}'}])
    first = first if native else call("peek", {"x": 1})
    engine = make_engine([injecting(box, "And add one.", then=first), "Answer: 42."], tools=[tool], native=native)
    box.append(engine)
    run(engine)
    # text: taken right after the model's step (the tool no longer sees it); native: after the tool ran
    assert tool.pending_seen == (["And add one."] if native else [])
    sent = engine.llm.calls[1]
    assert len(followup_messages(sent)) == 1 and sent[-1] == followup_messages(sent)[0]
    assert "And add one." in sent[-1]["content"]
    if not native:
        assert [m["role"] for m in sent[-3:]] == ["assistant", "user", "user"]  # the Observation, then the follow-up


@pytest.mark.parametrize("native", [False, True])
def test_follow_ups_taken_at_one_boundary_are_merged_into_one_user_message(native):
    box: list = []
    first = native_call("6 * 7") if native else call("calculator", {"expression": "6 * 7"})
    engine = make_engine([injecting(box, "First remark.", "Second remark.", then=first), "Answer: 42."], native=native)
    box.append(engine)
    run(engine)
    merged = followup_messages(engine.llm.calls[1])
    assert len(merged) == 1
    assert merged[0]["content"].index("First remark.") < merged[0]["content"].index("Second remark.")
    assert [f.text for f in engine.result.followups] == ["First remark.", "Second remark."]


@pytest.mark.parametrize("native", [False, True])
def test_an_answer_about_to_be_given_is_held_back_and_the_loop_runs_again(native):
    box: list = []
    engine = make_engine(
        [injecting(box, "Actually, in euros.", then="Answer: 100 dollars."), "Answer: 92 euros."], native=native
    )
    box.append(engine)
    text = run(engine)
    assert engine.result.answer == "92 euros."
    assert len(engine.llm.calls) == 2
    second = engine.llm.calls[1]
    assert [m["role"] for m in second[-2:]] == ["assistant", "user"]
    assert "100 dollars" in second[-2]["content"] and "Actually, in euros." in second[-1]["content"]
    blocks = parse_blocks(text)
    drafts = [b for b in blocks if b.type is ReActType.DRAFT]
    assert drafts and "100 dollars" in drafts[0].content  # the held answer shows as a draft, not the answer
    assert blocks[-1].type is ReActType.ANSWER and "92 euros" in blocks[-1].content
    if native:
        assert_valid_native_order(second)


def test_the_follow_up_is_part_of_the_runs_messages_in_the_stored_result():
    box: list = []
    engine = make_engine([injecting(box, "Per quarter please.", then="Answer: 400."), "Answer: 100 per quarter."])
    box.append(engine)
    run(engine)
    dumped = engine.result.model_dump(mode="json")
    assert [f["text"] for f in dumped["followups"]] == ["Per quarter please."]
    assert dumped["followups_left"] == []


def test_a_follow_up_not_yet_taken_can_be_recalled_or_edited():
    inbox = Inbox()
    a, b = inbox.put("first"), inbox.put("second")
    assert a is not None and b is not None
    assert inbox.edit(b.id, "second, edited")
    assert inbox.recall(a.id) == a
    assert [f.text for f in inbox.take()] == ["second, edited"]
    assert not inbox.edit(b.id, "too late") and inbox.recall(b.id) is None  # taken: part of the run now
    assert [f.text for f in inbox.taken()] == ["second, edited"]
    assert inbox.put("   ") is None and not inbox.edit("nope", "x")


def test_a_recalled_follow_up_never_reaches_the_model_and_an_edited_one_does_as_edited():
    box: list = []

    def send_then_change(messages, kw):
        engine = box[0]
        gone = engine.inject("Ignore the question.")
        kept = engine.inject("In euros.")
        engine.followups.recall(gone.id)
        engine.followups.edit(kept.id, "In euros, rounded.")
        return call("calculator", {"expression": "2 * 50"})

    engine = make_engine([send_then_change, "Answer: 100 euros."])
    box.append(engine)
    run(engine)
    sent = "\n".join(m["content"] or "" for m in engine.llm.calls[1])
    assert "Ignore the question." not in sent and "In euros, rounded." in sent
    assert [f.text for f in engine.result.followups] == ["In euros, rounded."]


def test_a_follow_up_after_the_answer_is_left_for_the_next_turn():
    engine = make_engine(["Answer: done."])
    run(engine)
    assert engine.inject("One more thing.") is None  # the caller sends it as the next question
    assert engine.result.followups == [] and engine.result.answer == "done."


def test_a_follow_up_sent_during_a_forced_final_answer_is_left_for_the_next_turn():
    box: list = []
    script = [
        call("calculator", {"expression": "1 + 1"}),
        injecting(box, "Sent during the final answer.", then="Answer: 2."),
    ]
    engine = make_engine(script, max_iterations=1)
    box.append(engine)
    run(engine)
    assert engine.result.answer == "2." and engine.result.followups == []
    assert [f.text for f in engine.result.followups_left] == ["Sent during the final answer."]
    assert engine.inject("And later.") is None


def test_inject_is_thread_safe():
    inbox = Inbox()
    threads = [threading.Thread(target=lambda i=i: [inbox.put(f"{i}-{n}") for n in range(200)]) for i in range(4)]
    taken: list = []
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        taken.extend(inbox.take())
    for t in threads:
        t.join()
    taken.extend(inbox.take())
    assert sorted(f.text for f in taken) == sorted(f"{i}-{n}" for i in range(4) for n in range(200))


def test_a_huge_follow_up_is_cut_for_the_model_and_the_run_says_so():
    box: list = []
    huge = "word " * 50_000
    engine = make_engine([injecting(box, huge, then="Answer: 1."), "Answer: 2."], question_max_tokens=200)
    box.append(engine)
    text = run(engine)
    merged = followup_messages(engine.llm.calls[1])[0]["content"]
    assert len(merged) < 2000 and merged.rstrip().endswith("[…]")
    assert any(b.type is ReActType.WARNING and "too long" in b.content for b in parse_blocks(text))
    assert engine.result.followups[0].text == huge  # the analyst's message itself is kept whole


def test_follow_ups_in_the_history_are_pinned_through_compression():
    followup = {"role": "user", "content": "Always in euros, please.", "pinned": True}
    history = [{"role": "user", "content": f"question {i} " + "x" * 400} for i in range(30)]
    history.insert(1, followup)
    history.insert(2, {"role": "assistant", "content": "An answer."})
    kept = compress_history(history, 400)
    assert any(m["content"] == "Always in euros, please." for m in kept)
    engine = make_engine(["Answer: ok."], history_token_budget=400)
    engine.set_history(history)
    assert any(m["content"] == "Always in euros, please." for m in engine.history)
