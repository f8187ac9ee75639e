"""The text wire protocol: the model writes ``Thought:`` / ``Action:`` / ``Action Input:``
/ ``Answer:`` lines; tool results come back as ``Observation:`` user messages. For any
backend, and the only one for models without function calling."""

from __future__ import annotations

import uuid
from typing import Any

from engine.errors import FormatError
from engine.llm.base import Abilities, Message
from engine.react.parser import MODEL_LABELS
from engine.react.prompts import message, render
from engine.react.protocols.action_input import parse_action_input, resolve_tool_name
from engine.react.protocols.base import Decision, PromptContext, assistant_message, block_text
from engine.react.protocols.reader import ReActReader
from engine.react.step import Step, ToolCall
from engine.react.stream import StreamWriter
from engine.react.types import ANSWER_TYPES, ReActBlock, ReActType
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry

NO_REPLY = "(no reply)"


def question_stop(abilities: Abilities) -> list[str]:
    """A model that goes on past its answer writes the next question: stop it there. (An
    ``Observation:`` it writes itself is stopped by the reader, not here, so that an
    answer containing such a line arrives whole.)"""
    return ["\nQuestion:"] if abilities.stop else []


class TextProtocol:
    name = "text"
    reformat_template = "reformat"  # the prompt that asks for a reply in this format again

    def fits(self, abilities: Abilities) -> bool:
        return True

    def system_prompt(self, prompt: PromptContext, registry: ToolRegistry) -> str:
        return render(
            "system_text",
            context=prompt.context,
            tools=registry.text_descriptions(),
            tool_names=", ".join(registry.names()),
            citation_rule=prompt.citation_rule,
            style=prompt.style,
            ready=prompt.ready,
            answer_placeholder=message("answer_placeholder"),
        )

    def call_kwargs(self, registry: ToolRegistry, config: EngineConfig, abilities: Abilities) -> dict[str, Any]:
        kw: dict[str, Any] = {"stop": question_stop(abilities)}
        if abilities.prefill:
            kw["assistant_prefix"] = "Thought:"
        return kw

    def reader(self, writer: StreamWriter) -> ReActReader:
        return ReActReader(writer, MODEL_LABELS, hold_unlabeled=False)

    def finish(self, reader: ReActReader, meta: dict[str, Any]) -> str:
        return ""

    def interpret(self, reader: ReActReader, meta: dict[str, Any], registry: ToolRegistry) -> Decision:
        return interpret_blocks(reader.blocks(), meta.get("finish_reason"), registry)

    def announce(self, writer: StreamWriter, decision: Decision) -> str:
        return ""  # the model wrote its Action and Action Input lines itself

    def step_messages(self, step: Step) -> list[Message]:
        messages: list[Message] = [assistant_message(step, step.model_text)]
        lines = [f"Observation: {o.text}" for o in step.observations]
        lines += [n.text for n in step.notes]
        if step.observations:
            messages.append({"role": "user", "content": "\n".join(lines)})
        return messages

    def feedback(self, messages: list[Message], problem: str) -> None:
        messages.append({"role": "assistant", "content": NO_REPLY})
        messages.append({"role": "user", "content": f"Observation: {render(self.reformat_template, problem=problem)}"})

    def user_reply(self, call: ToolCall, answer: str) -> list[Message]:
        return [{"role": "user", "content": f"Observation: {answer}"}]

    def final_request(self, messages: list[Message], instruction: str) -> tuple[list[Message], dict[str, Any]]:
        messages = [dict(m) for m in messages]
        if messages[-1]["role"] == "user":
            messages[-1]["content"] += f"\n{instruction}"
        else:
            messages.append({"role": "user", "content": instruction})
        return messages, {"assistant_prefix": "Answer:"}


def interpret_blocks(blocks: list[ReActBlock], finish_reason: str | None, registry: ToolRegistry) -> Decision:
    """An answer, one tool call, or a FormatError saying what to fix."""
    thought = "\n".join(b.content for b in blocks if b.type is ReActType.THOUGHT and b.content)
    model_text = block_text(blocks)
    truncated = finish_reason == "length"
    answer = next((b for b in blocks if b.type in ANSWER_TYPES), None)
    action_idx = next((i for i, b in enumerate(blocks) if b.type is ReActType.ACTION), None)
    if answer is not None and action_idx is None:
        if not answer.content.strip():
            raise FormatError(message("format_answer_empty"))
        return Decision(thought=thought, model_text=model_text, answer=answer.content, answer_cut=truncated)
    if action_idx is None:
        if truncated:
            raise FormatError(message("format_cut_thought"))
        if not any(b.content for b in blocks):
            raise FormatError(message("format_empty"))
        raise FormatError(message("format_thought_only"))
    name, inline = resolve_tool_name(blocks[action_idx].content, registry)
    tool = registry.get(name)
    assert tool is not None
    input_block = next((b for b in blocks[action_idx + 1 :] if b.type is ReActType.ACTION_INPUT), None)
    required = bool(tool.json_schema().get("required"))
    if input_block is None and inline is None:
        if truncated:
            raise FormatError(message("format_cut_before_input"))
        if required:
            raise FormatError(message("format_input_missing", name=name))
    text = input_block.content if input_block is not None else (inline or "")
    args = parse_action_input(text, name, tool.single_string_field, required)
    call = ToolCall(id=f"call_{uuid.uuid4().hex[:9]}", name=name, args=args)
    return Decision(thought=thought, model_text=model_text, calls=[call])
