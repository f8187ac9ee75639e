"""The one protocol every LLM backend speaks, and the sync/async bridges.

``stream_generate`` yields ``{"delta": str}`` chunks, then a last
``{"delta": "", "meta": {"usage", "finish_reason", "tool_calls"}}``. A reasoning
model's thinking comes as ``{"delta": "", "reasoning": str}`` chunks: never part of
the reply's text. A backend implements either the async or the sync stream; the
other form is bridged here.

Messages are OpenAI-style dicts. An assistant message may carry ``"reasoning"``
(the thinking the model streamed for it); each backend follows its provider's rule
for sending it back, and drops the key otherwise.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

Message = dict[str, Any]


class Abilities(BaseModel):
    """What a backend can do and how it behaves; the engine decides by these, never by a name."""

    tool_call: bool = False
    json_mode: bool = False
    stop: bool = True
    prefill: bool = False  # the prompt can end with an assistant prefix such as "Thought:"
    base_model: bool = False  # a completion model: worked examples in the prompt, earlier turns as context
    small: bool = False  # too small to restate figures reliably: its answers are checked against the evidence
    observation_chars: int | None = None  # the longest Observation it copes with
    question_tokens: int | None = None  # the longest question its context leaves room for
    step_tokens: int | None = None  # the most a step of it should write (a small model rambles past its answer)
    max_steps: int | None = None  # the model calls worth making before the evidence answers for it


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage | dict[str, Any] | None) -> None:
        if other is None:
            return
        if isinstance(other, dict):
            other = Usage.model_validate({k: v or 0 for k, v in other.items() if k in Usage.model_fields})
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens


class ToolCallRequest(BaseModel):
    id: str
    name: str
    arguments: str = "{}"


class Response(BaseModel):
    text: str = ""
    reasoning: str = ""
    usage: Usage = Field(default_factory=Usage)
    finish_reason: str | None = None
    tool_calls: list[ToolCallRequest] = Field(default_factory=list)


class LLMError(Exception):
    """A backend failure, as one readable sentence. ``kind`` is one of
    unreachable, timeout, rate_limited, auth, bad_request, server, dropped."""

    def __init__(self, message: str, kind: str = "server") -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind

    @property
    def unreachable(self) -> bool:
        return self.kind in ("unreachable", "timeout", "auth")


@runtime_checkable
class LLM(Protocol):
    name: str
    model: str
    abilities: Abilities

    def generate(self, messages: list[Message], **kw: Any) -> Response: ...

    def stream_generate(self, messages: list[Message], **kw: Any) -> Iterator[dict[str, Any]]: ...

    async def agenerate(self, messages: list[Message], **kw: Any) -> Response: ...

    def astream_generate(self, messages: list[Message], **kw: Any) -> AsyncIterator[dict[str, Any]]: ...


def final_chunk(usage: Usage | None = None, finish_reason: str | None = None, tool_calls: list | None = None) -> dict:
    return {
        "delta": "",
        "meta": {
            "usage": (usage or Usage()).model_dump(),
            "finish_reason": finish_reason,
            "tool_calls": [t.model_dump() if isinstance(t, ToolCallRequest) else t for t in tool_calls or []],
        },
    }


def collect(chunks: list[dict[str, Any]]) -> Response:
    text = "".join(c.get("delta", "") for c in chunks)
    reasoning = "".join(c.get("reasoning", "") for c in chunks)
    meta = next((c["meta"] for c in reversed(chunks) if "meta" in c), {})
    return Response(
        text=text,
        reasoning=reasoning,
        usage=Usage.model_validate(meta.get("usage") or {}),
        finish_reason=meta.get("finish_reason"),
        tool_calls=[ToolCallRequest.model_validate(t) for t in meta.get("tool_calls") or []],
    )


class BaseLLM:
    """Implement ``astream_generate`` or ``stream_generate``; the rest follows."""

    name: str = "llm"
    model: str = ""
    abilities: Abilities = Abilities()

    def stream_generate(self, messages: list[Message], **kw: Any) -> Iterator[dict[str, Any]]:
        return iterate_async(lambda: self.astream_generate(messages, **kw))

    async def astream_generate(self, messages: list[Message], **kw: Any) -> AsyncIterator[dict[str, Any]]:
        async for item in aiterate_sync(lambda: self.stream_generate(messages, **kw)):
            yield item

    def generate(self, messages: list[Message], **kw: Any) -> Response:
        return collect(list(self.stream_generate(messages, **kw)))

    async def agenerate(self, messages: list[Message], **kw: Any) -> Response:
        return collect([c async for c in self.astream_generate(messages, **kw)])

    def describe(self) -> str:
        return f"{self.name} · {self.model}"


_END = object()


def _unpack(kind: str, value: Any) -> Any:
    """A bridge message as the consumer sees it: the item, the producer's error raised, or the end."""
    if kind == "item":
        return value
    if kind == "error":
        raise value
    return _END


