"""The answer shown, stored, exported and returned is exactly what the model wrote as
its answer (a leading answer label aside), in both wire modes."""

import pytest

from components.export import to_json, to_markdown
from components.state import Conversation, Turn
from engine.llm.scripted import Reply
from engine.react.parser import parse_blocks
from engine.react.types import ANSWER_TYPES, ReActType
from tests.helpers import call, make_engine, run, types_of

LABEL_LINES = [
    "Observation: the stock count is wrong",
    "Thought: check again tomorrow",
    "Action: call the supplier",
    "Action Input: the purchase order",
    "Answer: this line is part of the plan",
    "Error: not an error block",
    "Warning: not a warning block",
    "Final Answer: still the same answer",
]
BODIES = [
    "Here is the plan:\n" + "\n".join(LABEL_LINES) + "\nThat is all.",
    "Here is the plan:\n```text\n" + "\n".join(LABEL_LINES) + "\n```\nThat is all.",
]


def shown_answer(text: str) -> str:
    answers = [b.content for b in parse_blocks(text) if b.type in ANSWER_TYPES]
    assert len(answers) == 1, types_of(text)
    return answers[0]


@pytest.mark.parametrize("body", BODIES, ids=["plain", "fenced"])
@pytest.mark.parametrize("native", [False, True], ids=["text", "native"])
def test_label_like_lines_never_cut_drop_or_alter_an_answer(body, native):
    engine = make_engine([f"Thought: I know this.\nAnswer: {body}"], native=native)
    text = run(engine)
    assert engine.result.status == "answered"
    assert engine.result.answer == body
    assert shown_answer(text) == body
    assert ReActType.ERROR not in types_of(text) and ReActType.OBSERVATION not in types_of(text)
    turn = Turn(role="assistant", content=text, answer=engine.result.answer)
    conversation = Conversation(turns=[Turn(role="user", content="plan?"), turn])
    assert body in to_markdown(conversation)
    assert body.replace("\n", "\\n") in to_json(conversation)


@pytest.mark.parametrize("body", BODIES, ids=["plain", "fenced"])
def test_a_native_message_without_tool_calls_is_the_answer_as_written(body):
    engine = make_engine([body], native=True)
    text = run(engine)
    assert engine.result.answer == body
    assert shown_answer(text) == body


def test_usage_is_counted_when_an_answer_holds_an_observation_line():
    engine = make_engine(["Thought: ok\nAnswer: a\nObservation: b\nc"])
    run(engine)
    assert engine.result.answer == "a\nObservation: b\nc"
    assert engine.result.usage.completion_tokens > 0


FINAL_WITH_ACTION = (
    'Thought: I will compute it.\nAction: calculator\nAction Input: {"expression": "17 * 23"}\n'
    "Final Answer: 17 * 23 = 291"
)


def test_a_final_answer_written_with_an_action_is_never_the_answer():
    engine = make_engine([FINAL_WITH_ACTION, "Thought: done\nAnswer: 17 * 23 = 391"])
    text = run(engine)
    blocks = parse_blocks(text)
    assert "291" not in "".join(b.content for b in blocks if b.type in ANSWER_TYPES)
    assert [b.content for b in blocks if b.type is ReActType.OBSERVATION] == ["391"]
    assert engine.result.answer == "17 * 23 = 391"
    sent = engine.llm.calls[1]
    assert not any("291" in (m.get("content") or "") for m in sent)  # not kept in the history either
    conversation = Conversation(turns=[Turn(role="assistant", content=text, answer=engine.result.answer)])
    assert "291" not in to_markdown(conversation) and "291" not in to_json(conversation)


def test_native_answer_streamed_before_tool_calls_becomes_a_draft():
    first = Reply(
        text="Answer: 17 * 23 = 291",
        tool_calls=[{"id": "c1", "name": "calculator", "arguments": '{"expression": "17 * 23"}'}],
    )
    engine = make_engine([first, "Answer: 17 * 23 = 391"], native=True)
    text = run(engine)
    blocks = parse_blocks(text)
    assert [b.content for b in blocks if b.type in ANSWER_TYPES] == ["17 * 23 = 391"]
    assert [b.content for b in blocks if b.type is ReActType.DRAFT] == ["17 * 23 = 291"]
    assert engine.result.answer == "17 * 23 = 391"


def test_an_action_after_an_answer_is_part_of_the_answer():
    engine = make_engine([f"Thought: plan\nAnswer: Step one.\n{call('calculator', {'expression': '1+1'})}"])
    run(engine)
    assert engine.result.answer.startswith("Step one.\nThought: I need a tool.\nAction: calculator")
    assert len(engine.llm.calls) == 1
