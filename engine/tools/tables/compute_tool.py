"""``compute_table``: a figure computed from named cells of a table, stated with its
derivation and the cells it comes from.

Two shapes of table are read. A table of labelled rows (a report's "Software | 1,950 |
1,538") gives cells by row label × column: a value, a change or percentage change between
two cells, an average, a sum, a ratio, a count of cells meeting a condition, the largest
or smallest. A table of records (one row per sale: quarter, region, revenue) is filtered
(by a value, a month, a quarter or a year) and aggregated in SQL, optionally by group, and
a "which region is lowest" names the group. Total and subtotal rows are never added again.
Identifiers come from the catalog only; values are passed as SQL parameters. How the
labelled cells' result is written is ``cell_statement.py``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from engine.errors import ToolError
from engine.grounding.totals import is_total_label
from engine.tools.results import TableData, ToolResult
from engine.tools.tables.catalog import ColumnInfo, TableCatalog, TableInfo
from engine.tools.tables.catalog_tool import CatalogTool
from engine.tools.tables.cell_statement import PER_SHARE, Cell, cells_statement, currency_of, show
from engine.tools.tables.messages import say, statements
from engine.tools.tables.naming import quote_ident
from engine.tools.tables.question_reading import Operation
from engine.tools.tables.sandbox import run_select
from engine.tools.tables.table_shape import LABELLED_MAX_ROWS

_SQL = {"sum": "sum", "mean": "avg", "max": "max", "min": "min", "value": "sum"}


class RowFilter(BaseModel):
    column: str = Field(..., max_length=200)
    value: str | None = Field(None, max_length=200, description=say("arg_compute_filter_value"))
    month: int | None = Field(None, ge=1, le=12)
    month_to: int | None = Field(None, ge=1, le=12, description=say("arg_compute_filter_month_to"))
    quarter: int | None = Field(None, ge=1, le=4)
    year: int | None = Field(None, ge=1800, le=2200)


class CellCondition(BaseModel):
    comparison: Literal[">", "<"]
    threshold: float


MAX_ROWS = 12  # the rows one call names


class ComputeArgs(BaseModel):
    table: str | None = Field(None, max_length=200)
    operation: Operation
    label_column: str | None = Field(None, max_length=200, description=say("arg_compute_label_column"))
    rows: list[str] = Field(default_factory=list, max_length=MAX_ROWS, description=say("arg_compute_rows"))
    columns: list[str] = Field(..., min_length=1, max_length=24, description=say("arg_compute_columns"))
    filters: list[RowFilter] = Field(default_factory=list, max_length=6)
    group_by: str | None = Field(None, max_length=200)
    single_row: bool = Field(False, description=say("arg_compute_single_row"))
    condition: CellCondition | None = None
    # set by the engine's plan only: the direction the question asks of an either-way row ("loss")
    as_named: SkipJsonSchema[str | None] = Field(None, max_length=40)


_PER_SHARE = re.compile(r"(?i)\bper\W+(?:\w+\W+)?(?:share|unit|ads|adr)s?\b|\beps\b|\bpar action\b")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _label(value: Any) -> str:
    return " ".join(str(value).split()) if value is not None else ""


class ComputeTable(CatalogTool):
    name = "compute_table"
    Args = ComputeArgs
    intro = say("describe_compute_table")

    def __init__(self, catalog: TableCatalog, language: str = "en") -> None:
        super().__init__(catalog)
        self.words = statements(language)
        self.language = language  # also of the sentences about a query stopped or cut

    def run(self, args: ComputeArgs) -> ToolResult:
        info, note = self.catalog.table(args.table)
        columns = [info.column(c)[0] for c in args.columns]
        if args.label_column is not None:
            label, _ = info.column(args.label_column)
            cells = self._cells(info, label, args.rows, columns, every=args.operation in ("periods", "items"))
            statement, value = cells_statement(args, info, cells, label, self.words)
            rows = [[c.row, c.column, c.value] for c in cells]
            table = TableData(columns=[label.name, "column", "value"], dtypes=["text", "text", "number"], rows=rows)
        else:
            statement, value, table = self._records(info, args, columns[0])
        text = (note + "\n" if note else "") + statement
        return ToolResult(text=text, table=table, computed=True, value=value, statement=statement)

    def _cells(
        self, info: TableInfo, label: ColumnInfo, rows: list[str], columns: list[ColumnInfo], every: bool = False
    ) -> list[Cell]:
        """The cells row × column (every row but totals when none is named); a named row's empty cell is an error unless ``every``."""
        w = self.words
        if info.rows > LABELLED_MAX_ROWS:
            raise ToolError(w["too_many"].format(table=info.name, rows=info.rows))
        labels = [_label(v) for v in info.data.column(label.name).to_pylist()]
        values = {c.name: info.data.column(c.name).to_pylist() for c in columns}

        def texts(name: str | None) -> list[str]:
            return [_label(v) for v in info.data.column(name).to_pylist()] if name else [""] * len(labels)

        units = [  # a row's own unit, or per share by its label or section ("Net loss per share:")
            PER_SHARE if not unit and _PER_SHARE.search(f"{head} {text}") else unit
            for unit, head, text in zip(texts(info.row_unit_column), texts(info.section_column), labels, strict=True)
        ]
        if rows:
            index = {}
            for i, text in enumerate(labels):
                index.setdefault(text.lower(), i)
            picked = []
            for row in rows:
                if (i := index.get(_label(row).lower())) is None:
                    shown = ", ".join(labels[:8])
                    raise ToolError(w["no_cell"].format(table=info.name, row=row[:60], column=label.name, labels=shown))
                picked.append(i)
        else:
            picked = [i for i, text in enumerate(labels) if text and not is_total_label(text)]
        cells = []
        for i in picked:
            for col in columns:
                number = _number(values[col.name][i])
                if number is not None:
                    unit = units[i] or col.unit or (PER_SHARE if _PER_SHARE.search(col.name) else "")
                    cells.append(Cell(row=labels[i], column=col.name, value=number, unit=unit))
                elif rows and not every:
                    raise ToolError(w["no_figure"].format(table=info.name, row=labels[i], column=col.name))
        return cells

    def _records(self, info: TableInfo, args: ComputeArgs, measure: ColumnInfo) -> tuple[str, str, TableData]:
        """An aggregate over the filtered rows, by group when asked, in SQL."""
        w = self.words
        where, params, said = [], {}, []
        for n, f in enumerate(args.filters):
            col, _ = info.column(f.column)
            condition, shown = _filter_sql(col, f, f"f{n}", params, w)
            where.append(condition)
            said.append(shown)
        op = args.operation
        if op not in _SQL:
            raise ToolError(w["needs_labels"].format(operation=op))
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        m = quote_ident(measure.name)
        filters = ", ".join(said) + w["sep"] if said else ""
        sign = currency_of(measure.name)
        if args.group_by:
            group, _ = info.column(args.group_by)
            g = quote_ident(group.name)
            if args.single_row and op in ("max", "min"):
                return self._single_row(info, args, measure, group, clause, params, filters)
            sql = f"SELECT {g}, sum({m}), count(*) FROM {quote_ident(info.name)}{clause} GROUP BY 1 HAVING sum({m}) IS NOT NULL ORDER BY 2"
            out = run_select(self.catalog, sql, params or None, self.language)
            groups = [r for r in out.rows if not is_total_label(r[0])]
            if not groups:
                raise ToolError(w["empty"].format(table=info.name, filters=filters.rstrip("; ") or info.name))
            chosen = groups[-1] if op == "max" else groups[0]
            used = sum(r[2] for r in groups)
            cites = w["grouped"].format(source=info.source, filters=filters, rows=_rows(used, w), group=group.name)
            what = w["by_group"].format(measure=measure.name, group=group.name) + (
                f" ({filters.rstrip('; ')})" if filters else ""
            )
            result = sign + show(float(chosen[1]))
            statement = w["max" if op == "max" else "min"].format(
                what=what, winner=_label(chosen[0]), result=result, cites=cites
            )
            rows = [[_label(r[0]), float(r[1]), r[2]] for r in groups]
            return statement, result, TableData(columns=[group.name, f"sum_{measure.name}", "rows"], rows=rows)
        sql = f"SELECT {_SQL[op]}({m}), count(*), count({m}) FROM {quote_ident(info.name)}{clause}"
        result, count, counted = run_select(self.catalog, sql, params or None, self.language).rows[0]
        if not counted:
            raise ToolError(w["empty"].format(table=info.name, filters=filters.rstrip("; ") or info.name))
        what = w["aggregate"].format(op=w[f"{op}_op"], measure=measure.name)
        what += f" ({filters.rstrip('; ')})" if filters else ""
        cites = w["records"].format(source=info.source, filters=filters, rows=_rows(count, w))
        shown = sign + show(float(result))
        statement = w["value"].format(what=what, result=shown, cites=cites)
        return statement, shown, TableData(columns=[what, "rows"], rows=[[float(result), count]])

    def _single_row(
        self, info: TableInfo, args: ComputeArgs, measure: ColumnInfo, group: ColumnInfo, clause: str,
        params: dict[str, Any], filters: str,
    ) -> tuple[str, str, TableData]:  # fmt: skip
        """The row with the largest or smallest figure, named by its group and its other labels."""
        w = self.words
        m = quote_ident(measure.name)
        order = "DESC" if args.operation == "max" else "ASC"
        sql = f"SELECT * FROM {quote_ident(info.name)}{clause} {'AND' if clause else 'WHERE'} {m} IS NOT NULL ORDER BY {m} {order} LIMIT 1"
        out = run_select(self.catalog, sql, params or None, self.language)
        if not out.rows:
            raise ToolError(w["empty"].format(table=info.name, filters=filters.rstrip("; ") or info.name))
        row = dict(zip(out.columns, out.rows[0], strict=True))
        labels = [
            f"{name} = {_label(v)}"
            for name, v in row.items()
            if name not in (measure.name, group.name) and not isinstance(v, int | float)
        ]
        result = currency_of(measure.name) + show(float(row[measure.name]))
        what = w["one_row"].format(measure=measure.name, group=group.name)
        what += f" ({filters.rstrip('; ')})" if filters else ""
        cites = f"{info.source}, " + ", ".join(labels + [f"{group.name} = {_label(row[group.name])}"])
        statement = w[args.operation].format(what=what, winner=_label(row[group.name]), result=result, cites=cites)
        return statement, result, TableData(columns=list(out.columns), rows=[list(map(_label, out.rows[0]))])


