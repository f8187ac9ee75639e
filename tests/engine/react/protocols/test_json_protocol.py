"""The JSON wire protocol: chosen from declared abilities (native, then JSON, then
text), one JSON object per step requested with response_format json_object, one
reformat retry, then the text format for the rest of the run."""

import json

import pytest

from engine.llm.base import Abilities
from engine.llm.factory import BackendSpec, ModelsFile, build_llm, load_models_file, resolve_spec
from engine.llm.mistral import MistralLLM
from engine.llm.openai_compat import OpenAICompatLLM
from engine.llm.scripted import Reply, ScriptedLLM
from engine.react.agent import ReActEngine
from engine.react.parser import parse_blocks
from engine.react.protocols import select
from engine.react.protocols.json_mode import read_step
from engine.react.types import ANSWER_TYPES, ReActType
from engine.settings import EngineConfig, Settings
from engine.tools.toolkits import general_toolkit

JSON_FORMAT = {"type": "json_object"}
CALL = json.dumps({"thought": "I multiply.", "action": "calculator", "action_input": {"expression": "17 * 23"}})
ANSWER = json.dumps({"thought": "I can answer now.", "answer": "17 × 23 = 391."})


def json_engine(script, **config):
    llm = ScriptedLLM(script, json_mode=True)
    return ReActEngine(config=EngineConfig(**config), llm=llm, tools=general_toolkit())


@pytest.mark.parametrize(
    ("abilities", "name"),
    [
        (Abilities(json_mode=True), "json"),
        (Abilities(json_mode=True, tool_call=True), "native"),
        (Abilities(tool_call=True), "native"),
        (Abilities(), "text"),
    ],
)
def test_the_protocol_follows_the_declared_abilities(abilities, name):
    assert select(abilities).name == name


def test_models_json_declares_an_openai_compatible_models_abilities(tmp_path):
    path = tmp_path / "models.json"
    path.write_text(
        json.dumps({"backend": {"kind": "openai", "model": "qwen3", "base_url": "http://h/v1", "json_mode": True}})
    )
    spec = resolve_spec(Settings(models_json=path), load_models_file(path))
    llm = build_llm(spec)
    assert llm.abilities.json_mode and not llm.abilities.tool_call
    assert select(llm.abilities).name == "json"
    both = BackendSpec(kind="openai", model="m", base_url="http://h/v1", json_mode=True, tool_call=True)
    assert select(build_llm(both).abilities).name == "native"
    env = resolve_spec(Settings.from_env({"OPENAI_BASE_URL": "http://h/v1", "OPENAI_JSON_MODE": "1"}), ModelsFile())
    assert env.json_mode and select(build_llm(env).abilities).name == "json"


def test_a_json_run_calls_a_tool_and_answers():
    engine = json_engine([CALL, ANSWER])
    assert engine.protocol.name == "json"
    text = "".join(engine.stream_sync("What is 17*23?"))
    blocks = parse_blocks(text)
    assert [(b.type, b.content) for b in blocks] == [
        (ReActType.THOUGHT, "I multiply."),
        (ReActType.ACTION, "calculator"),
        (ReActType.ACTION_INPUT, '{"expression": "17 * 23"}'),
        (ReActType.OBSERVATION, "391"),
        (ReActType.THOUGHT, "I can answer now."),
        (ReActType.ANSWER, "17 × 23 = 391."),
    ]
    assert engine.result.status == "answered" and engine.result.answer == "17 × 23 = 391."
    assert all(kw["response_format"] == JSON_FORMAT for kw in engine.llm.kwargs)
    system = engine.llm.calls[0][0]["content"]
    assert "one JSON object" in system and "calculator" in system
    second = engine.llm.calls[1]
    assert json.loads(second[-2]["content"])["action"] == "calculator"  # the model's own step, as JSON
    assert second[-1] == {"role": "user", "content": "Observation: 391"}


def test_the_json_protocol_reasoning_is_a_thought_too():
    engine = json_engine([Reply(text=ANSWER, reasoning="Quick: 17 * 23 is 391.")])
    blocks = parse_blocks("".join(engine.stream_sync("What is 17*23?")))
    assert [b.type for b in blocks] == [ReActType.THOUGHT, ReActType.THOUGHT, ReActType.ANSWER]
    assert blocks[0].content == "Quick: 17 * 23 is 391."
    assert engine.result.answer == "17 × 23 = 391."


