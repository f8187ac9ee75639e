"""Running one read-only SELECT over the catalog's tables.

Each query gets a fresh in-memory DuckDB connection: the tables are registered, then
file, network and extension access are switched off and the configuration is locked,
so the SQL can read the registered tables and nothing else. A watchdog interrupts a query
that runs too long; memory and threads are bounded.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from engine.errors import ToolError
from engine.tools.tables.catalog import DATE_TYPES, NUMBER_TYPES, TableCatalog, TableLimits
from engine.tools.tables.loading import NO_DISK
from engine.tools.tables.messages import say
from engine.tools.tables.naming import quote_ident

_READ_ONLY = duckdb.StatementType.SELECT


@dataclass(frozen=True)
class QueryOutput:
    columns: list[str]
    types: list[str]
    rows: list[tuple[Any, ...]]  # at most limits.keep_rows, and at most limits.result_bytes
    total_rows: int
    note: str = ""  # what was cut from the rows kept ("" when nothing was)


def single_select(sql: str, limits: TableLimits) -> str:
    """The one SELECT statement in ``sql``, or a ToolError saying what is allowed."""
    text = (sql or "").strip()
    if not text:
        raise ToolError(say("sql_empty"))
    if len(text) > limits.sql_max_chars:
        raise ToolError(say("sql_too_long", length=len(text), limit=limits.sql_max_chars))
    try:
        statements = duckdb.extract_statements(text)
    except duckdb.Error as exc:
        raise ToolError(say("sql_unparsed", detail=first_line(exc))) from None
    if len(statements) != 1:
        raise ToolError(say("sql_one_statement", n=len(statements)))
    statement = statements[0]
    if statement.type != _READ_ONLY:
        kind = statement.type.name
        raise ToolError(say("sql_read_only", kind=kind))
    return statement.query.strip().rstrip(";").strip()


def first_line(exc: BaseException) -> str:
    """DuckDB's message without its "X Error:" prefix, and its suggestion when it has one."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = re.sub(r"^[A-Za-z ]*Error:\s*", "", lines[0] if lines else type(exc).__name__).rstrip("!.")
    hint = next((x for x in lines[1:3] if x.startswith(("Did you mean", "Candidate bindings"))), "")
    return (text + (f" ({hint})" if hint else ""))[:300]


def open_sandbox(catalog: TableCatalog) -> duckdb.DuckDBPyConnection:
    """A fresh connection that sees the catalog's tables and nothing else: no files, no
    disk (it never spills: over its memory limit a query fails), no secrets directory."""
    limits = catalog.limits
    config = {"python_enable_replacements": False, "threads": limits.threads, **NO_DISK}
    con = duckdb.connect(":memory:", config=config)
    try:
        catalog.register_into(con)
        con.execute(f"SET memory_limit='{int(limits.memory_mb)}MB'")
        con.execute("SET secret_directory=''")
        con.execute("SET autoinstall_known_extensions=false")
        con.execute("SET autoload_known_extensions=false")
        con.execute("SET enable_external_access=false")
        con.execute("SET lock_configuration=true")
    except BaseException:
        con.close()
        raise
    return con


# What shows the server's settings, paths or variables (duckdb_settings() names the working
# directory and the home directory): refused by name wherever it appears in the query.
_HIDDEN_FUNCTIONS = frozenset({"current_setting", "getvariable", "which_secret"})
_HIDDEN_PREFIXES = ("duckdb_", "pragma_")
_SCHEMA_FUNCTIONS = frozenset(
    {"duckdb_tables", "duckdb_columns", "duckdb_views", "duckdb_types", "duckdb_keywords", "duckdb_functions",
     "pragma_table_info", "pragma_show"}
)  # fmt: skip
_HIDDEN_TABLES = frozenset({"pg_settings", "duckdb_settings", "duckdb_databases", "pragma_database_list"})


def _names(node: Any, functions: set[str], tables: set[str]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("function_name"), str):
            functions.add(node["function_name"].lower())
        if node.get("type") == "BASE_TABLE" and isinstance(node.get("table_name"), str):
            tables.add(node["table_name"].lower())
        for value in node.values():
            _names(value, functions, tables)
    elif isinstance(node, list):
        for value in node:
            _names(value, functions, tables)


