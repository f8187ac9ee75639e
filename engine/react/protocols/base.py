"""What a wire protocol is: everything that differs between ways of talking to a
model (prompt, stop and prefix, reading its output, tool-result and feedback
messages). The loop picks one per run and never branches on the mode itself."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, Field

from engine.llm.base import Abilities, Message
from engine.react.step import Step, ToolCall
from engine.react.stream import StreamWriter
from engine.react.types import ReActBlock
from engine.settings import EngineConfig
from engine.tools.base import ToolRegistry


class PromptContext(BaseModel):
    """What a system prompt is made of."""

    context: str = ""  # the theme sentence
    style: str = ""
    citation_rule: str = ""
    earlier: str = ""  # summaries of earlier turns
    ready: str = "I can answer now."  # the format's last Thought, in the run's language


class Decision(BaseModel):
    """What one model step amounts to: an answer, or tool calls."""

    thought: str = ""
    model_text: str = ""
    answer: str | None = None
    answer_cut: bool = False
    calls: list[ToolCall] = Field(default_factory=list)


class StepReader(Protocol):
    def feed(self, delta: str) -> str: ...

    def close(self) -> str: ...


class WireProtocol(Protocol):
    """A protocol may also name a ``fallback`` protocol: after a reformat retry that
    still raised ``UnreadableOutput``, the loop uses that one for the rest of the run.
    A protocol with a ``final_text(text) -> str`` reads its forced final reply whole
    and gives the answer in it (a structured reply is no answer as written). A protocol with
    ``followups_after_tools = True`` takes the analyst's follow-ups only after a step's tool
    results (``engine/react/followups.py``), not right after the model's step."""

    name: str

    def fits(self, abilities: Abilities) -> bool: ...

    def system_prompt(self, prompt: PromptContext, registry: ToolRegistry) -> str: ...

    def call_kwargs(self, registry: ToolRegistry, config: EngineConfig, abilities: Abilities) -> dict[str, Any]: ...

    def reader(self, writer: StreamWriter) -> StepReader: ...

    def finish(self, reader: StepReader, meta: dict[str, Any]) -> str:
        """Text still to write once the model's message is complete."""
        ...

    def interpret(self, reader: StepReader, meta: dict[str, Any], registry: ToolRegistry) -> Decision:
        """The step's decision; raises FormatError when the output cannot be used."""
        ...

    def announce(self, writer: StreamWriter, decision: Decision) -> str:
        """Stream text for the decided calls that the model did not write itself."""
        ...

    def step_messages(self, step: Step) -> list[Message]:
        """The messages that record ``step`` (the model's turn, the tool results, the notes)."""
        ...

    def feedback(self, messages: list[Message], problem: str) -> None:
        """Tell the model what to fix, keeping the message order valid for every backend."""
        ...

    def user_reply(self, call: ToolCall, answer: str) -> list[Message]: ...

    def final_request(self, messages: list[Message], instruction: str) -> tuple[list[Message], dict[str, Any]]:
        """Messages and extra call arguments for the forced final answer."""
        ...


def assistant_message(step: Step, content: str, **extra: Any) -> Message:
    """The model's turn of ``step``, with the thinking it streamed (each backend decides
    whether its provider takes it back)."""
    message: Message = {"role": "assistant", "content": content, **extra}
    if step.reasoning:
        message["reasoning"] = step.reasoning
    return message


def append_note(messages: list[Message], note: str) -> None:
    """Add an engine note to the last message (a tool result or the user's turn)."""
    messages[-1] = {**messages[-1], "content": f"{messages[-1].get('content') or ''}\n\n[Note: {note}]"}


def block_text(blocks: list[ReActBlock]) -> str:
    from engine.react.types import CANONICAL_LABEL

    return "\n".join(f"{CANONICAL_LABEL[b.type]}: {b.content}" for b in blocks if b.type in CANONICAL_LABEL)
