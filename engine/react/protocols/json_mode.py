"""The JSON wire protocol, for backends that declare JSON mode but not function
calling: each step is one JSON object, ``{"thought", "action", "action_input"}`` or
``{"thought", "answer"}``, requested with ``response_format: json_object``.

A reply that is not such an object raises ``UnreadableOutput``: the loop asks once
for a reformat, then falls back to ``fallback`` (the text protocol) for the rest of
the run. Tool results go back as ``Observation:`` user messages, as in text mode, so
the conversation stays readable after a fallback.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from engine.errors import UnreadableOutput
from engine.llm.base import Abilities, Message
from engine.react.parser import MODEL_LABELS, parse_blocks
from engine.react.prompts import message, render
from engine.react.protocols.action_input import _json_object, parse_action_input, resolve_tool_name, strip_fence
from engine.react.protocols.base import Decision, PromptContext
from engine.react.protocols.text import TextProtocol
from engine.react.step import ToolCall
from engine.react.stream import ReasoningStream, StreamWriter
from engine.react.types import ANSWER_TYPES, ReActType
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry

NO_REPLY = "(no reply)"
RESPONSE_FORMAT = {"type": "json_object"}
_THOUGHT_FIRST = re.compile(r'\s*(?:```(?:json)?\s*)?\{\s*"thought"\s*:\s*"')
_ESCAPES = {"n": "\n", "t": "\t", "r": "", "b": "", "f": "", '"': '"', "\\": "\\", "/": "/"}


class ThoughtField:
    """The ``"thought"`` string of a step, decoded as it streams, when it is the
    object's first key (as the prompt asks): it can be shown live."""

    def __init__(self) -> None:
        self.buf = ""
        self.pos: int | None = None
        self.done = False

    def feed(self, delta: str) -> str:
        self.buf += delta
        if self.done:
            return ""
        if self.pos is None:
            match = _THOUGHT_FIRST.match(self.buf)
            if match is None:
                return ""
            self.pos = match.end()
        out, buf, i = [], self.buf, self.pos
        while i < len(buf):
            ch = buf[i]
            if ch == '"':
                self.done = True
                break
            if ch != "\\":
                out.append(ch)
                i += 1
                continue
            if i + 1 >= len(buf) or (buf[i + 1] == "u" and i + 6 > len(buf)):
                break  # an escape cut between two deltas: wait for the rest
            if buf[i + 1] == "u":
                code = buf[i + 2 : i + 6]
                out.append(chr(int(code, 16)) if re.fullmatch(r"[0-9a-fA-F]{4}", code) else "")
                i += 6
                continue
            out.append(_ESCAPES.get(buf[i + 1], buf[i + 1]))
            i += 2
        self.pos = i
        return "".join(out)


class JsonStep(BaseModel):
    """One step as the model writes it; unknown keys are ignored."""

    model_config = ConfigDict(extra="ignore")

    thought: str = ""
    action: str | None = None
    action_input: dict[str, Any] | str | None = None
    answer: str | None = None

    @field_validator("thought", "answer", "action", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        """A number or a list where text belongs is read as its text ("answer": 42)."""
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, (int, float, bool)):
            return str(value)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return "\n".join(value)
        return value


def read_step(text: str) -> JsonStep:
    """The step in ``text``, or ``UnreadableOutput`` saying what is wrong with it."""
    raw = strip_fence(text)
    if not raw:
        raise UnreadableOutput(message("format_json_empty"))
    data = _json_object(raw[raw.find("{") :]) if "{" in raw else None
    if data is None:
        raise UnreadableOutput(message("format_json_not_object"))
    try:
        step = JsonStep.model_validate(data)
    except ValidationError as exc:
        field = ".".join(str(p) for p in exc.errors()[0]["loc"]) or "the object"
        raise UnreadableOutput(message("format_json_field_not_text", field=field)) from None
    if not step.action and (step.answer is None or not step.answer.strip()):
        raise UnreadableOutput(message("format_json_no_action"))
    return step


class JsonReader:
    """Shows the step's thought live, when it comes first; the rest waits until the
    object is complete: a half-written object is no block."""

    def __init__(self, writer: StreamWriter) -> None:
        self.writer = writer
        self.parts: list[str] = []
        self._field = ThoughtField()
        self._live = ReasoningStream(writer)  # the thought is model text: no line of it opens a block

    @property
    def thought_shown(self) -> bool:
        return bool(self._live.parts)

    def feed(self, delta: str) -> str:
        self.parts.append(delta)
        out = self._live.feed(self._field.feed(delta), False)
        return out + (self._live.end() if self._field.done else "")

    def close(self) -> str:
        return self._live.end()

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def step(self) -> JsonStep | None:
        try:
            return read_step(self.text)
        except UnreadableOutput:
            return None