def hidden_names(con: duckdb.DuckDBPyConnection, sql: str, registered: list[str]) -> list[str]:
    """The functions and views of ``sql`` that would show the server's settings or paths,
    read from DuckDB's own parse tree (so quoting, case and nesting cannot hide them)."""
    tree = json.loads(con.execute("SELECT json_serialize_sql($q)", {"q": sql}).fetchall()[0][0])
    if tree.get("error"):
        return []  # the query itself then fails with DuckDB's own parse error
    functions: set[str] = set()
    tables: set[str] = set()
    _names(tree.get("statements"), functions, tables)
    found = {
        f
        for f in functions
        if f in _HIDDEN_FUNCTIONS or (f.startswith(_HIDDEN_PREFIXES) and f not in _SCHEMA_FUNCTIONS)
    }
    mine = {name.lower() for name in registered}
    found |= {t for t in tables if t in _HIDDEN_TABLES and t not in mine}
    return sorted(found)


def _hint(catalog: TableCatalog, language: str) -> str:
    return say("sql_tables_are", language, tables=catalog.describe(max_chars=800))


def _error(exc: BaseException, catalog: TableCatalog, language: str) -> ToolError:
    """One sentence for a failed query. A query stopped while its rows were being read
    surfaces through Arrow as an ``OSError`` holding DuckDB's text ("INTERRUPT Error:
    Interrupted!", "Out of Memory Error: … SET threads=X"): those get the same sentences."""
    limits = catalog.limits
    text = str(exc)
    if isinstance(exc, duckdb.InterruptException) or text.startswith("INTERRUPT Error"):
        return ToolError(say("timeout", language, seconds=limits.timeout_s))
    if isinstance(exc, duckdb.OutOfMemoryException | MemoryError) or "Out of Memory Error" in text:
        return ToolError(say("memory", language, memory_mb=limits.memory_mb))
    if isinstance(exc, duckdb.PermissionException):
        return ToolError(say("sql_registered_only", language, hint=_hint(catalog, language)))
    if isinstance(exc, duckdb.CatalogException | duckdb.BinderException):
        return ToolError(say("sql_catalog_error", language, detail=first_line(exc), hint=_hint(catalog, language)))
    return ToolError(say("sql_failed", language, detail=first_line(exc)))


_FIXED = ("BOOLEAN", "INTERVAL", "UUID", '"NULL"', "NULL", *NUMBER_TYPES, *DATE_TYPES)


def _is_fixed(sql_type: str) -> bool:
    """Whether a value of this type has a small fixed size (a number, a date, a flag)."""
    upper = sql_type.upper()
    return upper.startswith(_FIXED) and "[" not in upper and not upper.startswith(("ENUM", "MAP", "STRUCT"))


def bounded_sql(sql: str, columns: list[str], types: list[str], cell_chars: int) -> str:
    """``sql`` with every cell bounded inside DuckDB, before a row reaches Python: text over
    ``cell_chars`` characters is cut and ends with "…"; lists, structs, blobs and other
    values of no fixed size are shown as their text, bounded the same way. Columns are
    renamed by position first, so duplicate or odd names cannot break the projection."""
    aliases = [f"c{i}" for i in range(len(columns))]
    exprs = []
    for alias, name, sql_type in zip(aliases, columns, types, strict=True):
        if _is_fixed(sql_type):
            expr = alias
        else:
            text = alias if sql_type.upper() == "VARCHAR" else f"CAST({alias} AS VARCHAR)"
            expr = f"CASE WHEN length({text}) > {cell_chars} THEN left({text}, {cell_chars - 1}) || '…' ELSE {text} END"
        exprs.append(f"{expr} AS {quote_ident(name)}")
    return f"SELECT {', '.join(exprs)} FROM (\n{sql}\n) AS q({', '.join(aliases)})"


