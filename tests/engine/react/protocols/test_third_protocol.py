"""A third wire mode is one protocol class and one entry in ``PROTOCOLS``: this toy
protocol has the model answer in JSON objects, and the loop runs it unchanged."""

import json
import uuid

from engine.errors import FormatError
from engine.react import protocols
from engine.react.protocols.base import Decision
from engine.react.step import ToolCall
from engine.react.types import ReActType
from tests.helpers import make_engine, run, types_of


class JsonReader:
    def __init__(self, writer):
        self.writer = writer
        self.parts = []

    def feed(self, delta):
        self.parts.append(delta)
        return ""

    def close(self):
        return ""


class JsonProtocol:
    """The model writes {"thought", "action", "input"} or {"thought", "answer"}."""

    name = "json-toy"

    def fits(self, abilities):
        return False  # only when asked for by name

    def system_prompt(self, prompt, registry):
        return "Reply with one JSON object: thought and either action+input or answer. Tools: " + ", ".join(
            registry.names()
        )

    def call_kwargs(self, registry, config, abilities):
        return {}

    def reader(self, writer):
        return JsonReader(writer)

    @staticmethod
    def _data(reader):
        try:
            data = json.loads("".join(reader.parts))
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def finish(self, reader, meta):
        data = self._data(reader) or {}
        out = reader.writer.block(ReActType.THOUGHT, data["thought"]) if data.get("thought") else ""
        if "answer" in data:
            out += reader.writer.block(ReActType.ANSWER, data["answer"])
        return out

    def interpret(self, reader, meta, registry):
        data = self._data(reader)
        if data is None:
            raise FormatError("reply with one JSON object.")
        raw, thought = "".join(reader.parts), data.get("thought", "")
        if "answer" in data:
            return Decision(thought=thought, model_text=raw, answer=data["answer"])
        call = ToolCall(id=uuid.uuid4().hex[:8], name=data["action"], args=data.get("input") or {})
        return Decision(thought=thought, model_text=raw, calls=[call])

    def announce(self, writer, decision):
        return writer.calls(decision.calls)

    def step_messages(self, step):
        observations = [{"observation": o.text} for o in step.observations]
        return [
            {"role": "assistant", "content": step.model_text},
            {"role": "user", "content": json.dumps(observations)},
        ]

    def feedback(self, messages, problem):
        messages.append({"role": "user", "content": json.dumps({"error": problem})})

    def user_reply(self, call, answer):
        return [{"role": "user", "content": json.dumps({"observation": answer})}]

    def final_request(self, messages, instruction):
        return [*messages, {"role": "user", "content": instruction}], {}


def test_a_toy_protocol_runs_through_the_unchanged_loop(monkeypatch):
    monkeypatch.setattr(protocols, "PROTOCOLS", (*protocols.PROTOCOLS, JsonProtocol()))  # the one entry
    script = [
        json.dumps({"thought": "multiply", "action": "calculator", "input": {"expression": "17 * 23"}}),
        "not json at all",
        json.dumps({"thought": "done", "answer": "17 * 23 = 391"}),
    ]
    engine = make_engine(script, wire_protocol="json-toy")
    text = run(engine)
    assert engine.result.status == "answered" and engine.result.answer == "17 * 23 = 391"
    kinds = types_of(text)
    assert kinds[:5] == [
        ReActType.THOUGHT,
        ReActType.ACTION,
        ReActType.ACTION_INPUT,
        ReActType.OBSERVATION,
        ReActType.WARNING,
    ]
    assert kinds[-1] is ReActType.ANSWER
    assert json.loads(engine.llm.calls[1][-1]["content"]) == [{"observation": "391"}]
    assert "reply with one JSON object" in engine.llm.calls[2][-1]["content"]


def test_unknown_protocol_name_is_one_readable_error():
    import pytest

    with pytest.raises(ValueError, match="Unknown wire protocol 'nope'"):
        make_engine([], wire_protocol="nope")
