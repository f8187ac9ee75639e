"""The table computation a question asks for, planned by the engine for a small model.

A 270M model rarely picks a table tool, and names columns loosely when it does. The
engine reads the question against the catalog instead (``question_reading`` gives the
operation, periods and condition) and plans one ``compute_table`` call:

- a table of labelled rows (a report's "Software | 1,950 | 1,538"): the rows it names
  (by words and by the embedding model, across languages), the columns of the years it
  names, or the value column it names; a cell, a change, an average, a ratio, a count; the
  year of the larger figure, the years meeting a condition or holding figures; the rows
  making up a total;
- a table of records (one row per sale): the value column it asks about, the values,
  months, quarters and years it names as filters, and the dimension of a "which …"
  (``records_plan``).

Tables are tried in catalog order (the conversation's attachments first); the first that fits the question
and every period it names wins, else the first that fits the rest. Nothing is planned when no table fits the
whole question, so no figure comes from a computation the question did not ask for. A filter that cannot be
applied is reported (``ignores_period``), so the answer says it is not verified.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel

from engine.grounding.answer_kinds import ALL_SUMMED, aggregate_asked, fold
from engine.grounding.initialisms import dotted
from engine.grounding.report_table import COMPARISON_COLUMN
from engine.grounding.stems import words
from engine.grounding.totals import is_balance_label, is_total_label
from engine.tools.tables.catalog import ColumnInfo, TableCatalog, TableInfo
from engine.tools.tables.cell_statement import asked_direction
from engine.tools.tables.column_match import named_columns, value_column
from engine.tools.tables.compute_tool import MAX_ROWS
from engine.tools.tables.label_match import (
    Encode,
    Semantic,
    best_named,
    label_text,
    label_words,
    named_rows,
)
from engine.tools.tables.plan_periods import column_after, from_year_before, period_unmet, year_after
from engine.tools.tables.plan_rows import net_of_two, part_and_whole
from engine.tools.tables.question_reading import (
    ACROSS_PERIODS,
    EACH_PERIOD,
    FROM_TO,
    Reading,
    operation_as_name,
    read_question,
    whole_as_column,
)
from engine.tools.tables.records_plan import records_args
from engine.tools.tables.roll_forward import balance_rows
from engine.tools.tables.table_shape import (
    PERIOD_DIMENSIONS,
    YEAR_IN_NAME,
    column_values,
    columns_due,
    dated_rows,
    figure_rows,
    filled_at,
    label_column,
    period_columns,
    row_labels,
    row_whole,
    total_of,
    total_whole,
    unknown_names,
    without_wholes,
    without_words,
    year_columns,
    year_rows,
    years_of,
)


class TablePlan(BaseModel):
    kind: Literal["compute"] = "compute"
    table: str
    args: dict[str, Any]  # the arguments of compute_table
    ignores_period: bool = False  # the question names a period the call does not filter on


_ASKED_FOR = words("percentage percent amount value number figure rate ratio")  # "what percentage": no name asked
_NOT_ADDITIVE = re.compile(
    r"\((?:in )?(?:years?|months?|days?)\)|\buseful li(?:fe|ves)\b|\brates?\b|\bper (?:share|unit)\b|\baverage\b"
)  # a column of durations, rates or per-share amounts
_PERCENT_OF = re.compile(r"\b(?:percentage|percent|%) (?:to|of)\b")
_PERCENT_NAME = re.compile(r"(?i)%|percent|pct|rate|margin|ratio|taux|marge|pourcentage")


_COMPARING_WORDS = words("change changes variance variation growth increase decrease difference vs versus")
_OF_TWO = ("change", "decrease", "difference", "percent_change", "ratio", "share")
_MEAN_WORD = re.compile(r"(?i)\b(?:average|mean|moyenne)\b")  # the operation's word, when it is no name
_SHARE_ROW = re.compile(r"\b(?:percentage|percent|share|proportion) of\b|%\s*of\b")  # "Percentage of revenue"


def _named_whole(name: str, asked: set[str]) -> bool:
    """Whether the question names every word of a column's name but its years, and one more
    than the comparison ("Variance in Dollars", not "% Change" for "the change in services")."""
    own = label_words(YEAR_IN_NAME.sub(" ", name))
    return bool(own - _COMPARING_WORDS) and own <= asked


def _section_rows(heads: dict[str, str], labels: list[str], asked: set[str], reading: Reading) -> list[str] | None:
    """The rows of the section the question names, Totals left out (none when it names none); None when they are
    more than one call names: a count or ranking of some of them would be no count or ranking of all."""
    head = best_named(list(heads.values()), asked, reading.subject) if heads else None
    rows = [r for r in labels if head is not None and heads.get(r) == head and not is_total_label(r)]
    return rows if len(rows) <= MAX_ROWS else None


def _plan_labelled(
    question: str, reading: Reading, info: TableInfo, label: ColumnInfo, catalog: TableCatalog, sem: Semantic
) -> TablePlan | None:
    texts = [c for c in info.columns if c.kind != "number"]
    values = [str(v) for c in texts for v in column_values(info, c) if v is not None]
    held = frozenset(w for v in values for w in label_words(v))
    if unknown_names(question, info, held=held):
        return None  # "APRU from on-net": a name no row, heading or column of the table holds
    names = [*values, *(c.name for c in info.columns)]
    asked_words = words(question)
    shares_named = any(_SHARE_ROW.search(fold(v)) and label_words(v) <= asked_words for v in values)
    if reading.operation == "share" and (info.unit == "percent" or shares_named):
        # "the total percentage of revenue from A and B", "the product percentage of revenue": the cells are shares
        reading = replace(reading, operation=aggregate_asked(question) or "value")
    reading = operation_as_name(question, reading, held | {w for c in info.columns for w in label_words(c.name)}, names)
    op = reading.operation
    numbers = [c for c in info.columns if c.kind == "number"]
    if op == "items":
        return _plan_items(question, reading, info, label, numbers, catalog, sem)
    section = next((c for c in info.columns if c.name == info.section_column), None)
    pairs = zip(column_values(info, label), column_values(info, section), strict=True) if section else ()
    heads = {str(a).strip(): str(b) for a, b in pairs if a and b}
    question, reading = whole_as_column(question, reading, [c.name for c in numbers])  # "% of total sales"
    asked = words(YEAR_IN_NAME.sub(" ", question)) | dotted(question)
    rows = named_rows(question, asked, reading, labels := row_labels(info, label, numbers, catalog), sem, heads)
    within_year = op in ("change", "percent_change") and len(reading.years) == 1
    captioned = frozenset(label_words(info.caption))  # the table's own subject, in the text that introduces it
    rows = balance_rows(question, labels, rows, within_year, reading.subject, captioned)  # "from the end of 2014 to …"
    if op == "share" and (parts := part_and_whole(question, labels, sem, heads)) is not None:
        rows = parts  # "what portion of the purchase price is dedicated to goodwill?": Goodwill of Final purchase price
    bare = [r for r in rows if fold(r).strip() == "total"]  # "the ratio of the total flight attendants to total …"
    if op in _OF_TWO and len(rows) == 3 and len(bare) == 1 and all(total_of(r, question) for r in rows if r != bare[0]):
        rows = [r for r in rows if r not in bare]  # the Total is no third row: each row is "total" as the table sums it
    dimension = reading.dimension
    asks_which = dimension and re.search(rf"\b(?:which|quel(?:le)?s?) {re.escape(dimension)}\b", fold(question))
    if dimension and not asks_which and len(rows) == 1 and words(dimension) <= label_words(rows[0]):
        dimension = None  # "the lowest segment operating income": the row "Segment operating income", by year
    ranked = op in ("max", "min") and dimension and dimension not in PERIOD_DIMENSIONS
    if ranked:  # "which segment …": the rows are what is compared, those of the section it names, or those named
        if (section := _section_rows(heads, labels, asked, reading)) is None:
            return None
        # "for A, B and C, which facility has the greatest …": the rows it names whole, as a sum of them would be
        named = [] if section else named_rows(question, asked, replace(reading, operation="sum"), labels, sem, heads)
        rows = section or (named if len(named) >= 2 else [])
    elif (
        reading.dimension
        and reading.dimension not in PERIOD_DIMENSIONS
        and op not in ("value", "count_if", "periods", "which_if")
        and asks_which
        and not words(reading.dimension) <= _ASKED_FOR
    ):
        return None  # "which segment had the smallest percentage change": a name, not one computation
    text = without_words(reading.subject_text, rows)
    # "the percentage change in X" is of X's amounts, not of its "% to Net Sales" column
    amounts = op == "percent_change" and not _PERCENT_OF.search(fold(question))
    by_year = year_columns(
        numbers,
        _MEAN_WORD.sub(" ", question) if op == "mean" else question,  # "the average shares vested": no "Average" column
        percent=reading.percent and not amounts,
        row_words=frozenset(w for r in rows for w in label_words(r)),
        filled=filled_at(info, label, rows),
    )
    across = bool(ACROSS_PERIODS.search(fold(question))) and op in ("sum", "mean")  # "across all 3 years": one sum
    each = bool(EACH_PERIOD.search(fold(question))) and not across  # "for each financial year listed": every period
    op = "value" if each and op == "sum" else op  # "the total bookings for each year": the Total row's cells
    due = columns_due(question, numbers)
    # "due in 2018" of a table dated "As of December 2015" whose rows are the years due: the years run down rows
    unheld = bool(by_year) and any(by_year.get(y) is None for y in reading.years)
    down_rows = unheld and all(year_rows(labels, [y], asked) for y in reading.years)
    compared = [c for c in numbers if COMPARISON_COLUMN.search(c.name) and _named_whole(c.name, asked)]
    after = year_after(question)
    if due:  # "due within 5 years": "Up to 1 year", "1 to 3 years" and "3 to 5 years"
        cols, op = due, "sum" if len(due) > 1 and op in ("value", "sum") else op
    elif after is not None and by_year.get(after) is not None:  # "due after 2021": the Thereafter column, not 2021's
        if (later := column_after(after, numbers)) is None:
            return None
        cols, down_rows = [later], False
    elif len(compared) == 1 and op in ("value", "change", "difference"):
        cols, op = compared, "value"  # "the variance in dollars for 2019 vs 2018": the column that states it
    elif (
        op == "periods" or (op == "value" and each or across) and not reading.years
    ):  # every period, in the table's order
        cols = period_columns(numbers)
    elif op == "which_if":
        cols = [c for c in numbers if any(c is v for v in by_year.values())] if None not in by_year.values() else []
    elif reading.years and by_year and not down_rows:
        if any(by_year.get(y) is None for y in reading.years):
            return None  # a year the table does not hold, or in columns the question does not tell apart
        cols = list({id(by_year[y]): by_year[y] for y in reading.years}.values())  # "2021 - 2022" once for both
        if from_year_before(question, op, rows, cols, info, labels):
            before = [c for c in numbers if years_of(c.name) == [str(int(reading.years[0]) - 1)]]
            cols += before if len(before) == 1 else []  # "the percentage change in inventory in 2014": from 2013's
        if op in ("change", "decrease", "percent_change"):
            cols = sorted(cols, key=lambda c: years_of(c.name)[0], reverse=True)  # later − earlier
    elif (measure := value_column(question, text, [c for c in numbers if not years_of(c.name)], sem)) is not None:
        cols = [measure]
        named = named_columns(question, [c for c in numbers if not years_of(c.name)])
        if op == "value" and len(named) > 1:
            return None  # "the net of the unrealized gains and losses": two columns named, not one cell
        if op == "difference" and len(named) == 2:
            cols = named  # "the difference between the low and high price": of the two columns named
    elif len(numbers) == 1:
        cols = numbers
    elif by_year and None not in by_year.values() and (op in ("count_if", "max", "min", "mean") or len(by_year) == 2):
        cols = sorted(dict.fromkeys(by_year.values()), key=lambda c: years_of(c.name)[0], reverse=True)
    elif (
        op in ("value", "sum")
        and len(rows) == 1
        and len(held := [c for c in numbers if filled_at(info, label, rows)(c)]) == 1
    ):
        cols = held  # "the total definite-lived intangible assets": the one column where its row holds a figure
    else:
        return None  # which column the question is about is not said
    if (
        op == "share"
        and len(rows) == 1
        and len(cols) == 1
        and (total := total_whole(rows[0], reading.subject, info, label, cols[0]))
    ):
        rows = [rows[0], total]  # "what portion of the purchase price is dedicated to goodwill?": of the Total
    whole = (
        row_whole(question, rows, cols[0], numbers)
        if op == "share" and len(rows) in (1, 2) and len(cols) == 1
        else None
    )
    if whole is not None:  # "… of more than 5 years in the total operating leases": the row's own Total
        rows, cols = [r for r in rows if not is_total_label(r)], [cols[0], whole]
    if ranked and rows:  # "which non-returning director …": the section's rows with a figure
        held = zip(column_values(info, label), figure_rows(info, cols[:1]), strict=True)
        rows = [str(r).strip() for r, h in held if h and str(r).strip() in rows]
    if op in ("change", "percent_change") and len(rows) == 2 and len(cols) == 1 and FROM_TO.search(fold(question)):
        rows = [rows[1], rows[0]]  # "from the beginning to the end of the period": the later row first, end − beginning
    dated: list[str] | None = []
    if reading.years and (down_rows or not any(by_year.values())):  # "Fiscal Year 2019": periods down rows
        in_columns = {w for c in cols for w in label_words(c.name)}
        dated = dated_rows(labels, rows, reading.years, question, asked, in_columns, op)
        if dated is None:
            return None
        rows, dated = dated, [r for r in dated if years_of(r)]  # "2017 net revenue": its year's, though it adds up
    whole_rows = op in ("sum", "mean") and len(cols) == 1 and not (reading.years and dated)  # the rows above
    rows = without_wholes(info, label, rows, cols[0]) if whole_rows else rows
    if op == "value" and len(rows) == 1 and net_of_two(question, rows[0], labels):
        return None  # "the net trading assets from derivatives": receivables less payables, no one cell
    if op in ("sum", "value") and len(rows) == 1 and not is_total_label(rows[0]) and ALL_SUMMED.search(fold(question)):
        return None  # "the sum of all tax credit carryforwards": several rows, and one is named
    if op == "sum" and len(rows) == 1 and len(cols) >= 2 and not (reading.years or across or due):
        return None  # "the total dividend": no year named, no sum over the years asked
    if op in ("sum", "value") and len(rows) == 1 and len(cols) == 1:
        op = "value"  # "total revenue in 2019" reads the Total row; one cell is its own sum
    if op == "count_if" and not reading.counts_periods:  # "how many obligations exceeded …": the rows are counted,
        if (section := _section_rows(heads, labels, asked, reading)) is None:  # of the section named
            return None
        rows = section
    elif op in ("count_if", "which_if") and not rows:
        return None  # "how many years did X exceed …" and no row is X
    shape = (min(len(rows), 2), min(len(cols), 2))
    fits = {
        "value": {(1, 1), (2, 1), (1, 2)},  # one cell, or the cells of the rows or years it names
        **dict.fromkeys(("change", "decrease", "difference", "percent_change", "ratio"), {(1, 2), (2, 1)}),
        "share": {(2, 1), *([(1, 2)] if whole is not None else [])},
        **dict.fromkeys(("mean", "sum"), {(1, 2), (2, 1), (0, 1)}),
        "count_if": {(1, 1), (1, 2), (0, 1), (2, 1)},  # a cell, a row's years, every row or a section's rows
        **dict.fromkeys(("max", "min"), {(1, 2), (0, 1), *([(2, 1)] if ranked else [])}),
        "which_if": {(1, 1), (1, 2)},
        "periods": {(0, 1), (0, 2), (1, 1), (1, 2)},
    }
    if op is None or shape not in fits[op] or max(len(cols), len(rows)) > 2 and op in _OF_TWO:
        return None
    if op == "sum" and any(_NOT_ADDITIVE.search(fold(c.name)) for c in cols):
        return None  # years of useful life, rates, amounts per share: no total adds them up
    whole_column = bool(cols) and (years_of(cols[0].name) or info.location or is_total_label(cols[0].name))
    if shape == (0, 1) and op in ("sum", "mean") and whole_column:
        return None  # a report's column mixes revenue, costs and subtotals, a "Total" column every item: name rows
    if op == "value" and shape == (1, 2) and not (reading.years and len(reading.years) == len(cols) or each):
        return None  # one row's cells only in the years the question names ("in 2018 and 2019, respectively")
    if (
        op in ("value", "change", "decrease", "difference", "sum", "mean")
        and reading.percent
        and info.unit != "percent"
        and not all(_PERCENT_NAME.search(r + " " + c.name) for r in rows for c in cols)
    ):
        return None  # a percentage asked ("what percentage of the decrease …"), and these cells give none
    if "chronolog" in fold(question) and all(years_of(c.name) for c in cols):
        cols = sorted(cols, key=lambda c: years_of(c.name)[-1])  # "in chronological order": earliest first
    args: dict[str, Any] = {"table": info.name, "operation": op, "label_column": label.name, "rows": rows[:MAX_ROWS],
                            "columns": [c.name for c in cols]}  # fmt: skip
    # "what was the net loss": the loss of "Net income (loss)", or of a column "Net additions (losses)"
    if direction := asked_direction(question, [f"{r} {c.name}" for r in rows or [""] for c in cols]):
        args["as_named"] = direction
    if op in ("count_if", "which_if"):
        args["condition"] = reading.condition.in_scale(info.scale)  # "above $50 million": in the table's unit
    cells = [f"{r} {c.name}" for r in rows or [""] for c in cols]
    unmet = period_unmet(reading, info, bool(by_year), cells, question)
    return TablePlan(table=info.name, args=args, ignores_period=unmet)


def _plan_items(
    question: str, reading: Reading, info: TableInfo, label: ColumnInfo, numbers: list[ColumnInfo],
    catalog: TableCatalog, sem: Semantic,
) -> TablePlan | None:  # fmt: skip
    """The rows making up what the question names: those above its Total row (named last, for the
    statement), those under its heading or section, or every row of a table with one total and no heading."""
    texts = [str(v).strip() if v is not None else "" for v in column_values(info, label)]
    held = figure_rows(info, numbers)
    ends = [i for i, t in enumerate(texts) if t and (not held[i] or is_total_label(t))]  # headings and totals
    asked = words(YEAR_IN_NAME.sub(" ", question)) | dotted(question)
    named = named_rows(
        question, asked, replace(reading, operation="value"), row_labels(info, label, numbers, catalog), sem
    )
    section = next((c for c in info.columns if c.name == info.section_column), None)
    heads = [str(v or "").strip() for v in column_values(info, section)] if section else [""] * len(texts)
    fit = best_named([texts[i] for i in ends if not held[i]], asked, reading.subject)  # a heading row of its own
    head = best_named(heads, asked, reading.subject)
    if named and is_total_label(named[0]):
        last = texts.index(named[0])
        first = max((i + 1 for i in ends if i < last), default=0)
        span, total = list(range(first, last)), [named[0]]
    elif head is not None:  # "Prepayments:" over its rows, read as their section
        span, total = [i for i, h in enumerate(heads) if h == head], []
    elif fit is not None and (at := texts.index(fit)) >= 0:  # "Non-current" over its rows
        span, total = list(range(at + 1, min((i for i in ends if i > at), default=len(texts)))), []
    elif not named and sum(1 for i in ends if held[i]) <= 1 and not any(not held[i] for i in ends) and not any(heads):
        span, total = list(range(len(texts))), []
    else:
        return None  # the question names a row that is no total or heading: it has no items here
    items = [texts[i] for i in span if texts[i] and held[i] and not is_total_label(texts[i])]
    items = moves if len(moves := [t for t in items if not is_balance_label(t)]) >= 2 else items  # not balances
    if not 2 <= len(items) <= 11 or not numbers:
        return None
    args = {"table": info.name, "operation": "items", "label_column": label.name, "rows": items + total,
            "columns": [max(numbers, key=lambda c: sum(v is not None for i, v in enumerate(column_values(info, c)) if i in span)).name]}  # fmt: skip
    return TablePlan(table=info.name, args=args)


def named_tables(question: str, catalog: TableCatalog) -> list[TableInfo]:
    """The tables the question names, by their name or their file's name."""
    asked = words(question)
    named = []
    for info in catalog.tables.values():
        own = words(label_text(info.name)) | words(label_text(info.source.rsplit(".", 1)[0]))
        if own and own <= asked:
            named.append(info)
    return named


