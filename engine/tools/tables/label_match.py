"""How well a row label or a column name fits a question: by its words, and by the
embedding model (so "chiffre d'affaires Logiciels" finds the row "Software revenue").

The labels' vectors are computed once per catalog and embedding model, kept in the
catalog's ``memo``; a question costs one query vector per plan.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from engine.grounding.quotes import words
from engine.tools.tables.catalog import TableCatalog

Encode = Callable[[list[str]], Any]
_REMARK = re.compile(r"\((?:[^()]*\d[^()]*|[^()\s]+(?:\s+[^()\s]+){2,})\)")  # "(net of refunds of $11.2 …)"
_FOOTNOTES = re.compile(r"\(\d{1,2}\)|(?<=[a-z])\d{1,2}\b")  # "services(1)(2)", "dividends1"


def label_text(name: str) -> str:
    """A column name or row label as words: ``late_deliveries`` → "late deliveries"."""
    return re.sub(r"[_\W]+", " ", name).strip()


def label_words(label: str) -> set[str]:
    """A row label's words, without its footnote marks."""
    return words(label_text(_FOOTNOTES.sub(" ", label)))


def lexical(label: str, asked: frozenset[str] | set[str], subject: frozenset[str] | set[str]) -> tuple[float, float]:
    """(share of the label's words that stand in the question, share of the question's
    subject words the label holds). A remark in parentheses ("Cash paid for income taxes
    (net of refunds of $11.2, $25.0 and $20.7, respectively)") is not part of the name a
    question gives, so its words count only when the question uses them."""
    own = label_words(label)
    core = label_words(_REMARK.sub(" ", label))
    if core and core != own:
        own = core | (own & asked)
    if not own:
        return 0.0, 0.0
    hit = own & asked
    return len(hit) / len(own), (len(own & subject) / len(subject) if subject else 0.0)


class Semantic:
    """Rescaled embedding similarity (0-1) of a question's words to labels; the labels'
    vectors are kept per catalog and model, the question's for one plan."""

    def __init__(self, catalog: TableCatalog, encode: Encode | None) -> None:
        self._encode = encode
        self._queries: dict[str, np.ndarray] = {}
        model = getattr(encode, "_encode", encode)
        self._vectors: dict[str, np.ndarray] = catalog.memo.setdefault(("label_vectors", model), {})
        self._range = getattr(encode, "similarity_range", (0.0, 1.0))

    def scores(self, text: str, labels: Sequence[str]) -> list[float]:
        if self._encode is None or not labels or not text.strip():
            return [0.0] * len(labels)
        if text not in self._queries:
            query = getattr(self._encode, "query", self._encode)
            self._queries[text] = np.asarray(query([text]), dtype=np.float32)[0]
        missing = [text for text in dict.fromkeys(labels) if text not in self._vectors]
        if missing:
            vectors = np.asarray(self._encode([label_text(t) or t for t in missing]), dtype=np.float32)
            self._vectors.update(zip(missing, vectors, strict=True))
        matrix = np.stack([self._vectors[t] for t in labels])
        low, high = self._range
        return [float(np.clip((s - low) / (high - low), 0.0, 1.0)) for s in matrix @ self._queries[text]]
