"""The native wire protocol: function calling. The model's text is a Thought or the
answer; tool calls arrive whole in the message's metadata; results go back as
``tool`` messages."""

from __future__ import annotations

import json
from typing import Any

from engine.errors import FormatError
from engine.llm.base import Abilities, Message, ToolCallRequest
from engine.react.prompts import message, render
from engine.react.protocols.base import Decision, PromptContext, append_note, assistant_message
from engine.react.protocols.reader import ReActReader
from engine.react.step import Step, ToolCall
from engine.react.stream import StreamWriter
from engine.react.types import ANSWER_TYPES, ReActType
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry

NO_REPLY = "(no reply)"
ACCEPTED = frozenset({ReActType.THOUGHT, *ANSWER_TYPES})


def _calls(meta: dict[str, Any]) -> list[ToolCallRequest]:
    return [ToolCallRequest.model_validate(c) for c in meta.get("tool_calls") or []]


def to_call(request: ToolCallRequest) -> ToolCall:
    try:
        args = json.loads(request.arguments or "{}")
    except ValueError:
        args = None
    if not isinstance(args, dict):
        return ToolCall(id=request.id, name=request.name, raw_arguments=request.arguments)
    return ToolCall(id=request.id, name=request.name, args=args)


class NativeProtocol:
    name = "native"
    followups_after_tools = True  # a user message may not come between tool calls and their results

    def fits(self, abilities: Abilities) -> bool:
        return abilities.tool_call

    def system_prompt(self, prompt: PromptContext, registry: ToolRegistry) -> str:
        return render(
            "system_native",
            context=prompt.context,
            citation_rule=prompt.citation_rule,
            style=prompt.style,
            answer_placeholder=message("answer_placeholder"),
        )

    def call_kwargs(self, registry: ToolRegistry, config: EngineConfig, abilities: Abilities) -> dict[str, Any]:
        return {"tools": registry.function_schemas()}

    def reader(self, writer: StreamWriter) -> ReActReader:
        # A message that opens without a label is held whole: it is the answer as written,
        # unless tool calls arrive, and then it was a Thought.
        return ReActReader(writer, ACCEPTED, hold_unlabeled=True, terminal=ANSWER_TYPES | {ReActType.UNKNOWN})

    def finish(self, reader: ReActReader, meta: dict[str, Any]) -> str:
        if not _calls(meta):
            return reader.release(ReActType.ANSWER)
        out = reader.release(ReActType.THOUGHT)
        if reader.answer_written():  # streamed as an answer before the calls arrived: retype it
            out += reader.writer.block(ReActType.DRAFT, message("draft_with_calls"))
        return out

    def interpret(self, reader: ReActReader, meta: dict[str, Any], registry: ToolRegistry) -> Decision:
        blocks = reader.blocks()
        thought = "\n".join(b.content for b in blocks if b.type is ReActType.THOUGHT and b.content)
        requests = _calls(meta)
        if requests:
            return Decision(thought=thought, calls=[to_call(r) for r in requests])
        answer = next((b.content for b in blocks if b.type in ANSWER_TYPES), None)
        if answer is None or not answer.strip():
            if meta.get("finish_reason") == "length":
                raise FormatError(message("format_cut_native"))
            raise FormatError(message("format_no_answer_no_call"))
        return Decision(thought=thought, answer=answer, answer_cut=meta.get("finish_reason") == "length")

    def announce(self, writer: StreamWriter, decision: Decision) -> str:
        return writer.calls(decision.calls)  # the calls came out of band: write them as Action blocks

    def step_messages(self, step: Step) -> list[Message]:
        calls = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments_json}}
            for c in step.calls
        ]
        messages: list[Message] = [assistant_message(step, step.thought, tool_calls=calls)]
        for obs in step.observations:
            messages.append({"role": "tool", "tool_call_id": obs.call_id, "name": obs.tool, "content": obs.text})
        if step.notes and step.observations:
            append_note(messages, "\n".join(n.text for n in step.notes))
        return messages

    def feedback(self, messages: list[Message], problem: str) -> None:
        feedback = render("reformat_native", problem=problem)
        if messages[-1]["role"] == "tool":
            append_note(messages, feedback)
            return
        messages.append({"role": "assistant", "content": NO_REPLY})
        messages.append({"role": "user", "content": feedback})

    def user_reply(self, call: ToolCall, answer: str) -> list[Message]:
        return [{"role": "tool", "tool_call_id": call.id, "name": call.name, "content": answer}]

    def final_request(self, messages: list[Message], instruction: str) -> tuple[list[Message], dict[str, Any]]:
        messages = [dict(m) for m in messages]
        if messages[-1]["role"] == "tool":
            append_note(messages, instruction)
        elif messages[-1]["role"] == "user":
            messages[-1]["content"] += f"\n{instruction}"
        else:
            messages.append({"role": "user", "content": instruction})
        return messages, {}
