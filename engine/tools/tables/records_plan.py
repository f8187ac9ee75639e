"""The plan for a table of records (one row per sale, a dated CSV): the value column the
question asks about, the values, months, quarters and years it names as filters, and the
column a "which region …" groups by (``question_plan`` plans tables of labelled rows)."""

from __future__ import annotations

from typing import Any

from engine.grounding.answer_kinds import fold
from engine.grounding.stems import words
from engine.tools.tables.catalog import ColumnInfo, TableInfo
from engine.tools.tables.column_match import value_column
from engine.tools.tables.label_match import ROW_MIN_SIMILARITY, Semantic, label_text
from engine.tools.tables.question_reading import Reading, read_question
from engine.tools.tables.table_shape import (
    PERIOD_COLUMN,
    PERIOD_DIMENSIONS,
    column_values,
    date_column,
    month_value,
    named_values,
    quarter_column,
    unknown_names,
    without_words,
)


def group_column(dimension: str | None, info: TableInfo, sem: Semantic) -> ColumnInfo | None:
    """The column a "which region / quel produit" question groups by."""
    if dimension is None:
        return None
    candidates = [c for c in info.columns if c.kind != "number"]
    if dimension in PERIOD_DIMENSIONS:
        return next(
            (c for c in candidates if PERIOD_COLUMN.search(fold(c.name)) and dimension[:4] in fold(c.name)), None
        )
    for col in candidates:
        if words(dimension) & words(label_text(col.name)):
            return col
    scores = sem.scores(dimension, [c.name for c in candidates])
    best = max(range(len(candidates)), key=scores.__getitem__, default=None)
    return candidates[best] if best is not None and scores[best] >= ROW_MIN_SIMILARITY else None


_YEARS_MAX = 201  # distinct years 1900–2100: a column holding more figures is no column of years


def figure_columns(info: TableInfo) -> list[ColumnInfo]:
    """The number columns that hold figures: not one of distinct years ("2015", "2014"), the rows' periods. A
    column of more figures than there are such years is not read (a table of records may hold millions)."""
    return [c for c in info.columns if c.kind == "number" and not _years_only(info, c)]


def _years_only(info: TableInfo, column: ColumnInfo) -> bool:
    data = info.data.column(column.name)
    if len(data) - data.null_count > _YEARS_MAX:
        return False
    held = [v for v in column_values(info, column) if v is not None]
    years = len(held) >= 2 and all(isinstance(v, int | float) and float(v).is_integer() for v in held)
    return years and len(set(held)) == len(held) and all(1900 <= v <= 2100 for v in held)


def records_measure(question: str, info: TableInfo, sem: Semantic, reading: Reading | None = None) -> ColumnInfo | None:
    """The value column of a table of records that the question (``reading``: as read) asks about, if it names one."""
    values = [v for c in info.columns for v in c.examples]
    reading = reading or read_question(question)
    return value_column(question, without_words(reading.subject_text, values), figure_columns(info), sem)


def records_args(question: str, reading: Reading, info: TableInfo, sem: Semantic) -> tuple[dict[str, Any], bool] | None:
    """The ``compute_table`` arguments for a table of records, and whether a period asked could not be filtered on."""
    op = reading.operation
    if op not in ("value", "sum", "mean", "max", "min"):
        return None  # a change or ratio of records is not planned: the question names no two cells
    measure = records_measure(question, info, sem, reading)
    if measure is None:
        return None
    group = group_column(reading.dimension, info, sem) if op in ("max", "min") else None
    if op in ("max", "min") and reading.dimension is not None and group is None:
        return None  # "which desk …" of a table without desks: no winner to name
    filters: list[dict[str, Any]] = []
    for col, value in named_values(question, info):
        if (group is None or col.name != group.name) and all(f["column"] != col.name for f in filters):
            filters.append({"column": col.name, "value": value})
    date = date_column(info)
    unmet = len(reading.months) > 1 and not reading.month_range or len(reading.quarters) > 1
    quarters = quarter_column(info)
    if len(reading.quarters) == 1 and (column := quarters or date) is not None:
        filters = [f for f in filters if f["column"] != column.name]
        filters.append({"column": column.name, "quarter": reading.quarters[0]})
    elif reading.quarters:
        unmet = True
    if reading.month_range and date is not None:
        first, last = sorted(reading.months)
        filters.append({"column": date.name, "month": first, "month_to": last})
    elif reading.month_range:
        unmet = True
    elif len(reading.months) == 1:
        named_month = month_value(info, reading.months[0])
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
    if unknown_names(question, info, filters):
        return None  # "Software revenue" of a table that has no Software
    if not filters and group is None and info.rows > 1 and (op == "value" or info.total_column is not None):
        # "the number of shares outstanding as of September 30, 2018": one cell, and no filter finds it; the
        # whole column of a report, its Total rows among its items, is no sum or average asked
        return None
    args: dict[str, Any] = {"table": info.name, "operation": op, "columns": [measure.name], "filters": filters}
    if group is not None:
        args["group_by"] = group.name
        if reading.single:
            args["single_row"] = True
    return args, unmet
