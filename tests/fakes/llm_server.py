"""A local fake LLM server on 127.0.0.1 speaking the real wire formats.

- ``POST /v1/chat/completions``: Mistral / OpenAI chat completions as SSE
  (``text/event-stream``; every chunk has ``id``, ``model`` and ``finish_reason``;
  a tool call arrives whole in one delta).
- ``POST /api/chat``: Ollama's native newline-delimited JSON stream.

Replies are scripted: each request takes the next item of ``script``. An item is a
dict: ``{"text": "..."}``, ``{"tool_calls": [{"name", "arguments"}], "text": ""}``,
``{"status": 429}`` (an error answer), ``{"drop_after": N, "text": ...}`` (the
connection is cut after N content chunks), ``{"repeat": True, ...}`` (the item is
never used up), ``{"delay_s": 0.05, ...}`` (a slow stream),
``{"thinking": "...", "thinking_as": "chunks"}`` (a reasoning model's thinking streamed first:
as Magistral's ``ThinkChunk`` content parts, its text then as text chunks; or
``"reasoning_content"`` / ``"reasoning"`` as the OpenAI-compatible servers' delta
field), ``{"answer_from_observation": "keyword"}`` (the reply quotes the
sentence holding the keyword from the latest tool result, citing that passage's
source, as a model reading the Observation would; "I don't know" when it is absent). With an empty script the server answers ``Answer: (no script)``.

Run as a program for tests that start the app in a subprocess::

    python tests/fakes/llm_server.py --port 0 --script script.json  # prints the port
"""

from __future__ import annotations

import argparse
import json
import re
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


class FakeLLMServer:
    def __init__(self, script: list[dict[str, Any]] | None = None, chunk_chars: int = 5) -> None:
        self.script: deque[dict[str, Any]] = deque(script or [])
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.chunk_chars = chunk_chars
        self.aborted = 0  # streams the client closed before the end
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # ---- lifecycle ---------------------------------------------------------------
    def start(self, port: int = 0) -> str:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                try:
                    fake._handle(self)
                except (BrokenPipeError, ConnectionResetError):  # the client went away
                    with fake._lock:
                        fake.aborted += 1

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeLLMServer:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # ---- replies ---------------------------------------------------------------------
    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = json.loads(handler.rfile.read(length) or b"{}")
        with self._lock:
            self.requests.append(body)
            self.headers.append(dict(handler.headers))
            item = self._next()
        if item.get("status", 200) != 200:
            payload = json.dumps({"message": item.get("message", "scripted failure")}).encode()
            handler.send_response(item["status"])
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(payload)))
            handler.end_headers()
            handler.wfile.write(payload)
            return
        if handler.path.rstrip("/").endswith("/api/chat"):
            self._ollama(handler, body, item)
        else:
            self._sse(handler, body, item)

    def _next(self) -> dict[str, Any]:
        if not self.script:
            return {"text": "Answer: (no script)"}
        item = self.script[0]
        if not item.get("repeat"):
            self.script.popleft()
        return item

    @staticmethod
    def _answer_from_observation(body: dict[str, Any], keyword: str) -> str:
        tool_results = [m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "tool"]
        observation = tool_results[-1] if tool_results else ""
        for passage in re.split(r"\n\n(?=\[\d+\] source: )", observation):
            head = re.match(r"\[\d+\] source: (\S+)", passage)
            sentence = re.search(r"[^.\n]*" + re.escape(keyword) + r"[^.\n]*\.", passage)
            if head and sentence:
                return f"Answer: {sentence.group(0).strip()} [{head.group(1)}]"
        return "Answer: I don't know."

    def _sse(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], item: dict[str, Any]) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Connection", "close")
        handler.end_headers()
        model = body.get("model", "fake-model")
        text = item.get("text", "")
        if item.get("answer_from_observation"):
            text = self._answer_from_observation(body, item["answer_from_observation"])
        calls = item.get("tool_calls") or []

        def send(delta: dict[str, Any], finish: str | None, usage: dict[str, int] | None = None) -> None:
            chunk: dict[str, Any] = {
                "id": "cmpl-fake",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            if usage:
                chunk["usage"] = usage
            handler.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            handler.wfile.flush()

        thinking_as = item.get("thinking_as", "chunks")
        for piece in _chunks(item["thinking"], self.chunk_chars) if item.get("thinking") else []:
            if thinking_as == "chunks":
                part = {"type": "thinking", "thinking": [{"type": "text", "text": piece}]}
                send({"role": "assistant", "content": [part]}, None)
            else:
                send({"role": "assistant", "content": "", thinking_as: piece}, None)
        pieces = _chunks(text, self.chunk_chars) if text else []
        for i, piece in enumerate(pieces):
            if item.get("drop_after") is not None and i >= item["drop_after"]:
                handler.close_connection = True
                return  # the connection is cut: no finish_reason, no [DONE]
            if item.get("delay_s"):
                time.sleep(item["delay_s"])
            if item.get("thinking") and thinking_as == "chunks":
                send({"role": "assistant", "content": [{"type": "text", "text": piece}]}, None)
            else:
                send({"role": "assistant", "content": piece}, None)
        if calls:
            send(
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": c.get("id", f"call{i:05d}"[-9:]),
                            "type": "function",
                            "index": i,
                            "function": {"name": c["name"], "arguments": c.get("arguments", "{}")},
                        }
                        for i, c in enumerate(calls)
                    ],
                },
                None,
            )
        usage = {"prompt_tokens": 11, "completion_tokens": max(1, len(text) // 4), "total_tokens": 11 + len(text) // 4}
        send({"content": ""}, item.get("finish_reason") or ("tool_calls" if calls else "stop"), usage)
        handler.wfile.write(b"data: [DONE]\n\n")
        handler.wfile.flush()

    def _ollama(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], item: dict[str, Any]) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/x-ndjson")
        handler.send_header("Connection", "close")
        handler.end_headers()
        model = body.get("model", "fake-model")
        for piece in _chunks(item["thinking"], self.chunk_chars) if item.get("thinking") else []:
            line = {"model": model, "message": {"role": "assistant", "content": "", "thinking": piece}, "done": False}
            handler.wfile.write((json.dumps(line) + "\n").encode())
            handler.wfile.flush()
        for piece in _chunks(item.get("text", ""), self.chunk_chars):
            line = {"model": model, "message": {"role": "assistant", "content": piece}, "done": False}
            handler.wfile.write((json.dumps(line) + "\n").encode())
            handler.wfile.flush()
        last = {
            "model": model,
            "message": {"role": "assistant", "content": ""},
            "done": True,
            "done_reason": "stop",
            "prompt_eval_count": 9,
            "eval_count": 4,
        }
        handler.wfile.write((json.dumps(last) + "\n").encode())
        handler.wfile.flush()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--script", help="JSON file with the list of scripted replies")
    args = parser.parse_args()
    script = json.load(open(args.script, encoding="utf-8")) if args.script else []
    server = FakeLLMServer(script)
    server.start(args.port)
    print(server.port, flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