def _filter_sql(
    col: ColumnInfo, f: RowFilter, key: str, params: dict[str, Any], w: Mapping[str, str]
) -> tuple[str, str]:
    """A WHERE condition for one filter and how the statement names it."""
    q = quote_ident(col.name)
    text = f"CAST({q} AS VARCHAR)"
    if f.value is not None:
        params[key] = f.value.strip()
        return f"lower(trim({text})) = lower(${key})", f"{col.name} = {f.value.strip()[:40]}"
    if f.month is not None:
        last = f.month_to if f.month_to is not None else f.month
        params[key], params[key + "to"] = f.month, last
        month = (
            f"month({q})"
            if col.kind == "date"
            else (f"TRY_CAST(regexp_extract({text}, '^\\d{{4}}-(\\d{{1,2}})', 1) AS INTEGER)")
        )
        names = w["months"].split()
        said = names[f.month - 1] if last == f.month else w["from_to"].format(a=names[f.month - 1], b=names[last - 1])
        return f"{month} BETWEEN ${key} AND ${key}to", w["in"].format(column=col.name, period=said)
    if f.quarter is not None:
        params[key] = f.quarter
        if col.kind == "date":
            return f"quarter({q}) = ${key}", w["in"].format(column=col.name, period=w["quarter"].format(n=f.quarter))
        params[key] = f"(^|[^A-Z0-9])[QT]{f.quarter}([^0-9]|$)"
        month = f"TRY_CAST(regexp_extract({text}, '^\\d{{4}}-(\\d{{1,2}})', 1) AS INTEGER)"
        condition = f"(regexp_matches(upper({text}), ${key}) OR ceil({month} / 3) = {int(f.quarter)})"
        return condition, w["in"].format(column=col.name, period=w["quarter"].format(n=f.quarter))
    if f.year is not None:
        params[key] = f.year
        said = w["in"].format(column=col.name, period=f.year)
        if col.kind == "date":
            return f"year({q}) = ${key}", said
        return f"TRY_CAST(regexp_extract({text}, '(\\d{{4}})', 1) AS INTEGER) = ${key}", said
    raise ToolError(w["no_filter"].format(column=col.name))


def _rows(count: int, w: Mapping[str, str]) -> str:
    return w["row" if count == 1 else "rows"].format(n=count)