class JsonProtocol:
    name = "json"
    fallback = "text"  # the protocol for the rest of a run whose replies do not parse

    def fits(self, abilities: Abilities) -> bool:
        return abilities.json_mode and not abilities.tool_call

    def system_prompt(self, prompt: PromptContext, registry: ToolRegistry) -> str:
        return render(
            "system_json",
            context=prompt.context,
            tools=registry.text_descriptions(),
            tool_names=", ".join(registry.names()),
            citation_rule=prompt.citation_rule,
            style=prompt.style,
            ready=prompt.ready,
            answer_placeholder=message("answer_placeholder"),
        )

    def call_kwargs(self, registry: ToolRegistry, config: EngineConfig, abilities: Abilities) -> dict[str, Any]:
        return {"response_format": dict(RESPONSE_FORMAT)}

    def reader(self, writer: StreamWriter) -> JsonReader:
        return JsonReader(writer)

    def finish(self, reader: JsonReader, meta: dict[str, Any]) -> str:
        step = reader.step()
        if step is None:
            return ""
        shown = reader.thought_shown
        out = reader.writer.block(ReActType.THOUGHT, step.thought) if step.thought.strip() and not shown else ""
        if not step.action and step.answer is not None:
            out += reader.writer.block(ReActType.ANSWER, step.answer.strip(), end=False)
        return out

    def interpret(self, reader: JsonReader, meta: dict[str, Any], registry: ToolRegistry) -> Decision:
        cut = meta.get("finish_reason") == "length"
        try:
            step = read_step(reader.text)
        except UnreadableOutput as exc:
            if cut:
                raise UnreadableOutput(message("format_json_cut")) from None
            raise exc from None
        model_text = step.model_dump_json(exclude_none=True)
        if not step.action:
            assert step.answer is not None
            return Decision(thought=step.thought, model_text=model_text, answer=step.answer.strip(), answer_cut=cut)
        name, inline = resolve_tool_name(step.action, registry)
        tool = registry.get(name)
        assert tool is not None
        required = bool(tool.json_schema().get("required"))
        given = step.action_input if step.action_input is not None else inline
        if isinstance(given, dict):
            args = given
        else:
            args = parse_action_input(given or "", name, tool.single_string_field, required)
        call = ToolCall(id=f"call_{uuid.uuid4().hex[:9]}", name=name, args=args)
        return Decision(thought=step.thought, model_text=model_text, calls=[call])

    def announce(self, writer: StreamWriter, decision: Decision) -> str:
        return writer.calls(decision.calls)  # the calls were JSON: write them as Action blocks

    # Observations, reformat requests and the analyst's replies go back as in the text format
    reformat_template = "reformat_json"
    step_messages = TextProtocol.step_messages
    feedback = TextProtocol.feedback
    user_reply = TextProtocol.user_reply

    def final_request(self, messages: list[Message], instruction: str) -> tuple[list[Message], dict[str, Any]]:
        messages = [dict(m) for m in messages]
        request = render("final_json", instruction=instruction)
        if messages[-1]["role"] == "user":
            messages[-1]["content"] += f"\n{request}"
        else:
            messages.append({"role": "user", "content": request})
        return messages, {"response_format": dict(RESPONSE_FORMAT)}

    def final_text(self, text: str) -> str:
        return structured_answer(text)


def opens_structured(text: str) -> bool:
    """The reply opens with a JSON object (possibly fenced): it is read whole, not as text."""
    head = text.lstrip()
    return head.startswith("{") or (head.startswith("```") and "{" in head and strip_fence(head).startswith("{"))


def structured_answer(text: str) -> str:
    """The answer in a forced final reply: its "answer", or, when the model wrote text
    instead, its Answer (never its Thought). A model that fell back to the text format
    may still write JSON, so the text protocol's final reply is read this way too
    when it opens with an object."""
    try:
        step = read_step(text)
    except UnreadableOutput:
        if strip_fence(text).startswith("{"):
            return ""  # a JSON object without an answer: nothing in it is the answer
        blocks = parse_blocks(text, MODEL_LABELS)
        answers = [b.content for b in blocks if b.type in ANSWER_TYPES]
        return "\n".join(answers or [b.content for b in blocks if b.type is ReActType.UNKNOWN]).strip()
    return (step.answer or "").strip() if not step.action else ""
