"""The table call a question asks for, planned by the engine for a small model.

A 270M model rarely picks a table tool, and names columns loosely when it does. The
engine can read the question against the catalog instead: the rows it is about (a
value of a text column the question names: "Gdansk", "IT"), the numeric column it asks
about (by the embedding model as well as by words, so "livraisons en retard" finds
``late_deliveries``), and the operation its words ask for (a total, an average, the
most, the least). It plans nothing unless the question is about one of a table's
numeric columns: then an aggregate when it asks for one, else a lookup of the rows it
names when it asks for a figure ("who" asks for none).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel

from engine.grounding.answer_kinds import aggregate_asked, answer_kind, fold, years_named
from engine.grounding.figures import extract_figures
from engine.grounding.quotes import asks_for_figure, words
from engine.tools.tables.catalog import ColumnInfo, TableCatalog, TableInfo

Encode = Callable[[list[str]], Any]

# Rescaled embedding similarity of the question to a column's name under which the column
# is not what the question asks about: on the QA set, the columns asked about score
# 0.49-0.67 and the others at most 0.44 ("headcount" for "the minimum length of a password").
COLUMN_MIN_SIMILARITY = 0.45
COLUMN_MIN_WORDS = 0.5  # or this share of the column name's words stands in the question


class TablePlan(BaseModel):
    kind: Literal["aggregate", "lookup"]
    table: str
    args: dict[str, Any]  # the arguments of aggregate_table / lookup_table
    ignores_period: bool = False  # the question names a period the call does not filter on


_PERIOD_COLUMN = re.compile(r"(?i)date|month|year|period|quarter|week|day|mois|annee|année|trimestre|semaine|jour")
_PERIOD_WORDS = re.compile(
    r"\b(?:q[1-4]|quarter|trimestre|semester|semestre|first half|second half|premier semestre)\b"
)
_DATE_VALUE = re.compile(r"\d{4}-\d{2}(?:-\d{2})?")


def names_period(question: str) -> bool:
    """Whether the question restricts itself to a year, a month or a quarter."""
    dated = any(f.kind == "date" for f in extract_figures(question))
    return bool(years_named(question)) or dated or bool(_PERIOD_WORDS.search(fold(question)))


def _has_period_column(info: TableInfo) -> bool:
    return any(
        c.kind == "date" or _PERIOD_COLUMN.search(c.name) or any(_DATE_VALUE.fullmatch(v) for v in c.examples)
        for c in info.columns
    )


def _named_values(question: str, info: TableInfo) -> list[tuple[ColumnInfo, str]]:
    """(column, value) for every listed value of a text column that the question names.
    Short values ("IT") must stand in the question as written; longer ones are matched
    without case or accents, as whole words."""
    folded = fold(question)
    found = []
    for col in info.columns:
        for value in col.examples:
            if len(value) < 2:
                continue
            if len(value) <= 3:
                hit = re.search(rf"(?<!\w){re.escape(value)}(?!\w)", question)
            else:
                hit = re.search(rf"(?<!\w){re.escape(fold(value))}(?!\w)", folded)
            if hit:
                found.append((col, value))
    return found


def _column_label(name: str) -> str:
    return re.sub(r"[_\W]+", " ", name).strip()


def _measure(question: str, info: TableInfo, encode: Encode | None) -> tuple[ColumnInfo | None, float]:
    """The numeric column the question is about, and how sure (0-1)."""
    numbers = [c for c in info.columns if c.kind == "number"]
    if not numbers:
        return None, 0.0
    asked = words(question)
    lexical = [len(words(_column_label(c.name)) & asked) / max(1, len(words(_column_label(c.name)))) for c in numbers]
    lexical = [1.0 if share >= COLUMN_MIN_WORDS else 0.0 for share in lexical]
    semantic = [0.0] * len(numbers)
    if encode is not None:
        query = getattr(encode, "query", encode)
        low, high = getattr(encode, "similarity_range", (0.0, 1.0))
        q = np.asarray(query([question]), dtype=np.float32)[0]
        vectors = np.asarray(encode([_column_label(c.name) for c in numbers]), dtype=np.float32)
        semantic = [float(np.clip((s - low) / (high - low), 0.0, 1.0)) for s in vectors @ q]
    scores = [max(lex, sem) for lex, sem in zip(lexical, semantic, strict=True)]
    best = int(np.argmax(scores))
    return numbers[best], scores[best]


def plan(question: str, catalog: TableCatalog, encode: Encode | None = None) -> TablePlan | None:
    """The one table call that best answers ``question``, or None when no table fits."""
    best: tuple[float, TablePlan] | None = None
    op = aggregate_asked(question)
    wants_figure = answer_kind(question) not in (None, "person") or asks_for_figure(question)
    for info in catalog.tables.values():
        measure, sure = _measure(question, info, encode)
        if measure is None or sure < COLUMN_MIN_SIMILARITY:
            continue  # the question is not about a column of this table
        named = _named_values(question, info)
        if op is not None:
            args: dict[str, Any] = {"table": info.name, "column": measure.name, "operation": op}
            if named:
                args |= {"filter_column": named[0][0].name, "filter_value": named[0][1]}
            period = names_period(question) and _has_period_column(info)
            candidate = TablePlan(kind="aggregate", table=info.name, args=args, ignores_period=period)
        elif named and wants_figure:
            col, value = named[0]
            candidate = TablePlan(
                kind="lookup", table=info.name, args={"table": info.name, "column": col.name, "value": value}
            )
        else:
            continue
        score = len(named) + sure
        if best is None or score > best[0]:
            best = (score, candidate)
    return best[1] if best else None
