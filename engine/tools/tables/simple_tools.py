"""Table tools a small model can call without writing SQL: ``aggregate_table`` and
``lookup_table``. The SQL is built here, with identifiers taken from the catalog only
(never from the model's text) and values passed as parameters. Loose spellings of
table, column and operation names are accepted, with a note saying how they were read."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator

from engine.errors import ToolError
from engine.tools.results import ToolResult
from engine.tools.tables.catalog import ColumnInfo, TableInfo
from engine.tools.tables.catalog_tool import CatalogTool
from engine.tools.tables.messages import say
from engine.tools.tables.naming import quote_ident
from engine.tools.tables.render import cell_text, table_data, text_table
from engine.tools.tables.sandbox import run_select

OPERATIONS = {"sum": "sum", "mean": "avg", "min": "min", "max": "max", "count": "count", "median": "median"}
_SYNONYMS = {
    "total": "sum", "add": "sum", "somme": "sum", "average": "mean", "avg": "mean", "moyenne": "mean",
    "minimum": "min", "lowest": "min", "smallest": "min", "maximum": "max", "highest": "max", "largest": "max",
    "biggest": "max", "top": "max", "number": "count", "nombre": "count", "médiane": "median", "mediane": "median",
}  # fmt: skip
_NUMERIC_ONLY = frozenset({"sum", "mean", "median"})
LOOKUP_ROWS = 50


def operation_of(given: str) -> str:
    key = given.strip().lower()
    key = _SYNONYMS.get(key, key)
    if key not in OPERATIONS:
        raise ToolError(say("unknown_operation", given=given[:40], operations=", ".join(OPERATIONS)))
    return key


def _value_condition(col: ColumnInfo, value: str, contains: bool) -> tuple[str, Any]:
    """A WHERE clause comparing ``col`` with the parameter $v, and the parameter."""
    q = quote_ident(col.name)
    text = str(value).strip()
    if col.kind == "number" and not contains:
        try:
            return f"{q} = $v", float(text.replace(" ", "").replace(",", "."))
        except ValueError:
            raise ToolError(say("not_a_number", column=col.name, text=text[:40])) from None
    if contains:
        return f"contains(lower(CAST({q} AS VARCHAR)), lower($v))", text
    return f"lower(trim(CAST({q} AS VARCHAR))) = lower($v)", text


def _no_match(info: TableInfo, col: ColumnInfo, value: str) -> ToolError:
    values = say("its_values", examples=", ".join(col.examples)) if col.examples else ""
    return ToolError(say("no_row", table=info.name, column=col.name, value=value[:40], values=values))


def _as_text(value: Any) -> Any:
    """Numbers a model sends for a value are read as their text."""
    return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


class AggregateArgs(BaseModel):
    table: str | None = Field(None, max_length=200, description=say("arg_aggregate_table"))
    column: str | None = Field(None, max_length=200, description=say("arg_aggregate_column"))
    operation: str = Field(..., max_length=40, description=say("arg_aggregate_operation"))
    group_by: str | None = Field(None, max_length=200, description=say("arg_aggregate_group_by"))
    filter_column: str | None = Field(None, max_length=200, description=say("arg_aggregate_filter_column"))
    filter_value: str | None = Field(None, max_length=500, description=say("arg_aggregate_filter_value"))

    _value_text = field_validator("filter_value", mode="before")(_as_text)


class AggregateTable(CatalogTool):
    name = "aggregate_table"
    Args = AggregateArgs
    intro = say("describe_aggregate_table")

    def run(self, args: AggregateArgs) -> ToolResult:
        info, note = self.catalog.table(args.table)
        notes = [note]
        op = operation_of(args.operation)
        target: ColumnInfo | None = None
        if args.column and args.column.strip() not in ("*", ""):
            target, note = info.column(args.column)
            notes.append(note)
        elif op != "count":
            raise ToolError(say("which_column", operation=op, columns=", ".join(info.column_names())))
        if target is not None and op in _NUMERIC_ONLY and target.kind != "number":
            numbers = [c.name for c in info.columns if c.kind == "number"]
            raise ToolError(
                say("not_numeric", column=target.name, operation=op, numbers=", ".join(numbers) or say("none"))
            )
        measure = f"{OPERATIONS[op]}({quote_ident(target.name)})" if target else "count(*)"
        label = f"{op}_{target.name}" if target else "count"
        select, group, where, params, heading = [], "", "", {}, f"{op} of {target.name if target else 'rows'}"
        if args.group_by:
            group_col, note = info.column(args.group_by)
            notes.append(note)
            select.append(quote_ident(group_col.name))
            group = " GROUP BY 1 ORDER BY 1"
            heading += f" by {group_col.name}"
        heading += f" in {info.name}"
        filter_col = None
        if args.filter_column and args.filter_value is not None and str(args.filter_value).strip():
            filter_col, note = info.column(args.filter_column)
            notes.append(note)
            condition, params["v"] = _value_condition(filter_col, str(args.filter_value), contains=False)
            where = f" WHERE {condition}"
            heading += f" where {filter_col.name} = {str(args.filter_value).strip()[:40]}"
        select += [f"{measure} AS {quote_ident(label)}", "count(*) AS rows_used"]
        sql = f"SELECT {', '.join(select)} FROM {quote_ident(info.name)}{where}{group}"
        out = run_select(self.catalog, sql, params or None)
        if filter_col is not None and (out.total_rows == 0 or (not group and out.rows[0][-1] == 0)):
            raise _no_match(info, filter_col, str(args.filter_value))
        title = heading
        heading = " ".join(n for n in notes if n) + ("\n" if any(notes) else "") + heading + ":"
        value = cell_text(out.rows[0][-2]) if not group and out.rows and out.rows[0][-2] is not None else None
        return ToolResult(
            text=text_table(out, self.catalog.limits, heading=heading),
            table=table_data(out, title=title),
            computed=True,
            value=value,
            statement=f"{title} = {value}" if value is not None else None,
        )


class LookupArgs(BaseModel):
    table: str | None = Field(None, max_length=200, description=say("arg_lookup_table"))
    column: str = Field(..., max_length=200, description=say("arg_lookup_column"))
    value: str = Field(..., max_length=500, description=say("arg_lookup_value"))
    match: str = Field("equals", max_length=20, description=say("arg_lookup_match"))

    _value_text = field_validator("value", mode="before")(_as_text)


class LookupTable(CatalogTool):
    name = "lookup_table"
    Args = LookupArgs
    intro = say("describe_lookup_table")

    def run(self, args: LookupArgs) -> ToolResult:
        info, note = self.catalog.table(args.table)
        col, note2 = info.column(args.column)
        value = str(args.value).strip()
        if not value:
            raise ToolError(say("give_value", column=col.name))
        contains = args.match.strip().lower().startswith("contain")
        condition, param = _value_condition(col, value, contains)
        sql = f"SELECT * FROM {quote_ident(info.name)} WHERE {condition} LIMIT {LOOKUP_ROWS + 1}"
        out = run_select(self.catalog, sql, {"v": param})
        if out.total_rows == 0:
            raise _no_match(info, col, value)
        word = "contains" if contains else "="
        heading = f"rows of {info.name} where {col.name} {word} {value[:40]}"
        if out.total_rows > LOOKUP_ROWS:
            heading += f" (first {LOOKUP_ROWS})"
            out = type(out)(out.columns, out.types, out.rows[:LOOKUP_ROWS], LOOKUP_ROWS)
        notes = " ".join(n for n in (note, note2) if n)
        text = text_table(out, self.catalog.limits, heading=(notes + "\n" if notes else "") + heading + ":")
        return ToolResult(text=text, table=table_data(out, title=heading), computed=True)