def test_one_unreadable_reply_gets_one_reformat_retry():
    engine = json_engine(["not json at all", CALL, ANSWER])
    text = "".join(engine.stream_sync("What is 17*23?"))
    assert engine.result.status == "answered" and engine.result.answer == "17 × 23 = 391."
    assert engine.protocol.name == "json"
    warnings = [b.content for b in parse_blocks(text) if b.type is ReActType.WARNING]
    assert len(warnings) == 1 and "not one JSON object" in warnings[0]
    assert "Reply again with one JSON object" in engine.llm.calls[1][-1]["content"]
    assert engine.llm.kwargs[1]["response_format"] == JSON_FORMAT


def test_two_unreadable_replies_fall_back_to_the_text_format_for_the_rest_of_the_run():
    text_call = 'Thought: I multiply.\nAction: calculator\nAction Input: {"expression": "17 * 23"}'
    engine = json_engine(["{broken", '{"thought": "no decision"}', text_call, "Thought: done\nAnswer: 391."])
    text = "".join(engine.stream_sync("What is 17*23?"))
    assert engine.result.status == "answered" and engine.result.answer == "391."
    assert engine.protocol.name == "text" and engine.result.steps[-1].answer == "391."
    warnings = [b.content for b in parse_blocks(text) if b.type is ReActType.WARNING]
    assert any("the rest of this run uses the text format" in w for w in warnings)
    third = engine.llm.calls[2]
    assert "Action Input: the tool input as JSON" in third[0]["content"]  # the text format's system prompt
    assert "one JSON object" not in third[0]["content"]
    assert "response_format" not in engine.llm.kwargs[2] and "response_format" not in engine.llm.kwargs[3]
    assert "Observation: 391" in engine.llm.calls[3][-1]["content"]


def test_the_fallback_warning_is_in_the_runs_language():
    engine = json_engine(["nope", "nope again", "Answer: 391."], language="fr")
    text = "".join(engine.stream_sync("Combien font 17*23 ?"))
    assert any("format texte" in b.content for b in parse_blocks(text) if b.type is ReActType.WARNING)


def test_a_wrong_tool_is_not_an_unreadable_reply():
    wrong = json.dumps({"thought": "go", "action": "teleport", "action_input": {}})
    engine = json_engine([wrong, wrong, ANSWER])
    engine.get_engine_response("What is 17*23?")
    assert engine.protocol.name == "json" and engine.result.answer == "17 × 23 = 391."
    assert "no tool named 'teleport'" in engine.llm.calls[1][-1]["content"]


def test_a_forced_final_answer_in_json_mode_is_its_answer_never_its_thought():
    final = json.dumps({"thought": "SECRET-THOUGHT", "answer": "It is 391."})
    engine = json_engine([CALL, final], max_iterations=1)
    text = "".join(engine.stream_sync("What is 17*23?"))
    answers = [b.content for b in parse_blocks(text) if b.type in ANSWER_TYPES]
    assert answers[-1].strip() == "It is 391." and engine.result.answer == "It is 391."
    assert "SECRET-THOUGHT" not in text.split("Answer:")[-1]
    assert engine.llm.kwargs[-1]["response_format"] == JSON_FORMAT


def test_a_run_that_fell_back_resumes_in_the_text_format():
    ask = 'Thought: I need the year.\nAction: ask_user\nAction Input: {"question": "Which year?"}'
    engine = json_engine(["x", "y", ask])
    engine.get_engine_response("What was revenue?")
    assert engine.result.status == "suspended" and engine.result.suspended.state.mode == "text"
    resumed = json_engine(["Thought: fine\nAnswer: Revenue in 2024 is not in the sources."])
    resumed.resume(engine.result.suspended, "2024")
    assert resumed.protocol.name == "text" and resumed.result.status == "answered"
    assert "response_format" not in resumed.llm.kwargs[0]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty"),
        ("Answer: 3", "not one JSON object"),
        ('{"thought": "hm"}', "neither"),
        ('{"thought": {"a": 1}, "answer": "x"}', "'thought' is not text"),
    ],
)
def test_unreadable_steps_say_what_is_wrong(text, problem):
    from engine.errors import UnreadableOutput

    with pytest.raises(UnreadableOutput, match=problem):
        read_step(text)


