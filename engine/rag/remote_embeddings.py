"""Embeddings from a server: OpenAI-compatible ``POST {base_url}/embeddings`` (make
serve-models, vLLM, Ollama's /v1, TEI, llama.cpp's server) or Mistral's ``mistral-embed``
(the same route on Mistral's API).

- Batching: at most ``batch_size`` texts per request (64), in order.
- Retries: a refused connection, a timeout or a 429/5xx is retried with doubling waits
  until ``max_retry_s`` (``LLM_MAX_RETRY_S``) would be exceeded; then one sentence
  (``EmbeddingServerDown``). Another 4xx is one sentence at once (``EmbeddingModelError``).
- The dimension is learnt from the server's first answer (one short probe when asked first).
- ``resumable``: an ingest keeps each embedded slice on disk, so a run cut by a server
  that went down resumes where it stopped (``engine/rag/ingest.py``).
"""

from __future__ import annotations

import threading
import time

import httpx
import numpy as np

from engine.llm.errors import public_address, redact
from engine.rag.embedding_errors import EmbeddingModelError, EmbeddingServerDown

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
BATCH_SIZE = 64


class RemoteEmbedder:
    """Vectors from an embedding server, L2-normalised float32 (inner product is cosine)."""

    resumable = True  # each request costs a round trip: an ingest keeps what it has embedded
    # Ranking traits of a known served model (set for e5, see ``embeddings._load``); unset: the defaults.
    similarity_range: tuple[float, float]
    lexical_weight: float

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        query_prefix: str = "",
        passage_prefix: str = "",
        max_retry_s: float = 30.0,
        retry_initial_s: float = 0.5,
        timeout_s: float = 60.0,
        batch_size: int = BATCH_SIZE,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.name = model
        self._key = api_key
        self._query_prefix, self._passage_prefix = query_prefix, passage_prefix
        self._max_retry_s, self._retry_initial_s = max_retry_s, retry_initial_s
        self._timeout = httpx.Timeout(timeout_s, connect=min(10.0, timeout_s))
        self._batch_size = max(1, batch_size)
        self._where = public_address(self.base_url, "the configured server")
        self._dim: int | None = None
        self._lock = threading.Lock()
        self.requests = 0  # requests sent, retries included (for tests and the bench)

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._post(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def encode(self, texts: list[str]) -> np.ndarray:
        """Passages (document chunks, tool descriptions, quotable units)."""
        return self._encode([self._passage_prefix + t for t in texts])

    def encode_query(self, texts: list[str]) -> np.ndarray:
        """Questions."""
        return self._encode([self._query_prefix + t for t in texts])

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [self._post(texts[i : i + self._batch_size]) for i in range(0, len(texts), self._batch_size)]
        return np.concatenate(parts)

    def _post(self, batch: list[str]) -> np.ndarray:
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        body = {"model": self.name, "input": batch, "encoding_format": "float"}
        waited, delay, reason = 0.0, self._retry_initial_s, ""
        with httpx.Client(timeout=self._timeout) as client:
            while True:
                self.requests += 1
                try:
                    resp = client.post(f"{self.base_url}/embeddings", json=body, headers=headers)
                except httpx.TransportError as exc:
                    reason = redact(type(exc).__name__, self._key)
                else:
                    if resp.status_code < 400:
                        return self._vectors(resp, len(batch))
                    detail = redact(resp.text.strip().replace("\n", " ")[:200], self._key)
                    if resp.status_code not in RETRY_STATUSES:
                        raise EmbeddingModelError(
                            "server_refused", where=self._where, model=self.name, status=resp.status_code, detail=detail
                        )
                    reason = f"HTTP {resp.status_code}"
                if waited + delay > self._max_retry_s:
                    raise EmbeddingServerDown("server_down", where=self._where, seconds=waited, reason=reason)
                time.sleep(delay)
                waited, delay = waited + delay, delay * 2

    def _vectors(self, resp: httpx.Response, count: int) -> np.ndarray:
        try:
            data = sorted(resp.json()["data"], key=lambda item: item.get("index", 0))
            vectors = np.asarray([item["embedding"] for item in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise EmbeddingModelError("server_bad_reply", where=self._where, detail=type(exc).__name__) from None
        if vectors.ndim != 2 or len(vectors) != count or (self._dim is not None and vectors.shape[1] != self._dim):
            raise EmbeddingModelError("server_bad_reply", where=self._where, detail=f"shape {vectors.shape}")
        with self._lock:
            self._dim = int(vectors.shape[1])
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.ascontiguousarray(vectors / np.where(norms == 0, 1, norms), dtype=np.float32)
