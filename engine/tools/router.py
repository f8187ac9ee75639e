"""ToolRouter: offer the model only the tools that fit the question.

Tools are ranked by cosine similarity between the prompt and each tool's
description (embedded once and cached). The top k plus the always-on tools are
kept. If routing fails or every score is low, the full set is offered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Literal

import numpy as np
from pydantic import BaseModel

from engine.tools.base import ToolRegistry
from engine.tools.messages import say

TOP_K = 6
MIN_SCORE = 0.12


class ToolScore(BaseModel):
    name: str
    score: float
    offered: bool
    why: str
    reason: Literal["low", "always", "top", "below"]  # what ``why`` says, for a page that words it itself


class ToolRouter:
    def __init__(
        self, embed: Callable[[list[str]], np.ndarray] | None = None, top_k: int = TOP_K, min_score: float = MIN_SCORE
    ):
        self._embed = embed
        self.top_k = top_k
        self.min_score = min_score
        self._cache: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def _encode_query(self, texts: list[str]) -> np.ndarray:
        if self._embed is not None:  # one function given for both
            return self._embed(texts)
        from engine.rag.embeddings import get_embedder

        return get_embedder().encode_query(texts)

    def _encode(self, texts: list[str]) -> np.ndarray:
        if self._embed is not None:
            return self._embed(texts)
        from engine.rag.embeddings import get_embedder

        return get_embedder().encode(texts)

    def _tool_vectors(self, registry: ToolRegistry) -> dict[str, np.ndarray]:
        texts = {t.name: f"{t.name.replace('_', ' ')}: {t.description}" for t in registry}
        with self._lock:
            missing = [name for name, text in texts.items() if text not in self._cache]
            if missing:
                vectors = self._encode([texts[n] for n in missing])
                for name, vector in zip(missing, vectors, strict=True):
                    self._cache[texts[name]] = vector
            return {name: self._cache[text] for name, text in texts.items()}

    def explain(self, prompt: str, registry: ToolRegistry) -> list[ToolScore]:
        """Every tool's score for ``prompt`` and whether it would be offered, best first."""
        vectors = self._tool_vectors(registry)
        query = self._encode_query([prompt])[0]
        scored = sorted(((float(np.dot(query, v)), name) for name, v in vectors.items()), reverse=True)
        always = {t.name for t in registry if t.always_on}
        fallback = not scored or scored[0][0] < self.min_score
        ranked = [name for _, name in scored if name not in always][: self.top_k]
        out = []
        for score, name in scored:
            if fallback:
                out.append(ToolScore(name=name, score=score, offered=True, why=say("router_low"), reason="low"))
            elif name in always:
                out.append(ToolScore(name=name, score=score, offered=True, why=say("router_always"), reason="always"))
            elif name in ranked:
                out.append(
                    ToolScore(name=name, score=score, offered=True, why=say("router_top", k=self.top_k), reason="top")
                )
            else:
                out.append(
                    ToolScore(
                        name=name, score=score, offered=False, why=say("router_below", k=self.top_k), reason="below"
                    )
                )
        return out

    def route(self, prompt: str, registry: ToolRegistry) -> list[str]:
        """Names of the tools to offer, in registry order."""
        if len(registry) <= self.top_k + sum(1 for t in registry if t.always_on):
            return registry.names()
        offered = {s.name for s in self.explain(prompt, registry) if s.offered}
        return [name for name in registry.names() if name in offered]
