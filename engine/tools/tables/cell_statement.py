"""How a computation over named cells is stated: the result first, then its derivation,
then the cells it comes from ("412 = 1,950 − 1,538: change in Software, 2018 to 2019
(report.md, Software, 2019 and 2018)"); the winner of a largest or smallest, the periods
meeting a condition, the periods a row has figures for. Amounts a row takes away
("Accumulated depreciation (2,378.2)") are stated as amounts, with how the table writes them.
``compute_tool.py`` reads the cells; this writes what they give."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from engine.errors import ToolError
from engine.grounding.answer_kinds import fold
from engine.grounding.totals import is_total_label
from engine.tools.tables.catalog import ColumnInfo, TableInfo
from engine.tools.tables.label_match import INSIDE
from engine.tools.tables.table_shape import period_name, years_of

if TYPE_CHECKING:
    from engine.tools.tables.compute_tool import ComputeArgs

PER_SHARE = "per share"  # a row's figures are an amount per share: the table's scale is not theirs
_CURRENCY = {"eur": "€", "euro": "€", "euros": "€", "usd": "$", "dollars": "$", "gbp": "£"}


class Cell(BaseModel):
    row: str
    column: str
    value: float
    unit: str = ""  # the row's or column's own unit ("%" in a table of amounts), else ""


def show(value: float) -> str:
    """A figure as a report writes it: thousands separated, at most two decimals."""
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def joined(items: list[str], w: Mapping[str, str]) -> str:
    items = list(dict.fromkeys(items))
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + w["and"] + items[-1]


def currency_of(column: str) -> str:
    parts = {p for p in column.lower().replace("-", "_").split("_")}
    return next((sign for word, sign in _CURRENCY.items() if word in parts), "")


def _years_spanned(column: str) -> int | None:
    """How many years a period column covers: 1 for "2020", 2 for "2021-2022"; None when it
    names no year. An average over columns of unequal spans is an average a year: the
    2020, 2021-2022 and 2023-2024 obligations of a row, over five years, not three columns."""
    years = years_of(column)
    if not years:
        return None
    span = int(years[-1]) - int(years[0]) + 1
    return span if 1 <= span <= 10 else None


def cells_statement(
    args: ComputeArgs, info: TableInfo, cells: list[Cell], label: ColumnInfo, w: Mapping[str, str]
) -> tuple[str, str]:
    """The result first, then its derivation, then the cells it comes from; and the result."""
    op = args.operation
    needs = {"value": 1, "change": 2, "decrease": 2, "difference": 2, "percent_change": 2, "ratio": 2, "share": 2}
    several = op == "value" and (
        len(cells) == len(args.rows) > 1
        and len(set(c.column for c in cells)) == 1
        or len(cells) == len(args.columns) > 1
        and len(set(c.row for c in cells)) == 1
    )  # the cells of the rows named in one column, or of one row in the columns named
    if op in needs and len(cells) != needs[op] and not several or not cells:
        raise ToolError(w["cannot"].format(operation=op, cells=len(cells), needs=needs.get(op, 1)))

    def _said(template: str, result: str, **parts: Any) -> tuple[str, str]:
        return w[template].format(result=result, **parts), result

    rows, cols = [c.row for c in cells], [c.column for c in cells]
    cites = f"{info.source}, {joined(rows, w) if args.rows else w['every_row']}, {joined(cols, w)}"
    costs = _costs_written_negative(cells) if op in _AS_AMOUNTS else set()
    if op in ("value", "mean", "sum"):  # amounts taken away, stated as amounts, when every cell is one
        flipped = cells if all(_deducted(c) or c.row in costs or _as_named(c, args.as_named) for c in cells) else []
    else:
        flipped = [c for c in cells if c.row in costs]  # a change or share of costs: of the amounts spent
    if flipped:
        cites += w["written"].format(figures=joined([f"({show(-c.value)})" for c in flipped], w))
        cells = [c.model_copy(update={"value": -c.value}) if c in flipped else c for c in cells]
    sign = currency_of(cols[0]) if len(set(cols)) == 1 else ""
    scale = _scale(info, cells, w)
    one_row = len(set(rows)) == 1
    if op == "value":  # one cell, or one per row or column named ("A and B, respectively"), in their order
        shown = w["sep"].join(sign + show(c.value) + scale for c in cells)
        what = f"{rows[0]}, {joined(cols, w)}" if one_row else f"{joined(rows, w)}, {cols[0]}"
        return _said("value", shown, what=what, cites=cites)
    a, b = cells[0].value, cells[1].value if len(cells) > 1 else 0.0
    pair = ""
    if op in needs:  # two cells: of one row in two columns, or of two rows in one column
        pair = (
            f"{rows[0]}, {w['pair'].format(a=cols[1], b=cols[0])}"
            if one_row
            else f"{w['pair'].format(a=rows[1], b=rows[0])}, {cols[0]}"  # a − b: from the second row to the first
        )
    if op == "change":
        return _said("change", show(a - b) + scale, what=pair, a=show(a), b=_paren(b), cites=cites)
    if op == "difference":  # "the difference between A and B": the larger less the smaller, whichever is named first
        (a, col_a, row_a), (b, col_b, row_b) = sorted(zip((a, b), cols, rows, strict=True), key=lambda t: -t[0])
        what = f"{rows[0]}, {col_a}{w['and']}{col_b}" if one_row else f"{row_a}{w['and']}{row_b}, {cols[0]}"
        return _said("difference", show(a - b) + scale, what=what, a=show(a), b=_paren(b), cites=cites)
    if op == "decrease":  # earlier − later: a fall is a positive decrease
        return _said("decrease", show(b - a) + scale, what=pair, a=show(b), b=_paren(a), cites=cites)
    if op in ("percent_change", "ratio", "share") and b == 0:
        raise ToolError(w["zero"].format(operation=op.replace("_", " "), b=f"{rows[1]}, {cols[1]}"))
    if op == "percent_change":
        result = show(round((a - b) / b * 100, 2))
        statement = w["percent_change"].format(what=pair, result=result, a=show(a), b=_paren(b), cites=cites)
        return statement, result + "%"
    if op == "share":  # a part of a whole: the smaller figure of the larger
        if all(c.unit == "%" for c in cells):  # "Supplier A | 31%": each row is already its share of the whole
            raise ToolError(w["share_of_shares"].format(a=rows[0], b=rows[1]))
        if abs(a) > abs(b):
            a, b, rows, cols = b, a, rows[::-1], cols[::-1]
        result = show(round(a / b * 100, 2))
        what = (
            f"{w['part'].format(a=rows[0], b=rows[1])}, {cols[0]}"
            if not one_row
            else f"{w['part'].format(a=cols[0], b=cols[1])}, {rows[0]}"
        )
        statement = w["share"].format(what=what, result=result, a=show(a), b=_paren(b), cites=cites)
        return statement, result + "%"
    if op == "ratio":
        what = (
            f"{w['pair'].format(a=rows[0], b=rows[1])}, {cols[0]}"
            if not one_row
            else f"{rows[0]}, {w['pair'].format(a=cols[0], b=cols[1])}"
        )
        return _said("ratio", show(round(a / b, 4)), what=what, a=show(a), b=_paren(b), cites=cites)
    what = (
        f"{joined(rows, w)}, {joined(cols, w)}"
        if args.rows
        else f"{w['label_rows'].format(label=label.name)}, {joined(cols, w)}"
    )
    values = [c.value for c in cells]
    if op in ("mean", "sum"):
        terms = " + ".join(_paren(v) for v in values)
        if op == "sum":
            return _said("sum", sign + show(sum(values)) + scale, what=what, terms=terms, cites=cites)
        spans = [span for c in cols if (span := _years_spanned(c))] if one_row else []
        if len(spans) == len(values) and sum(spans) > len(values):
            n_years = sum(spans)
            mean = sign + show(round(sum(values) / n_years, 2)) + scale
            return _said("mean_yearly", mean, what=what, terms=terms, n=n_years, cites=cites)
        mean = sign + show(round(sum(values) / len(values), 2)) + scale
        return _said("mean", mean, what=what, terms=terms, n=len(values), cites=cites)
    if op == "items":  # the rows making up the Total named last, or a heading's rows
        total = rows[-1] if is_total_label(rows[-1]) else ""
        items = joined([_FOOTNOTE.sub("", r).strip() for r in dict.fromkeys(rows) if r != total], w)
        return _said("items_of" if total else "items", items, what=total, cites=cites)
    if op == "periods":  # the periods of the columns holding a figure, in the table's order
        shown = joined([period_name(c) for c in dict.fromkeys(cols)], w)
        return _said("periods", shown, what=joined(rows, w) if args.rows else w["every_row"], cites=cites)
    if op in ("count_if", "which_if"):
        if args.condition is None:
            raise ToolError(w["no_condition"])
        c = args.condition
        meet = [
            cell for cell in cells if (cell.value > c.threshold if c.comparison == ">" else cell.value < c.threshold)
        ]
        if op == "which_if":  # the periods (or rows) themselves
            names = joined([period_name(x.column) if one_row else x.row for x in meet], w) if meet else w["none"]
            named = rows[0] if one_row else f"{joined(rows, w)}, {cols[0]}"
            return _said(f"which_{c.comparison}", names, what=named, threshold=show(c.threshold), cites=cites)
        met = joined([cell.column if one_row else cell.row for cell in meet], w) if meet else w["none"]
        counted = w["columns"] if one_row else w["rows_word"]
        condition = w["above" if c.comparison == ">" else "below"].format(
            what=counted, threshold=show(c.threshold), met=met
        )
        return _said("count_if", str(len(meet)), what=what, n=len(cells), condition=condition, cites=cites)
    chosen = max(cells, key=lambda c: c.value) if op == "max" else min(cells, key=lambda c: c.value)
    winner = period_name(chosen.column) if one_row and len(cells) > 1 else chosen.row
    what = (
        w["by_column"].format(row=rows[0])
        if one_row and len(cells) > 1
        else w["by_label"].format(column=cols[0], label=label.name)
    )
    return _said(op, sign + show(chosen.value) + scale, what=what, winner=winner, cites=cites)


# A row named for what it takes away ("Accumulated depreciation", "Net loss", "Valuation allowance") writes its
# amount in parentheses for its direction: "what was the accumulated depreciation?" asks that amount, 2,378.2.
_DEDUCTION = re.compile(r"(?i)\b(?:loss(?:es)?|deficit|accumulated (?:depreciation|amortization)|allowances?|less)\b")
_BOTH_WAYS = re.compile(r"(?i)\b(?:income|gains?|profit|earnings|expenses?|provision)\b|/")  # "Net income (loss)"


def _deducted(cell: Cell) -> bool:
    return cell.value < 0 and bool(_DEDUCTION.search(cell.row)) and not _BOTH_WAYS.search(cell.row)


# A cost or payment a report writes in parentheses ("Interest expense | (279,059) | (254,126)") is an amount spent: its
# change, share or average is of the amounts (24,933 more spent), unlike a loss, a result that crosses zero.
_COST = re.compile(
    r"(?i)\b(?:expenses?|costs?|charges?|allowances?|depreciation|amorti[sz]ation|impairments?|write-?(?:offs?|downs?)"
    r"|paid|(?:re)?payments?|outflows?|liabilit(?:y|ies)|forfeit(?:ed|ures?)|cancell?ed|expired|exercised|(?<!-)vested|repurchased)\b"  # "Tax paid | (5.6)": the tax paid is 5.6
)  # "Net liabilities | (319.9)" in a table of net assets: the net liabilities are 319.9
_NOT_ONLY_COST = re.compile(
    r"(?i)\b(?:income|gains?|profit|earnings|benefits?|credits?|recover(?:y|ies)|net(?! liabilit))\b|/|\("
)
_FOOTNOTE = re.compile(
    r"(?<=[A-Za-z])\(\d{1,2}\)|(?<=[a-z])\d{1,2}$"
)  # "Granted(1)", "dividends1": the mark is no name
_AS_AMOUNTS = frozenset(
    {"value", "mean", "sum", "change", "decrease", "difference", "percent_change", "ratio", "share", "max", "min"}
)


def _as_named(cell: Cell, direction: str | None) -> bool:
    """A negative cell of an either-way row or column, asked in its other direction: the net loss of
    "Net income (loss)", the net losses of "Net additions (losses)"."""
    return (
        direction is not None
        and cell.value < 0
        and direction in re.findall(r"\w+", f"{cell.row} {cell.column}".lower())
    )


def _costs_written_negative(cells: list[Cell]) -> set[str]:
    """The rows of ``cells`` that name a cost only and write every one of their cells here negative."""
    rows = {c.row for c in cells if _COST.search(c.row) and not _NOT_ONLY_COST.search(c.row)}
    return {r for r in rows if all(c.value < 0 for c in cells if c.row == r)}


def _scale(info: TableInfo, cells: list[Cell], w: Mapping[str, str]) -> str:
    """What an amount of these cells is in, written after it: " million" when the table
    says so ("(In millions)"), "%" when the rows are in percent; else ""."""
    units = {c.unit for c in cells}
    if units == {"%"}:
        return "%"
    if len(units) == 1 and (unit := next(iter(units))) in ("years", "months", "days"):
        return " " + w[f"unit_{unit}"]  # "1.15 years"
    if PER_SHARE in units:
        return ""  # "Net loss per share: Basic (0.28)" is dollars, not the table's thousands
    if units == {""} and info.scale in ("thousand", "million", "billion"):
        return " " + w[info.scale]
    return ""


def _paren(value: float) -> str:
    return f"({show(value)})" if value < 0 else show(value)


# "Net income (loss)", "Income tax (benefit) expense": a row that goes either way names its other direction in
# parentheses; "what was the net loss?" asks that direction, so its negative cells are stated as the loss.
_DIRECTIONS = frozenset(
    "loss losses income profit earnings gain gains benefit benefits expense expenses provision decrease increase "
    "deficit surplus".split()
)
_INCOME_TAX = re.compile(r"\bincome tax(?:es)?\b")  # a noun: "income tax (benefit)" names no income


def asked_direction(question: str, rows: Sequence[str]) -> str | None:
    """The direction word in parentheses of every row of ``rows`` that the question asks, when it
    asks none of the rows' other direction words: "loss" for "What was the net loss?" of "Net income (loss)"."""
    asked = set(re.findall(r"[a-z]+", _INCOME_TAX.sub(" ", fold(question)))) & _DIRECTIONS
    named: set[str] = set()
    for row in rows:
        text = _INCOME_TAX.sub(" ", fold(row))
        inside = {w for m in INSIDE.finditer(text) for w in re.findall(r"[a-z]+", m.group(1))} & _DIRECTIONS
        outside = set(re.findall(r"[a-z]+", INSIDE.sub(" ", text))) & _DIRECTIONS
        if not inside & asked or outside & asked:
            return None
        named |= inside & asked
    return min(named) if len(named) == 1 else None
