"""Errors of the embedding models, each one readable sentence, in English and French
(``engine/rag/messages.json``).

They subclass the index errors the CLI and the app already turn into one line: a model
that cannot be used is an ``IndexProblem`` (exit 2), a server that does not answer an
``IndexUnreachable`` (exit 3)."""

from __future__ import annotations

from typing import Any

from engine.rag.messages import say as message
from engine.rag.store import IndexProblem, IndexUnreachable


class _Sentence:
    """An error whose text is one message of ``messages.json``; ``text(language)`` gives it in French too."""

    def __init__(self, key: str, **values: Any) -> None:
        self.key, self.values = key, values
        super().__init__(message(key, **values))  # type: ignore[call-arg]

    def text(self, language: str = "en") -> str:
        return message(self.key, language, **self.values)


class EmbeddingModelError(_Sentence, IndexProblem):
    """The embedding model named cannot be used (unknown, or missing what it needs)."""


class EmbeddingServerDown(_Sentence, IndexUnreachable):
    """The embedding server did not answer within the retry bound (``LLM_MAX_RETRY_S``)."""