def _row_bytes(batch: Any) -> Any:
    """The Arrow bytes each row of ``batch`` holds (text by its length, the rest by width)."""
    sizes = np.zeros(batch.num_rows, dtype=np.int64)
    for column in batch.columns:
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            sizes += np.asarray(pc.fill_null(pc.binary_length(column), 0), dtype=np.int64) + 4
        else:
            sizes += max(1, (column.type.bit_width if column.type.bit_width > 0 else 64) // 8)
    return sizes


def _python_values(column: Any) -> list[Any]:
    """A column as Python values; dates and times beyond Python's range (year 0 and before,
    after 9999, infinity) as their text rather than an OverflowError."""
    try:
        return column.to_pylist()
    except (OverflowError, ValueError):
        return column.cast(pa.string()).to_pylist()


def _cut_cells(batch: Any, cell_chars: int) -> bool:
    for column in batch.columns:
        if pa.types.is_string(column.type) and pc.any(pc.equal(pc.utf8_length(column), cell_chars)).as_py():
            return True
    return False


def _interrupt_after(con: duckdb.DuckDBPyConnection, seconds: float, done: threading.Event) -> None:
    """Interrupt ``con`` once ``seconds`` have passed, and again every 50 ms until ``done``:
    one interrupt stops only the statement running then, and a run is several statements
    (the rows, then their count)."""
    if done.wait(seconds):
        return
    while not done.is_set():
        con.interrupt()
        done.wait(0.05)


def run_select(
    catalog: TableCatalog, sql: str, params: dict[str, Any] | None = None, language: str = "en"
) -> QueryOutput:
    """Run one SELECT (checked with ``single_select`` first) within the catalog's limits:
    time and memory in DuckDB, then the rows kept (``keep_rows``) and their bytes
    (``result_bytes``, each cell bounded by ``cell_chars``) before they become Python
    values. Rows past the budget are counted, not read; ``note`` says what was cut."""
    limits = catalog.limits
    con = open_sandbox(catalog)
    done = threading.Event()
    watchdog = threading.Thread(target=_interrupt_after, args=(con, limits.timeout_s, done), daemon=True)
    watchdog.start()
    try:
        hidden = hidden_names(con, sql, catalog.names())
        if hidden:
            raise ToolError(say("hidden", language, names=", ".join(hidden)))
        relation = con.sql(sql, params=params or None)
        if relation is None:
            raise ToolError(say("sql_no_rows", language))
        columns, types = list(relation.columns), [str(t) for t in relation.types]
        bounded = con.sql(bounded_sql(sql, columns, types, limits.cell_chars), params=params or None)
        types = [t if _is_fixed(t) else "VARCHAR" for t in types]
        return _fetch(con, bounded, sql, params, columns, types, limits, language)
    except (duckdb.Error, pa.ArrowException, OSError, MemoryError) as exc:
        raise _error(exc, catalog, language) from None
    finally:
        done.set()
        watchdog.join()
        con.close()


def _fetch(
    con: duckdb.DuckDBPyConnection,
    relation: Any,
    sql: str,
    params: dict[str, Any] | None,
    columns: list[str],
    types: list[str],
    limits: TableLimits,
    language: str,
) -> QueryOutput:
    widest_row = sum(16 if _is_fixed(t) else limits.cell_chars + 4 for t in types) or 1
    batch_rows = max(1, min(limits.keep_rows, 2048, limits.result_bytes // widest_row))
    reader = relation.to_arrow_reader(batch_rows)
    rows: list[tuple[Any, ...]] = []
    used, total, read_all, over_budget, cut_cells = 0, 0, True, False, False
    for batch in reader:
        total += batch.num_rows
        part = batch.slice(0, limits.keep_rows - len(rows))
        room = np.cumsum(_row_bytes(part)) <= limits.result_bytes - used
        fit = int(room.sum())
        if fit < part.num_rows:
            over_budget, part = True, part.slice(0, fit)
        used += int(_row_bytes(part).sum())
        cut_cells = cut_cells or _cut_cells(part, limits.cell_chars)
        values = [_python_values(col) for col in part.columns]
        rows.extend(zip(*values, strict=True))
        if over_budget or len(rows) >= limits.keep_rows:
            read_all = False
            break
    reader.close()
    notes = []
    if not read_all:
        try:
            total = int(con.sql(f"SELECT count(*) FROM (\n{sql}\n) AS q", params=params or None).fetchall()[0][0])
        except duckdb.InterruptException:  # the rows are kept; only their count ran out of time
            notes.append(say("count_stopped", language, seconds=limits.timeout_s))
    if over_budget:
        notes.append(say("cut_bytes", language, kept=len(rows), budget=f"{limits.result_bytes / 1e6:g}"))
    if cut_cells:
        notes.append(say("cut_cells", language, chars=limits.cell_chars))
    return QueryOutput(columns, types, rows, total, note="; ".join(notes))
