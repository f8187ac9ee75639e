"""A local fake OpenAI-compatible embedding server on 127.0.0.1: ``POST /v1/embeddings``.

Vectors are hashed bags of words (``dim`` wide), so texts that share words are close and
the same text always gets the same vector. ``models`` are the names it serves (another
name gets a 404, as vLLM and Ollama answer). ``statuses`` are answers given before the
next real one (e.g. ``[503, 503]``); ``fail_after`` makes every request after that many
answer 503 (a server that goes down mid-ingest). ``requests`` records each body."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


def bag_of_words(text: str, dim: int) -> list[float]:
    vector = np.zeros(dim, dtype=np.float64)
    for word in re.findall(r"\w+", text.lower()):
        vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % dim] += 1.0
    if not vector.any():
        vector[0] = 1.0
    return (vector / np.linalg.norm(vector)).tolist()


class FakeEmbeddingServer:
    def __init__(self, models: tuple[str, ...] = ("fake-embed",), dim: int = 32) -> None:
        self.models, self.dim = models, dim
        self.statuses: deque[int] = deque()
        self.fail_after: int | None = None
        self.requests: list[dict[str, Any]] = []
        self.answered = 0
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    def start(self) -> str:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                status, reply = fake._answer(self.path, body)
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _answer(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.requests.append(body)
            if self.statuses:
                return self.statuses.popleft(), {"error": {"message": "busy"}}
            if self.fail_after is not None and self.answered >= self.fail_after:
                return 503, {"error": {"message": "overloaded"}}
            if path != "/v1/embeddings":
                return 404, {"error": {"message": "not found"}}
            if body.get("model") not in self.models:
                return 404, {"error": {"message": f"model {body.get('model')!r} not found"}}
            self.answered += 1
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [
            {"object": "embedding", "index": i, "embedding": bag_of_words(t, self.dim)} for i, t in enumerate(texts)
        ]
        return 200, {"object": "list", "model": body["model"], "data": data[::-1]}  # any order: index says which