# "between 2018 year end and 2019 year end": the years, not the row "At end of the year"
_YEAR_END = re.compile(r"(?i)\b((?:19|20)\d\d)\s+year[- ]end\b|\byear[- ]end\s+((?:19|20)\d\d)\b")


def _each_plan(question: str, catalog: TableCatalog, encode: Encode | None) -> Iterator[TablePlan]:
    """Every table's plan for ``question``, in catalog order (the tables the question names first)."""
    question = _YEAR_END.sub(lambda m: m.group(1) or m.group(2), question)
    reading = read_question(question)
    if reading.operation is None:
        return
    sem = Semantic(catalog, encode)
    named = named_tables(question, catalog)
    for info in [*named, *(t for t in catalog.tables.values() if t not in named)]:
        label = label_column(info, catalog)
        if label is not None:
            planned = _plan_labelled(question, reading, info, label, catalog, sem)
        else:
            found = records_args(question, reading, info, sem)
            planned = TablePlan(table=info.name, args=found[0], ignores_period=found[1]) if found else None
        if planned is not None:
            yield planned


def plans(question: str, catalog: TableCatalog, encode: Encode | None = None) -> list[TablePlan]:
    return list(_each_plan(question, catalog, encode))


def plan(question: str, catalog: TableCatalog, encode: Encode | None = None) -> TablePlan | None:
    """The one table computation that answers ``question``, or None when no table fits:
    the first that fits every period it names, else the first that fits the rest."""
    partial: TablePlan | None = None
    for planned in _each_plan(question, catalog, encode):
        if not planned.ignores_period:
            return planned
        partial = partial or planned
    return partial
