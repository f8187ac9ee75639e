"""Mistral through the official ``mistralai`` SDK (v3), with native function calling.

The SDK's async HTTP client pools connections that belong to the event loop that
opened them. Sync callers run each call on a fresh loop (``iterate_async``), so a
pooled connection reused from a closed loop fails with "Event loop is closed". One
SDK client per event loop (sharing the TLS context, so this costs about a
millisecond) keeps every connection on its own loop.

Reasoning models (Magistral) stream their thinking as ``ThinkChunk`` parts of
``delta.content``; they are read as reasoning, never as reply text. Sending it back:
the SDK's ``AssistantMessage.content`` takes ``ThinkChunk`` parts (``signature``
exists "to replay some reasoning blocks across turns"), so within a run the thinking
of an earlier step goes back as a closed thinking chunk ahead of its text, and the
model keeps its line of reasoning across tool calls. Stored turns carry no thinking
(their history is the question and the answer), which Mistral also accepts.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from typing import Any

from engine.llm.base import Abilities, BaseLLM, LLMError, Message, ToolCallRequest, Usage, final_chunk
from engine.llm.errors import from_exception, public_address

DEFAULT_MODEL = "mistral-small-latest"


def _to_mistral(message: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"role": message["role"], "content": message.get("content") or ""}
    if message["role"] == "assistant" and message.get("reasoning"):
        thinking = {"type": "thinking", "thinking": [{"type": "text", "text": message["reasoning"]}], "closed": True}
        out["content"] = [thinking, *([{"type": "text", "text": out["content"]}] if out["content"] else [])]
    if message.get("tool_calls"):
        out["tool_calls"] = [
            {
                "id": c["id"],
                "type": "function",
                "function": {"name": c["function"]["name"], "arguments": c["function"]["arguments"]},
            }
            for c in message["tool_calls"]
        ]
    if message["role"] == "tool":
        out["tool_call_id"] = message["tool_call_id"]
        out["name"] = message.get("name")
    return out


def _parts(content: Any) -> list[tuple[str, str]]:
    """``("text" | "reasoning", text)`` pieces of a delta's content, in order: a string,
    or content chunks where a ``ThinkChunk`` holds the model's thinking."""
    if not content:
        return []
    if isinstance(content, str):
        return [("text", content)]
    out: list[tuple[str, str]] = []
    for part in content:
        if getattr(part, "type", None) == "thinking":
            text = "".join(getattr(t, "text", "") or "" for t in getattr(part, "thinking", None) or [])
            kind = "reasoning"
        else:
            text, kind = getattr(part, "text", "") or "", "text"
        if text:
            out.append((kind, text))
    return out


class MistralLLM(BaseLLM):
    name = "mistral"
    abilities = Abilities(tool_call=True, json_mode=True, stop=True, prefill=False)

    def __init__(
        self,
        api_key: str,
        model: str = DEFAULT_MODEL,
        server_url: str | None = None,
        timeout_s: float = 60.0,
        max_retry_wait_s: float = 30.0,
        retry_initial_s: float = 0.5,
    ) -> None:
        import httpx
        from mistralai.client.utils import BackoffStrategy, RetryConfig

        self.model = model
        self._key = api_key
        self._where = public_address(server_url, "api.mistral.ai")
        self._server_url = server_url or None
        self._timeout_ms = int(timeout_s * 1000)
        self._tls = httpx.create_ssl_context()
        self._sync_http = httpx.Client(verify=self._tls, timeout=timeout_s)
        self._clients: dict[int, tuple[asyncio.AbstractEventLoop, Any]] = {}
        self._clients_lock = threading.Lock()
        self._retry = RetryConfig(
            "backoff",
            BackoffStrategy(
                initial_interval=int(retry_initial_s * 1000),
                max_interval=max(int(retry_initial_s * 1000), 8000),
                exponent=2.0,
                max_elapsed_time=int(max_retry_wait_s * 1000),
            ),
            retry_connection_errors=False,
        )

    def _client(self) -> Any:
        """The SDK client of the running event loop (created on first use in that loop)."""
        import httpx
        from mistralai.client import Mistral

        loop = asyncio.get_running_loop()
        with self._clients_lock:
            for key, (old, _) in list(self._clients.items()):
                if old.is_closed():  # its connections died with it
                    del self._clients[key]
            client = self._clients[id(loop)][1] if id(loop) in self._clients else None
            if client is None:
                client = Mistral(
                    api_key=self._key,
                    server_url=self._server_url,
                    timeout_ms=self._timeout_ms,
                    retry_config=self._retry,
                    client=self._sync_http,
                    async_client=httpx.AsyncClient(verify=self._tls, timeout=self._timeout_ms / 1000),
                )
                self._clients[id(loop)] = (loop, client)
            return client

    def _request(self, messages: list[Message], kw: dict[str, Any]) -> dict[str, Any]:
        req: dict[str, Any] = {
            "model": self.model,
            "messages": [_to_mistral(m) for m in messages],
            "temperature": kw.get("temperature", 0.2),
            "max_tokens": kw.get("max_tokens", 512),
        }
        if kw.get("stop"):
            req["stop"] = list(kw["stop"])
        if kw.get("tools"):
            req["tools"] = kw["tools"]
            req["tool_choice"] = kw.get("tool_choice", "auto")
        if kw.get("response_format"):
            req["response_format"] = kw["response_format"]
        return req

    async def astream_generate(self, messages: list[Message], **kw: Any) -> AsyncIterator[dict[str, Any]]:
        started = False
        usage = Usage()
        finish: str | None = None
        calls: list[ToolCallRequest] = []
        try:
            stream = await self._client().chat.stream_async(**self._request(messages, kw))
            async with stream as events:
                async for event in events:
                    chunk = event.data
                    if chunk.usage is not None:
                        usage = Usage(
                            prompt_tokens=chunk.usage.prompt_tokens or 0,
                            completion_tokens=chunk.usage.completion_tokens or 0,
                        )
                    for choice in chunk.choices:
                        delta = choice.delta
                        if choice.finish_reason:
                            finish = str(choice.finish_reason)
                        for call in delta.tool_calls or []:
                            args = call.function.arguments
                            calls.append(
                                ToolCallRequest(
                                    id=str(call.id or f"call{len(calls)}"),
                                    name=call.function.name,
                                    arguments=args if isinstance(args, str) else json.dumps(args),
                                )
                            )
                        for kind, text in _parts(delta.content):
                            started = True
                            yield {"delta": "", "reasoning": text} if kind == "reasoning" else {"delta": text}
        except LLMError:
            raise
        except Exception as exc:  # every transport/SDK failure becomes one sentence
            raise from_exception("Mistral", self._where, exc, self._key, started) from None
        if finish is None:
            raise LLMError(
                f"The connection to the Mistral server at {self._where} dropped in the middle of the reply.", "dropped"
            )
        yield final_chunk(usage, finish, calls)
