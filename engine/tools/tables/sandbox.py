"""Running one read-only SELECT over the catalog's tables.

Each query gets a fresh in-memory DuckDB connection: the tables are registered, then
file, network and extension access are switched off and the configuration is locked,
so the SQL can read the registered tables and nothing else. A timer interrupts a query
that runs too long; memory and threads are bounded.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

import duckdb

from engine.errors import RetryException
from engine.tools.tables.catalog import TableCatalog, TableLimits

_READ_ONLY = duckdb.StatementType.SELECT


@dataclass(frozen=True)
class QueryOutput:
    columns: list[str]
    types: list[str]
    rows: list[tuple[Any, ...]]  # at most limits.keep_rows
    total_rows: int


def single_select(sql: str, limits: TableLimits) -> str:
    """The one SELECT statement in ``sql``, or a RetryException saying what is allowed."""
    text = (sql or "").strip()
    if not text:
        raise RetryException(
            'query_table needs one SQL SELECT, e.g. {"sql": "SELECT region, sum(units) FROM t GROUP BY region"}.'
        )
    if len(text) > limits.sql_max_chars:
        raise RetryException(f"The query is {len(text)} characters long; keep it under {limits.sql_max_chars}.")
    try:
        statements = duckdb.extract_statements(text)
    except duckdb.Error as exc:
        raise RetryException(f"The SQL could not be parsed: {first_line(exc)}.") from None
    if len(statements) != 1:
        raise RetryException(f"Send exactly one SELECT statement; this SQL holds {len(statements)} statements.")
    statement = statements[0]
    if statement.type != _READ_ONLY:
        kind = statement.type.name
        raise RetryException(f"Only a read-only SELECT (or WITH … SELECT) can run here, not {kind}.")
    return statement.query.strip().rstrip(";").strip()


def first_line(exc: BaseException) -> str:
    """DuckDB's message without its "X Error:" prefix, and its suggestion when it has one."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = re.sub(r"^[A-Za-z ]*Error:\s*", "", lines[0] if lines else type(exc).__name__).rstrip("!.")
    hint = next((x for x in lines[1:3] if x.startswith(("Did you mean", "Candidate bindings"))), "")
    return (text + (f" ({hint})" if hint else ""))[:300]


def open_sandbox(catalog: TableCatalog) -> duckdb.DuckDBPyConnection:
    """A fresh connection that sees the catalog's tables and nothing else."""
    limits = catalog.limits
    con = duckdb.connect(":memory:", config={"python_enable_replacements": False, "threads": limits.threads})
    try:
        catalog.register_into(con)
        con.execute(f"SET memory_limit='{int(limits.memory_mb)}MB'")
        con.execute("SET autoinstall_known_extensions=false")
        con.execute("SET autoload_known_extensions=false")
        con.execute("SET enable_external_access=false")
        con.execute("SET lock_configuration=true")
    except BaseException:
        con.close()
        raise
    return con


def _hint(catalog: TableCatalog) -> str:
    return "The tables are:\n" + catalog.describe(max_chars=800)


def _error(exc: duckdb.Error, catalog: TableCatalog) -> RetryException:
    limits = catalog.limits
    if isinstance(exc, duckdb.InterruptException):
        return RetryException(
            f"The query ran longer than {limits.timeout_s:g} s and was stopped; filter or aggregate more, or add a LIMIT."
        )
    if isinstance(exc, duckdb.OutOfMemoryException):
        return RetryException(
            f"The query needed more than {limits.memory_mb} MB of memory; aggregate more or select fewer rows."
        )
    if isinstance(exc, duckdb.PermissionException):
        return RetryException("Only the registered tables can be read: no files, URLs or extensions. " + _hint(catalog))
    if isinstance(exc, duckdb.CatalogException | duckdb.BinderException):
        return RetryException(f"{first_line(exc)}. " + _hint(catalog))
    return RetryException(f"The query failed: {first_line(exc)}.")


def run_select(catalog: TableCatalog, sql: str, params: dict[str, Any] | None = None) -> QueryOutput:
    """Run one SELECT (checked with ``single_select`` first) within the catalog's limits."""
    limits = catalog.limits
    con = open_sandbox(catalog)
    timer = threading.Timer(limits.timeout_s, con.interrupt)
    timer.daemon = True
    timer.start()
    try:
        relation = con.sql(sql, params=params or None)
        if relation is None:
            raise RetryException("The statement returned no rows; send a SELECT.")
        columns, types = list(relation.columns), [str(t) for t in relation.types]
        reader = relation.to_arrow_reader(min(limits.keep_rows, 50_000))
        rows: list[tuple[Any, ...]] = []
        total = 0
        for batch in reader:
            total += batch.num_rows
            room = limits.keep_rows - len(rows)
            if room > 0:
                part = batch.slice(0, room) if batch.num_rows > room else batch
                values = [col.to_pylist() for col in part.columns]
                rows.extend(zip(*values, strict=True))
        return QueryOutput(columns, types, rows, total)
    except duckdb.Error as exc:
        raise _error(exc, catalog) from None
    finally:
        timer.cancel()
        con.close()
