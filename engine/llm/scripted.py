"""A scripted backend: plays back prepared replies. Used by tests, the chaos suite and
the benchmarks, in place of a network model (the only place a model is faked)."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator, Callable
from typing import Any

from pydantic import BaseModel, Field

from engine.llm.base import Abilities, BaseLLM, LLMError, Message, ToolCallRequest, Usage, final_chunk


class Reply(BaseModel):
    """One scripted model reply."""

    text: str = ""
    reasoning: str = ""  # a reasoning model's thinking, streamed before the text
    tool_calls: list[ToolCallRequest] = Field(default_factory=list)
    finish_reason: str | None = None
    drop_after_chars: int | None = None  # the stream dies after this many characters
    error: str | None = None  # an LLMError kind raised before any token


ScriptItem = str | Reply | LLMError | Callable[[list[Message], dict[str, Any]], str | Reply]


class ScriptedLLM(BaseLLM):
    name = "scripted"

    def __init__(
        self,
        script: list[ScriptItem],
        *,
        tool_call: bool = False,
        json_mode: bool = False,
        prefill: bool = False,
        small: bool = False,
        chunk_chars: int = 4,
        delay_s: float = 0.0,
        model: str = "script",
        exhausted: str = "",
        record: bool = True,
    ) -> None:
        self.script = list(script)
        self.abilities = Abilities(tool_call=tool_call, json_mode=json_mode, stop=True, prefill=prefill, small=small)
        self.chunk_chars = chunk_chars
        self.delay_s = delay_s
        self.model = model
        self.exhausted = exhausted
        self.record = record
        self.calls: list[list[Message]] = []
        self.kwargs: list[dict[str, Any]] = []

    def _next(self, messages: list[Message], kw: dict[str, Any]) -> Reply:
        item: Any = self.script.pop(0) if self.script else self.exhausted
        if callable(item) and not isinstance(item, (Reply, LLMError)):
            item = item(messages, kw)
        if isinstance(item, LLMError):
            raise item
        return item if isinstance(item, Reply) else Reply(text=str(item))

    async def astream_generate(self, messages: list[Message], **kw: Any) -> AsyncIterator[dict[str, Any]]:
        if self.record:  # what the model was sent, for assertions
            self.calls.append(copy.deepcopy(messages))
            self.kwargs.append(dict(kw))
        reply = self._next(messages, kw)
        if reply.error:
            raise LLMError(f"Scripted backend failure ({reply.error}).", reply.error)
        text = reply.text
        finish = reply.finish_reason or "stop"
        for stop in kw.get("stop") or []:
            cut = text.find(stop)
            if cut >= 0:
                text = text[:cut]
        limit = int(kw.get("max_tokens", 10**9)) * 4
        if len(text) > limit:
            text, finish = text[:limit], "length"
        sent = 0
        step = max(1, self.chunk_chars)
        for i in range(0, len(reply.reasoning), step):
            yield {"delta": "", "reasoning": reply.reasoning[i : i + step]}
        for i in range(0, len(text), step):
            if reply.drop_after_chars is not None and sent >= reply.drop_after_chars:
                raise LLMError("The connection to the scripted server dropped in the middle of the reply.", "dropped")
            if self.delay_s:
                await asyncio.sleep(self.delay_s)
            piece = text[i : i + step]
            sent += len(piece)
            yield {"delta": piece}
        if reply.drop_after_chars is not None and sent >= reply.drop_after_chars and sent < len(reply.text):
            raise LLMError("The connection to the scripted server dropped in the middle of the reply.", "dropped")
        usage = Usage(
            prompt_tokens=sum(len(m.get("content") or "") for m in messages) // 4, completion_tokens=len(text) // 4
        )
        yield final_chunk(usage, finish, reply.tool_calls)
