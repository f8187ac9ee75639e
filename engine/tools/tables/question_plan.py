"""The table computation a question asks for, planned by the engine for a small model.

A 270M model rarely picks a table tool, and names columns loosely when it does. The
engine reads the question against the catalog instead (``question_reading`` gives the
operation, periods and condition) and plans one ``compute_table`` call:

- a table of labelled rows (a report's "Software | 1,950 | 1,538"): the rows it names
  (by words and by the embedding model, across languages), the columns of the years it
  names, or the value column it names; a cell, a change, an average, a ratio, a count;
- a table of records (one row per sale): the value column it asks about, the values,
  months, quarters and years it names as filters, and the dimension of a "which …".

Tables are tried in catalog order (the conversation's attachments first); the first that
fits the question and every period it names wins, else the first that fits the rest. Nothing is planned when no table fits the whole question, so no figure comes
from a computation the question did not ask for. A filter that cannot be applied is
reported (``ignores_period``), so the answer says it is not verified.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel

from engine.grounding.answer_kinds import fold
from engine.grounding.dates import MONTHS
from engine.grounding.quotes import words
from engine.grounding.totals import is_total_label
from engine.tools.tables.catalog import ColumnInfo, TableCatalog, TableInfo
from engine.tools.tables.compute_tool import LABELLED_MAX_ROWS
from engine.tools.tables.label_match import Semantic, label_text, lexical
from engine.tools.tables.question_reading import Reading, read_question

Encode = Callable[[list[str]], Any]

# Rescaled embedding similarity (multilingual-e5-small) of the question's subject words to a
# column's name under which the column is not what the question asks about: "chiffre
# d'affaires" scores 0.56-0.58 with revenue_eur, "livraisons en retard" 1.0 with
# late_deliveries, while "employees work" reaches 0.50 with revenue_eur and "length
# password" 0.41 with headcount.
COLUMN_MIN_SIMILARITY = 0.55
COLUMN_MIN_WORDS = 0.5  # or this share of the column name's words stands in the question
ROW_MIN_WORDS = 0.6  # share of a row label's words that stand in the question
# Or, when no label stands in the question's words, the embedding similarity of its subject
# words to the label, clear of the next label: "chiffre d'affaires logiciels" scores 0.68
# with "Software" and 0.58 with the next; "coût des ventes" 0.83 with "Cost of sales".
ROW_MIN_SIMILARITY = 0.65
ROW_MARGIN = 0.1
UNIQUE_LABELS = 0.9  # a first text column this unique names rows; else the table holds records
SEMANTIC_MAX_LABELS = 400  # more row labels than this are matched by words only


class TablePlan(BaseModel):
    kind: Literal["compute"] = "compute"
    table: str
    args: dict[str, Any]  # the arguments of compute_table
    ignores_period: bool = False  # the question names a period the call does not filter on


_PERIOD_COLUMN = re.compile(r"(?i)date|month|year|period|quarter|week|day|mois|annee|année|trimestre|semaine|jour")
_PERIOD_DIMENSIONS = frozenset({"year", "years", "annee", "month", "mois", "quarter", "trimestre", "period", "periode"})
_DATE_VALUE = re.compile(r"\d{4}-\d{2}(?:-\d{2})?")
_YEAR_IN_NAME = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)|(?i:\bfy\s?'?)(\d\d)\b")
_PERCENT_NAME = re.compile(r"(?i)%|percent|pct|rate|margin|ratio|taux|marge|pourcentage")
_QUARTER_VALUE = re.compile(r"(?i)(?:^|\W)[QT][1-4](?:\W|$)")


def _values(info: TableInfo, column: ColumnInfo) -> list[Any]:
    return info.data.column(column.name).to_pylist()


def _years_of(name: str) -> list[str]:
    """The years a column name holds: "2019", "December 31, 2019", "FY19"."""
    return [full or f"20{short}" for full, short in _YEAR_IN_NAME.findall(name)]


def _label_column(info: TableInfo, catalog: TableCatalog) -> ColumnInfo | None:
    """The first text column, when its values name the rows: nearly all distinct, or
    beside columns named by years (a report's table)."""
    key = ("label_column", info.name)
    if key not in catalog.memo:
        found = None
        texts = [c for c in info.columns if c.kind == "text"]
        numbers = [c for c in info.columns if c.kind == "number"]
        if texts and numbers and info.rows <= LABELLED_MAX_ROWS:
            values = [v for v in _values(info, texts[0]) if v not in (None, "")]
            unique = bool(values) and len(set(values)) >= UNIQUE_LABELS * len(values)
            found = texts[0] if unique or _year_columns(numbers) else None
        catalog.memo[key] = found
    return catalog.memo[key]


def _labels(info: TableInfo, label: ColumnInfo, numbers: list[ColumnInfo]) -> list[str]:
    """The row labels a question can name: each once in the table, on a row holding a figure."""
    texts = [str(v).strip() if v is not None else "" for v in _values(info, label)]
    held = [any(v is not None for v in row) for row in zip(*(_values(info, c) for c in numbers), strict=True)]
    counts: dict[str, int] = {}
    for text in texts:
        counts[text] = counts.get(text, 0) + 1
    return [t for t, figures in zip(texts, held, strict=True) if t and figures and counts[t] == 1]


def _date_column(info: TableInfo) -> ColumnInfo | None:
    """A column dating the rows: a date, or text such as 2025-03 under a period name."""
    for col in info.columns:
        if col.kind == "date":
            return col
    for col in info.columns:
        if col.kind == "text" and _PERIOD_COLUMN.search(col.name):
            sample = [v for v in _values(info, col)[:20] if v]
            if sample and all(_DATE_VALUE.match(str(v)) for v in sample):
                return col
    return None


def _quarter_column(info: TableInfo) -> ColumnInfo | None:
    """A text column of quarters ("Q2", "T2", "2025-Q2")."""
    return next(
        (
            c
            for c in info.columns
            if c.kind == "text" and c.examples and all(_QUARTER_VALUE.search(v) for v in c.examples)
        ),
        None,
    )


def _month_value(info: TableInfo, month: int) -> tuple[ColumnInfo, str] | None:
    """A text column of month names and its value for ``month`` ("March", "mars")."""
    for col in info.columns:
        names = {MONTHS.get(fold(v).strip(".")) for v in col.examples} if col.kind == "text" else set()
        if col.examples and None not in names:
            return next(((col, v) for v in col.examples if MONTHS.get(fold(v).strip(".")) == month), None)
    return None


def _named_values(question: str, info: TableInfo) -> list[tuple[ColumnInfo, str]]:
    """(column, value) for every listed value of a text column that the question names.
    Short values ("IT", "Q2") must stand in the question as written; longer ones are
    matched without case or accents, as whole words."""
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


def _without(text: str, values: list[str]) -> str:
    """``text`` without the words of ``values`` (the rows or filter values it names)."""
    taken = {w for v in values for w in words(v)}
    return " ".join(t for t in text.split() if not words(t) & taken)


def _column_scores(question: str, text: str, columns: list[ColumnInfo], sem: Semantic) -> list[float]:
    """1 for a column the question names in words; else the embedding similarity."""
    asked = words(question)
    named = [1.0 if lexical(c.name, asked, asked)[0] >= COLUMN_MIN_WORDS else 0.0 for c in columns]
    return named if any(named) else sem.scores(text, [c.name for c in columns])


def _measure(question: str, text: str, columns: list[ColumnInfo], sem: Semantic) -> ColumnInfo | None:
    """The value column the question is about, when it names one clearly enough."""
    if not columns:
        return None
    scores = _column_scores(question, text, columns, sem)
    best = max(range(len(columns)), key=scores.__getitem__)
    return columns[best] if scores[best] >= COLUMN_MIN_SIMILARITY else None


def _position(label: str, folded: str) -> int:
    own = [w for w in re.findall(r"[a-z0-9]+", fold(label)) if len(w) > 2] or [fold(label)]
    spots = [folded.find(w) for w in own if w in folded]
    return min(spots) if spots else len(folded)


def _rows(question: str, reading: Reading, labels: list[str], sem: Semantic) -> list[str]:
    """The row labels the question names: several when it adds, averages or compares
    rows it names in full, else the one that fits it best, else none."""
    asked = words(_YEAR_IN_NAME.sub(" ", question))
    scored, full, shares = [], [], []
    for label in labels:
        if len(label) <= 3:  # "IT" must stand as written
            share = 1.0 if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", question) else 0.0
            cover = share / max(1, len(reading.subject))
        else:
            share, cover = lexical(label, asked, reading.subject)
        shares.append(share)
        scored.append(0.75 * share + 0.25 * cover if share >= ROW_MIN_WORDS else 0.0)
        if share == 1.0 and not (is_total_label(label) and reading.operation in ("sum", "mean")):
            full.append(label)  # a Total row is never added again
    if max(shares, default=1.0) < 1.0 and len(labels) <= SEMANTIC_MAX_LABELS:  # no label in words: by meaning
        semantic = sem.scores(reading.subject_text, labels)
        ranked = sorted(semantic, reverse=True) + [0.0]
        if ranked[0] >= ROW_MIN_SIMILARITY and ranked[0] - ranked[1] >= ROW_MARGIN:
            best = semantic.index(ranked[0])
            scored[best] = max(scored[best], ranked[0])
    full = [
        a for a in full if not any(a != b and words(a) < words(b) for b in full)
    ]  # "Software" in "Software revenue"
    if reading.operation in ("sum", "mean", "ratio", "share", "change", "percent_change") and len(full) >= 2:
        folded = fold(question)
        return sorted(full, key=lambda label: _position(label, folded))
    best = max(range(len(labels)), key=scored.__getitem__, default=None)
    return [labels[best]] if best is not None and scored[best] > 0 else []


def _year_columns(numbers: list[ColumnInfo], question: str = "") -> dict[str, ColumnInfo | None]:
    """The column of each year; None when several columns hold a year ("Pension 2018",
    "Other 2018") and the question's words do not pick one."""
    held: dict[str, list[ColumnInfo]] = {}
    for col in numbers:
        for year in _years_of(col.name):
            held.setdefault(year, []).append(col)
    asked = words(question)
    by_year: dict[str, ColumnInfo | None] = {}
    for year, cols in held.items():
        if len(cols) > 1:
            named = [c for c in cols if words(_YEAR_IN_NAME.sub(" ", label_text(c.name))) & asked]
            cols = named if len(named) == 1 else [None]
        by_year[year] = cols[0]
    return by_year


def _period_unmet(reading: Reading, info: TableInfo, years_held: bool) -> bool:
    """Whether the question names a month, quarter or year this table cannot be filtered on."""
    if reading.months or reading.quarters:
        return True
    return bool(reading.years) and not years_held and not all(y in info.source for y in reading.years)


def _plan_labelled(
    question: str, reading: Reading, info: TableInfo, label: ColumnInfo, sem: Semantic
) -> TablePlan | None:
    op = reading.operation
    numbers = [c for c in info.columns if c.kind == "number"]
    rows = _rows(question, reading, _labels(info, label, numbers), sem)
    if op in ("max", "min") and reading.dimension and reading.dimension not in _PERIOD_DIMENSIONS:
        rows = []  # "which segment …": the rows are what is compared
    text = _without(reading.subject_text, rows)
    by_year = _year_columns(numbers, question)
    if reading.years and by_year:
        if any(by_year.get(y) is None for y in reading.years):
            return None  # a year the table does not hold, or in columns the question does not tell apart
        cols = [by_year[y] for y in reading.years]
        if op in ("change", "percent_change"):
            cols = sorted(cols, key=lambda c: _years_of(c.name)[0], reverse=True)  # later − earlier
    elif (measure := _measure(question, text, [c for c in numbers if not _years_of(c.name)], sem)) is not None:
        cols = [measure]
    elif len(numbers) == 1:
        cols = numbers
    elif by_year and None not in by_year.values() and (op in ("count_if", "max", "min") or len(by_year) == 2):
        cols = sorted(dict.fromkeys(by_year.values()), key=lambda c: _years_of(c.name)[0], reverse=True)
    else:
        return None  # which column the question is about is not said
    if op in ("sum", "mean", "value") and len(rows) == 1 and len(cols) == 1:
        op = "value"  # "total revenue in 2019" reads the Total row; one cell is its own sum
    shape = (min(len(rows), 2), min(len(cols), 2))
    fits = {
        "value": {(1, 1)},
        "change": {(1, 2), (2, 1)},
        "percent_change": {(1, 2), (2, 1)},
        "ratio": {(1, 2), (2, 1)},
        "share": {(2, 1)},
        "mean": {(1, 2), (2, 1), (0, 1)},
        "sum": {(1, 2), (2, 1), (0, 1)},
        "count_if": {(1, 1), (1, 2)},
        "max": {(1, 2), (0, 1)},
        "min": {(1, 2), (0, 1)},
    }
    if op is None or shape not in fits[op] or len(cols) > 2 and op in ("change", "percent_change", "ratio", "share"):
        return None
    if op == "value" and reading.percent and not _PERCENT_NAME.search(rows[0] + " " + cols[0].name):
        return None  # a percentage asked, and the cell is no percentage: it must be computed
    args: dict[str, Any] = {"table": info.name, "operation": op, "label_column": label.name, "rows": rows[:12],
                            "columns": [c.name for c in cols]}  # fmt: skip
    if op == "count_if":
        args["condition"] = {"comparison": reading.condition.comparison, "threshold": reading.condition.threshold}
    unmet = _period_unmet(reading, info, years_held=bool(by_year))
    return TablePlan(table=info.name, args=args, ignores_period=unmet)


def _group_column(dimension: str | None, info: TableInfo, sem: Semantic) -> ColumnInfo | None:
    """The column a "which region / quel produit" question groups by."""
    if dimension is None:
        return None
    candidates = [c for c in info.columns if c.kind != "number"]
    if dimension in _PERIOD_DIMENSIONS:
        return next(
            (c for c in candidates if _PERIOD_COLUMN.search(fold(c.name)) and dimension[:4] in fold(c.name)), None
        )
    for col in candidates:
        if words(dimension) & words(label_text(col.name)):
            return col
    scores = sem.scores(dimension, [c.name for c in candidates])
    best = max(range(len(candidates)), key=scores.__getitem__, default=None)
    return candidates[best] if best is not None and scores[best] >= ROW_MIN_SIMILARITY else None


def _names_more(question: str, info: TableInfo, filters: list[dict[str, Any]]) -> bool:
    """Whether the question names something (a capitalised word inside it) that is neither a
    filter value, a column, a month nor a quarter of this table."""
    known = {w for f in filters if "value" in f for w in words(f["value"])}
    known |= {w for c in info.columns for w in words(label_text(c.name))} | words(info.source)
    for token in re.findall(r"(?<=\s)[A-ZÀ-Ý][\w'-]{2,}", question):
        if fold(token) not in MONTHS and not words(token) <= known and not _QUARTER_VALUE.search(token):
            return True
    return False


def _plan_records(question: str, reading: Reading, info: TableInfo, sem: Semantic) -> TablePlan | None:
    op = reading.operation
    if op not in ("value", "sum", "mean", "max", "min"):
        return None  # a change or ratio of records is not planned: the question names no two cells
    values = [v for c in info.columns for v in c.examples]
    measure = _measure(
        question, _without(reading.subject_text, values), [c for c in info.columns if c.kind == "number"], sem
    )
    if measure is None:
        return None
    group = _group_column(reading.dimension, info, sem) if op in ("max", "min") else None
    filters: list[dict[str, Any]] = []
    for col, value in _named_values(question, info):
        if (group is None or col.name != group.name) and all(f["column"] != col.name for f in filters):
            filters.append({"column": col.name, "value": value})
    date = _date_column(info)
    unmet = len(reading.months) > 1 or len(reading.quarters) > 1  # a range of periods is not filtered on
    quarters = _quarter_column(info)
    if len(reading.quarters) == 1 and (column := quarters or date) is not None:
        filters = [f for f in filters if f["column"] != column.name]
        filters.append({"column": column.name, "quarter": reading.quarters[0]})
    elif reading.quarters:
        unmet = True
    if len(reading.months) == 1:
        named_month = _month_value(info, reading.months[0])
        if named_month is not None:
            filters = [f for f in filters if f["column"] != named_month[0].name]
            filters.append({"column": named_month[0].name, "value": named_month[1]})
        elif date is not None:
            filters.append({"column": date.name, "month": reading.months[0]})
        else:
            unmet = True
    years = [y for y in reading.years if y not in info.source]
    if len(years) == 1 and date is not None:
        filters.append({"column": date.name, "year": int(years[0])})
    elif years:
        unmet = True
    if _names_more(question, info, filters):
        return None  # "Software revenue" of a table that has no Software
    args: dict[str, Any] = {"table": info.name, "operation": op, "columns": [measure.name], "filters": filters}
    if group is not None:
        args["group_by"] = group.name
    return TablePlan(table=info.name, args=args, ignores_period=unmet)


def plan(question: str, catalog: TableCatalog, encode: Encode | None = None) -> TablePlan | None:
    """The one table computation that answers ``question``, or None when no table fits."""
    reading = read_question(question)
    if reading.operation is None:
        return None
    sem = Semantic(catalog, encode)
    partial: TablePlan | None = None  # the first plan that leaves out a period the question names
    for info in catalog.tables.values():
        label = _label_column(info, catalog)
        if label is not None:
            planned = _plan_labelled(question, reading, info, label, sem)
        else:
            planned = _plan_records(question, reading, info, sem)
        if planned is not None and not planned.ignores_period:
            return planned
        partial = partial or planned
    return partial
