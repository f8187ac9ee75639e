"""OpenAI-compatible servers (vLLM, LM Studio, Ollama's /v1) over SSE, and Ollama's
native ``/api/chat`` with newline-delimited JSON chunks, through ``httpx``.

A reasoning model's thinking arrives as ``reasoning_content`` (vLLM, DeepSeek) or
``reasoning`` (Ollama's /v1, OpenRouter) in the delta, or ``thinking`` in Ollama's
native message: it is read as reasoning, never as reply text. It is never sent back
(DeepSeek refuses a request whose messages carry ``reasoning_content``), so the
``reasoning`` key of an assistant message is dropped here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx

from engine.llm.base import Abilities, BaseLLM, LLMError, Message, ToolCallRequest, Usage, final_chunk
from engine.llm.errors import from_exception, from_status, public_address

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
REASONING_FIELDS = ("reasoning_content", "reasoning")


def _outgoing(messages: list[Message]) -> list[Message]:
    """The messages as the server takes them: without the thinking of earlier steps."""
    return [{k: v for k, v in m.items() if k != "reasoning"} for m in messages]


class OpenAICompatLLM(BaseLLM):
    name = "openai"

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        tool_call: bool = False,
        json_mode: bool = False,
        small: bool = False,
        max_retry_wait_s: float = 30.0,
        retry_initial_s: float = 0.5,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._key = api_key
        self.ollama_native = self.base_url.endswith("/api")
        self.abilities = Abilities(tool_call=tool_call, json_mode=json_mode, stop=True, small=small)
        self._timeout = httpx.Timeout(timeout_s, connect=min(10.0, timeout_s))
        self._max_retry_wait = max_retry_wait_s
        self._retry_initial = retry_initial_s
        self._where = public_address(self.base_url, "the configured server")

    def _payload(self, messages: list[Message], kw: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        messages = _outgoing(messages)
        if self.ollama_native:
            options: dict[str, Any] = {
                "temperature": kw.get("temperature", 0.2),
                "num_predict": kw.get("max_tokens", 512),
            }
            if kw.get("stop"):
                options["stop"] = list(kw["stop"])
            body: dict[str, Any] = {"model": self.model, "messages": messages, "stream": True, "options": options}
            if kw.get("tools"):
                body["tools"] = kw["tools"]
            if kw.get("response_format"):
                body["format"] = "json"  # Ollama's JSON mode
            return f"{self.base_url}/chat", body
        body = {
            "model": self.model,
            "messages": messages,
            "stream": True,
            "temperature": kw.get("temperature", 0.2),
            "max_tokens": kw.get("max_tokens", 512),
            "stream_options": {"include_usage": True},
        }
        if kw.get("stop"):
            body["stop"] = list(kw["stop"])
        if kw.get("tools"):
            body["tools"] = kw["tools"]
        if kw.get("response_format"):
            body["response_format"] = kw["response_format"]
        return f"{self.base_url}/chat/completions", body

    async def astream_generate(self, messages: list[Message], **kw: Any) -> AsyncIterator[dict[str, Any]]:
        url, body = self._payload(messages, kw)
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        state = _StreamState()
        waited, delay = 0.0, self._retry_initial
        async with httpx.AsyncClient(timeout=self._timeout) as client:
            while True:
                try:
                    async with client.stream("POST", url, json=body, headers=headers) as resp:
                        if resp.status_code in RETRY_STATUSES and waited + delay <= self._max_retry_wait:
                            await resp.aread()
                            await asyncio.sleep(delay)
                            waited, delay = waited + delay, delay * 2
                            continue
                        if resp.status_code >= 400:
                            raise from_status(
                                "OpenAI-compatible",
                                resp.status_code,
                                (await resp.aread()).decode(errors="replace"),
                                self._key,
                            )
                        async for line in resp.aiter_lines():
                            for chunk in state.feed_line(line):
                                yield chunk
                    break
                except LLMError:
                    raise
                except Exception as exc:
                    raise from_exception("OpenAI-compatible", self._where, exc, self._key, state.started) from None
        if not state.finished:
            raise LLMError(
                f"The connection to the OpenAI-compatible server at {self._where} dropped in the middle of the reply.",
                "dropped",
            )
        yield final_chunk(state.usage, state.finish_reason, state.tool_calls)


class _StreamState:
    """Reads SSE ``data:`` lines and NDJSON lines alike, into stream chunks."""

    def __init__(self) -> None:
        self.started = False
        self.finished = False
        self.usage = Usage()
        self.finish_reason: str | None = None
        self.tool_calls: list[ToolCallRequest] = []
        self._partial_calls: dict[int, dict[str, str]] = {}

    def feed_line(self, line: str) -> list[dict[str, str]]:
        line = line.strip()
        if not line or line.startswith((":", "event:", "id:", "retry:")):
            return []
        if line.startswith("data:"):
            line = line[5:].strip()
            if line == "[DONE]":
                self.finished = True
                self._close_calls()
                return []
        try:
            data = json.loads(line)
        except ValueError:
            return []
        if "message" in data or "done" in data:  # Ollama native chunk
            return self._ollama(data)
        return self._openai(data)

    def _ollama(self, data: dict[str, Any]) -> list[dict[str, str]]:
        message = data.get("message") or {}
        for i, call in enumerate(message.get("tool_calls") or []):
            fn = call.get("function", {})
            args = fn.get("arguments", {})
            self.tool_calls.append(
                ToolCallRequest(
                    id=f"call{i}",
                    name=fn.get("name", ""),
                    arguments=args if isinstance(args, str) else json.dumps(args),
                )
            )
        if data.get("done"):
            self.finished = True
            self.finish_reason = data.get("done_reason") or "stop"
            self.usage = Usage(
                prompt_tokens=data.get("prompt_eval_count") or 0, completion_tokens=data.get("eval_count") or 0
            )
        return self._pieces(message.get("thinking"), message.get("content"))

    def _pieces(self, reasoning: Any, text: Any) -> list[dict[str, str]]:
        out = []
        if isinstance(reasoning, str) and reasoning:
            out.append({"delta": "", "reasoning": reasoning})
        if isinstance(text, str) and text:
            out.append({"delta": text})
        self.started = self.started or bool(out)
        return out

    def _openai(self, data: dict[str, Any]) -> list[dict[str, str]]:
        if data.get("usage"):
            self.usage = Usage(
                prompt_tokens=data["usage"].get("prompt_tokens") or 0,
                completion_tokens=data["usage"].get("completion_tokens") or 0,
            )
        out = []
        for choice in data.get("choices") or []:
            delta = choice.get("delta") or {}
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
            for call in delta.get("tool_calls") or []:
                slot = self._partial_calls.setdefault(
                    call.get("index", len(self._partial_calls)), {"id": "", "name": "", "arguments": ""}
                )
                fn = call.get("function") or {}
                slot["id"] = call.get("id") or slot["id"]
                slot["name"] += fn.get("name") or ""
                slot["arguments"] += fn.get("arguments") or ""
            reasoning = next((delta[f] for f in REASONING_FIELDS if delta.get(f)), None)
            out.extend(self._pieces(reasoning, delta.get("content")))
        if self.finish_reason and not self._partial_calls and not self.tool_calls:
            self.finished = True
        return out

    def _close_calls(self) -> None:
        for i, slot in sorted(self._partial_calls.items()):
            self.tool_calls.append(
                ToolCallRequest(id=slot["id"] or f"call{i}", name=slot["name"], arguments=slot["arguments"] or "{}")
            )
        self._partial_calls.clear()
