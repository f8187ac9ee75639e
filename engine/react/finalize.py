"""Forced endings: a final answer written from what was found, or, when the model
cannot give one, a fallback the engine writes itself. Never a blank."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from engine.llm.base import LLM, LLMError
from engine.react.parser import MODEL_LABELS, ParseEvent, ReActStreamParser, reemit
from engine.react.prompts import is_placeholder, render
from engine.react.protocols import WireProtocol
from engine.react.protocols.json_mode import opens_structured, structured_answer
from engine.react.run_state import RunState
from engine.react.step import findings
from engine.react.stream import ReasoningStream, StreamWriter
from engine.react.types import ANSWER_TYPES, ReActType
from engine.settings import EngineConfig


def fallback_answer(reason: str, found: list[str]) -> str:
    """What the engine writes itself when the model gave no usable answer. Findings are
    tool and document text: one line each, and never able to open a block."""
    if found:
        lines = [" ".join(f.split()) for f in found]
        listed = "What I found so far:\n" + "\n".join(f"- {line}" for line in lines)
    else:
        listed = "I found nothing conclusive; please rephrase the question or add details."
    return render("fallback_answer", reason=reason.rstrip("."), findings=listed)


class FinalAnswer:
    """Streams the forced final answer into an Answer block; ``text`` is what was written."""

    def __init__(self, llm: LLM, protocol: WireProtocol, config: EngineConfig) -> None:
        self.llm = llm
        self.protocol = protocol
        self.config = config
        self.text = ""
        self.error: str | None = None
        self.error_kind: str | None = None  # the backend's LLMError kind, or the exception's type (for traces)

    async def stream(self, state: RunState, writer: StreamWriter, reason: str) -> AsyncIterator[str]:
        yield writer.block(ReActType.WARNING, f"{reason} Writing the final answer from what was found.")
        messages, extra = self.protocol.final_request(state.messages, render("force_final", reason=reason))
        kw: dict[str, Any] = {"max_tokens": self.config.max_tokens_per_step, "temperature": self.config.temperature}
        kw.update(extra)
        if not self.llm.abilities.prefill:
            kw.pop("assistant_prefix", None)
        parser = ReActStreamParser(accept=MODEL_LABELS, terminal=ANSWER_TYPES)
        written: list[str] = []
        thinking = ReasoningStream(writer)  # a reasoning model's thinking, as a Thought before the answer
        answer_open = False

        def open_answer() -> str:
            nonlocal answer_open
            if answer_open:
                return ""
            answer_open = True
            return thinking.end() + writer.block(ReActType.ANSWER, end=False)

        def take(events: list[ParseEvent]) -> str:
            out = []
            for event in events:
                if event.kind != "start" and (event.type is ReActType.UNKNOWN or event.type in ANSWER_TYPES):
                    if not written and not event.text.strip():
                        continue
                    written.append(event.text)
                    out.append(reemit(event))
            return writer.write("".join(out))

        unwrap = getattr(self.protocol, "final_text", None)  # a structured reply: its answer is read whole
        decided = unwrap is not None or not state.fallen_from
        held: list[str] = []
        opening = ""  # after a fallback, the reply's start until it shows whether it opens with a JSON object
        try:
            stream = self.llm.astream_generate(messages, **kw)
            try:
                async for chunk in stream:
                    if "meta" in chunk:
                        state.usage.add((chunk["meta"] or {}).get("usage"))
                        continue
                    if chunk.get("reasoning"):
                        yield thinking.feed(chunk["reasoning"], answer_open)
                    delta = chunk.get("delta", "")
                    if not delta:
                        continue
                    yield open_answer()
                    if not decided:  # the model left JSON mode, but may still write JSON
                        opening += delta
                        head = opening.lstrip()
                        if not head or head.startswith("`"):  # nothing yet, or a fence: read it whole
                            continue
                        decided, delta, opening = True, opening, ""
                        if head.startswith("{"):
                            unwrap = structured_answer
                    if unwrap is not None:
                        held.append(delta)
                        continue
                    yield take(parser.feed(delta))
                if not decided and opening:
                    if opens_structured(opening):
                        unwrap, held = structured_answer, [opening]
                    else:
                        yield take(parser.feed(opening))
                yield take(parser.close())
            finally:
                await stream.aclose()
            if unwrap is not None and (answer := unwrap("".join(held))):
                written.append(answer)
                yield writer.untrusted(answer)
        except LLMError as exc:
            self.error, self.error_kind = exc.message, exc.kind
        except Exception as exc:
            self.error = f"The final answer could not be written ({type(exc).__name__})."
            self.error_kind = type(exc).__name__
        yield open_answer()
        self.text = "".join(written).strip()
        if not self.text or is_placeholder(self.text):
            self.text = fallback_answer(reason, findings(state.steps))
            yield writer.untrusted(self.text)