def test_lenient_reading_of_a_step():
    assert read_step('```json\n{"thought": "t", "answer": 42}\n```').answer == "42"
    step = read_step('Sure: {"action": "calculator", "action_input": "2+2",}')
    assert (step.action, step.action_input) == ("calculator", "2+2")


def test_response_format_reaches_an_openai_compatible_server(fake_server):
    fake_server.script.extend([{"text": CALL}, {"text": ANSWER}])
    llm = OpenAICompatLLM(base_url=f"http://127.0.0.1:{fake_server.port}/v1", model="m", json_mode=True)
    engine = ReActEngine(config={}, llm=llm, tools=general_toolkit())
    engine.get_engine_response("What is 17*23?")
    assert engine.result.answer == "17 × 23 = 391."
    assert [r["response_format"] for r in fake_server.requests] == [JSON_FORMAT, JSON_FORMAT]
    assert "tools" not in fake_server.requests[0]


def test_response_format_goes_through_the_mistral_sdk(fake_server):
    fake_server.script.extend([{"text": CALL}, {"text": ANSWER}])
    llm = MistralLLM(api_key="k", server_url=f"http://127.0.0.1:{fake_server.port}")
    engine = ReActEngine(config={"wire_protocol": "json"}, llm=llm, tools=general_toolkit())
    engine.get_engine_response("What is 17*23?")
    assert engine.result.answer == "17 × 23 = 391."
    assert fake_server.requests[0]["response_format"] == JSON_FORMAT


def test_after_a_fallback_a_forced_final_written_in_json_is_read_for_its_answer():
    final = json.dumps({"thought": "SECRET-THOUGHT", "answer": "It is 391."})
    engine = json_engine(["x", "y", "still no format", "nor now", final], max_format_retries=1)
    text = "".join(engine.stream_sync("What is 17*23?"))
    assert engine.protocol.name == "text"
    assert engine.result.answer == "It is 391."
    assert "SECRET-THOUGHT" not in engine.result.answer and "SECRET-THOUGHT" not in text


def test_a_text_run_that_never_was_json_keeps_a_json_final_answer_as_written():
    from tests.helpers import make_engine, run

    final = '{"region": "France", "revenue": 1000}'
    engine = make_engine(["no format", "no format", final], max_format_retries=1)
    run(engine)
    assert engine.protocol.name == "text" and engine.result.answer == final


def test_ollama_native_json_mode_is_its_format_field(fake_server):
    fake_server.script.append({"text": ANSWER})
    llm = OpenAICompatLLM(base_url=f"http://127.0.0.1:{fake_server.port}/api", model="qwen3", json_mode=True)
    engine = ReActEngine(config={}, llm=llm, tools=general_toolkit())
    engine.get_engine_response("What is 17*23?")
    assert engine.result.answer == "17 × 23 = 391."
    assert fake_server.requests[0]["format"] == "json" and "response_format" not in fake_server.requests[0]


def test_the_thought_streams_live_when_it_comes_first():
    from engine.react.protocols.json_mode import ThoughtField

    step = json.dumps({"thought": 'Line one.\nAnswer: "no", é \\ done.', "answer": "17 × 23 = 391."})
    field = ThoughtField()
    pieces = [field.feed(step[i : i + 3]) for i in range(0, len(step), 3)]
    assert "".join(pieces) == 'Line one.\nAnswer: "no", é \\ done.'
    assert sum(1 for p in pieces if p) > 5 and field.done
    assert ThoughtField().feed(json.dumps({"answer": "x", "thought": "late"})) == ""  # not first: shown at the end

    engine = json_engine([json.dumps({"thought": "Line one.\nAnswer: 999", "answer": "17 × 23 = 391."})])
    tokens = list(engine.stream_sync("What is 17*23?"))
    blocks = parse_blocks("".join(tokens))
    assert [(b.type, b.content) for b in blocks] == [
        (ReActType.THOUGHT, "Line one.\nAnswer: 999"),  # a label in the thought never opens a block
        (ReActType.ANSWER, "17 × 23 = 391."),
    ]
    assert engine.result.answer == "17 × 23 = 391."
    assert sum(1 for t in tokens if t and t in "Line one.\n") > 1  # written as it came
