"""Which value column a question names: by the words of its name, by a symbol it writes
("in €"), or else by the embedding model, when its subject is near the name by meaning.
"""

from __future__ import annotations

import re

from engine.grounding.stems import words
from engine.tools.tables.catalog import ColumnInfo
from engine.tools.tables.label_match import Semantic, label_words, lexical

# Rescaled embedding similarity (multilingual-e5-small) of the question's subject words to a
# column's name under which the column is not what the question asks about: "chiffre
# d'affaires" scores 0.56-0.58 with revenue_eur, "livraisons en retard" 1.0 with
# late_deliveries, while "employees work" reaches 0.50 with revenue_eur and "length
# password" 0.41 with headcount.
COLUMN_MIN_SIMILARITY = 0.55
COLUMN_MIN_WORDS = 0.5  # or this share of the column name's words stands in the question
_GENERIC_NAME = re.compile(r"(?i)column_?\d+")  # a name the loader gave: it means nothing


def column_scores(question: str, text: str, columns: list[ColumnInfo], sem: Semantic) -> list[float]:
    """1 for a column the question names in words; else the embedding similarity."""
    asked = words(question)
    named = [
        1.0 + 0.001 * len(label_words(c.name) & asked) + 0.0001 * share
        if (share := lexical(c.name, asked, asked)[0]) >= COLUMN_MIN_WORDS or _symbol_named(c.name, question)
        else 0.0
        for c in columns
    ]  # of two columns it names ("Total", "Less than 1 year"), the one it names more of, then more fully
    # ("total compensation": "Total" before "All Other Compensation")
    if any(named):
        return named
    scores = sem.scores(text, [c.name for c in columns])
    return [
        0.0 if _GENERIC_NAME.fullmatch(c.name) or _near_by_a_word(c.name, text) else s
        for c, s in zip(columns, scores, strict=True)
    ]


def _near_by_a_word(name: str, text: str) -> bool:
    """Whether a column's name holds one of the subject's words, not a period's ("F19"), but lacks
    another ("Interest Rates" for "interest income"): near it by that word, not by meaning."""
    subject, own = words(text), label_words(name)
    return any(not any(ch.isdigit() for ch in w) for w in own & subject) and bool(subject - own)


def _symbol_named(name: str, question: str) -> bool:
    """A column named by a symbol alone ("€", "US$") that the question writes ("in € in 2016")."""
    symbol = name.strip()
    return (
        bool(symbol) and not label_words(name) and re.search(rf"(?<!\w){re.escape(symbol)}(?!\w)", question) is not None
    )


def named_columns(question: str, columns: list[ColumnInfo]) -> list[ColumnInfo]:
    """The ``columns`` the question names in words."""
    asked = words(question)
    return [c for c in columns if lexical(c.name, asked, asked)[0] >= COLUMN_MIN_WORDS]


def value_column(question: str, text: str, columns: list[ColumnInfo], sem: Semantic) -> ColumnInfo | None:
    """The value column the question is about, when it names one clearly enough."""
    if not columns:
        return None
    scores = column_scores(question, text, columns, sem)
    best = max(range(len(columns)), key=scores.__getitem__)
    return columns[best] if scores[best] >= COLUMN_MIN_SIMILARITY else None