def iterate_async(factory: Callable[[], AsyncIterator[Any]], heartbeat_s: float | None = None) -> Iterator[Any]:
    """Drive an async iterator from sync code, on a private event loop in a thread.

    Closing the returned iterator early (a Stop) cancels the async side at once,
    wherever it is waiting: a model stream or a tool call. With ``heartbeat_s``, an
    empty string is yielded whenever nothing arrived for that long, so a caller
    blocked on a slow tool still gets control back (Streamlit checks for Stop only
    when the script calls it)."""
    q: queue.Queue = queue.Queue(maxsize=256)
    stop = threading.Event()
    running: dict[str, Any] = {}

    async def pump() -> None:
        running["loop"] = asyncio.get_running_loop()
        running["task"] = asyncio.current_task()
        agen = factory()
        try:
            async for item in agen:
                if stop.is_set():
                    break
                q.put(("item", item))
        finally:
            aclose = getattr(agen, "aclose", None)
            if aclose is not None:
                await aclose()

    def worker() -> None:
        try:
            asyncio.run(pump())
        except BaseException as exc:  # handed to the consumer, re-raised there
            q.put(("error", exc))
        q.put(("end", None))

    thread = threading.Thread(target=worker, daemon=True, name="llm-bridge")
    thread.start()
    try:
        while True:
            try:
                item = _unpack(*q.get(timeout=heartbeat_s))
            except queue.Empty:
                yield ""
                continue
            if item is _END:
                return
            yield item
    finally:
        stop.set()
        loop, task = running.get("loop"), running.get("task")
        if loop is not None and task is not None and not task.done():
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # the loop already finished
                pass
        deadline = time.monotonic() + 5.0
        while thread.is_alive() and time.monotonic() < deadline:  # unblock a producer on a full queue
            try:
                q.get(timeout=0.05)
            except queue.Empty:
                pass


async def aiterate_sync(factory: Callable[[], Iterator[Any]]) -> AsyncIterator[Any]:
    """Drive a blocking iterator from async code, in a worker thread."""
    loop = asyncio.get_running_loop()
    q: asyncio.Queue = asyncio.Queue()
    stop = threading.Event()

    def post(kind: str, value: Any) -> None:
        try:
            loop.call_soon_threadsafe(q.put_nowait, (kind, value))
        except RuntimeError:  # the loop is gone: nobody is listening any more
            stop.set()

    def worker() -> None:
        try:
            iterator = factory()
            for item in iterator:
                if stop.is_set():
                    close = getattr(iterator, "close", None)
                    if close is not None:
                        close()
                    break
                post("item", item)
        except BaseException as exc:
            post("error", exc)
        post("end", None)

    threading.Thread(target=worker, daemon=True, name="llm-bridge").start()
    try:
        while True:
            item = _unpack(*await q.get())
            if item is _END:
                return
            yield item
    finally:
        stop.set()
