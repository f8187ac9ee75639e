"""Regression fixtures: malformed-output patterns that users of other agent frameworks
report in their issue trackers. Each must end in a clean answer."""

import pytest

from engine.react.parser import parse_blocks
from engine.react.types import ANSWER_TYPES, ReActType
from tests.helpers import assert_well_ended, make_engine, run

FINAL = "Thought: I can answer now.\nAnswer: The result is 4."

CASES = [
    # LlamaIndex ReActAgent "Could not parse output": prose with no Action and no Answer label.
    ("could_not_parse_output", ["Thought: I can answer without tools.\nThe result is 4.", FINAL], "The result is 4."),
    # The whole ReAct turn wrapped in a markdown code fence: the fence wraps the step, and
    # its closing fence is not part of the answer.
    ("answer_in_code_fences", ["```\nThought: simple.\nAnswer: The result is 4.\n```"], "The result is 4."),
    # The model writes its own Observation (hallucinated tool output) and an answer after it.
    (
        "model_writes_observation",
        ['Thought: add\nAction: calculator\nAction Input: {"expression": "2+2"}\nObservation: 5\nAnswer: 5', FINAL],
        "The result is 4.",
    ),
    # LangChain "Parsing LLM output produced both a final answer and a parse-able action".
    (
        "answer_and_action_together",
        ['Thought: x\nAction: calculator\nAction Input: {"expression": "2+2"}\nFinal Answer: 4', FINAL],
        "The result is 4.",
    ),
    # smolagents / LangChain: the JSON input inside a ```json fence.
    (
        "json_in_code_fence",
        ['Thought: add\nAction: calculator\nAction Input: ```json\n{"expression": "2+2"}\n```', FINAL],
        "The result is 4.",
    ),
    # LangChain JSON agents: a Python dict with single quotes instead of JSON.
    (
        "single_quoted_input",
        ["Thought: add\nAction: calculator\nAction Input: {'expression': '2+2'}", FINAL],
        "The result is 4.",
    ),
    # Trailing commentary after the JSON object on the Action Input line.
    (
        "text_after_json",
        ['Thought: add\nAction: calculator\nAction Input: {"expression": "2+2"} (this adds them)', FINAL],
        "The result is 4.",
    ),
    # The tool called inline, function style, on the Action line.
    ("inline_call", ["Thought: add\nAction: calculator(2+2)", FINAL], "The result is 4."),
    # Bold and lower-case labels from chat-tuned models.
    ("bold_labels", ["**thought:** easy\n**final answer:** The result is 4."], "The result is 4."),
    # An empty completion (seen with local servers) after a tool call.
    (
        "empty_after_observation",
        ['Thought: add\nAction: calculator\nAction Input: {"expression": "2+2"}', "", FINAL],
        "The result is 4.",
    ),
    # No Thought at all, straight to the Action.
    ("action_without_thought", ['Action: calculator\nAction Input: {"expression": "2+2"}', FINAL], "The result is 4."),
    # LangChain structured-chat style: a JSON blob instead of labels.
    (
        "json_blob_instead_of_labels",
        ['{"action": "calculator", "action_input": {"expression": "2+2"}}', FINAL],
        "The result is 4.",
    ),
    # "Action: None" when no tool is needed.
    ("action_none", ["Thought: no tool needed\nAction: None", FINAL], "The result is 4."),
    # French labels from a model answering in French.
    ("french_labels", ["Pensée : c'est simple.\nRéponse finale : Le résultat est 4."], "Le résultat est 4."),
    # A base model that keeps going with a new "Question:" after its answer.
    (
        "continues_with_new_question",
        ["Thought: ok\nAnswer: The result is 4.\nQuestion: what about 5?\nThought: hmm"],
        "The result is 4.",
    ),
]


@pytest.mark.parametrize(("name", "script", "answer"), CASES, ids=[c[0] for c in CASES])
def test_heldout_pattern_ends_in_a_clean_answer(name, script, answer):
    engine = make_engine(script)
    text = run(engine)
    assert_well_ended(text)
    assert engine.result.status == "answered"
    assert engine.result.answer == answer
    assert parse_blocks(text)[-1].type in ANSWER_TYPES


def test_action_with_answer_runs_the_action_first():
    engine = make_engine(CASES[3][1])
    text = run(engine)
    observations = [b.content for b in parse_blocks(text) if b.type is ReActType.OBSERVATION]
    assert observations == ["4"]
