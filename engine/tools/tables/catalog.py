"""The tables a conversation can query: every CSV among the theme's documents and the
attached files, each under a safe SQL name, with its columns, types and row count."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import duckdb
from pydantic import BaseModel

from engine.errors import RetryException
from engine.tools.tables.loading import CSVReadError, load_csv, open_loader, reserved_words
from engine.tools.tables.naming import display_ident, match_name, quote_ident, table_name

Kind = Literal["number", "date", "text"]
_NUMBER_TYPES = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER",
                 "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "REAL")  # fmt: skip
_DATE_TYPES = ("DATE", "TIMESTAMP", "TIME")
_EXAMPLES_MAX_DISTINCT = 12


def kind_of(sql_type: str) -> Kind:
    """The app's column kind for a DuckDB type name."""
    upper = sql_type.upper()
    if upper.startswith(_NUMBER_TYPES):
        return "number"
    if upper.startswith(_DATE_TYPES):
        return "date"
    return "text"


class TableLimits(BaseModel):
    """Every limit of the table tools, in one place."""

    model_rows: int = 200  # result rows shown to the model
    model_chars: int = 1800  # characters of result text shown to the model
    keep_rows: int = 10_000  # result rows kept as data for the app
    timeout_s: float = 10.0  # wall-clock limit of one query
    memory_mb: int = 512  # DuckDB memory limit per query connection
    threads: int = 2
    max_file_mb: int = 200  # larger CSV files are not loaded
    max_tables: int = 50
    describe_chars: int = 1500  # bound of catalog.describe()
    sql_max_chars: int = 8000


@dataclass(frozen=True)
class ColumnInfo:
    name: str
    sql_type: str
    examples: tuple[str, ...] = ()  # the distinct values of a low-cardinality text column

    @property
    def kind(self) -> Kind:
        return kind_of(self.sql_type)


@dataclass(frozen=True)
class TableInfo:
    name: str
    source: str  # the file name, never a full path
    columns: tuple[ColumnInfo, ...]
    rows: int
    data: Any = field(repr=False)  # a pyarrow.Table

    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column(self, given: str) -> tuple[ColumnInfo, str]:
        """The column ``given`` names (forgiving spelling), and a note when it was corrected."""
        name, note = match_name(given, self.column_names(), "column", where=self.name)
        return next(c for c in self.columns if c.name == name), note

    def describe(self, max_columns: int = 30) -> str:
        parts = []
        for col in self.columns[:max_columns]:
            text = f"{display_ident(col.name)}: {col.sql_type.lower()}"
            if col.examples:
                text += " [" + ", ".join(col.examples) + "]"
            parts.append(text)
        if len(self.columns) > max_columns:
            parts.append(f"… {len(self.columns) - max_columns} more columns")
        return f"{self.name}({', '.join(parts)}), {self.rows} rows"


def _examples(con: duckdb.DuckDBPyConnection, data: Any, name: str) -> tuple[str, ...]:
    q = quote_ident(name)
    sql = f"SELECT DISTINCT CAST({q} AS VARCHAR) FROM t WHERE {q} IS NOT NULL ORDER BY 1 LIMIT {_EXAMPLES_MAX_DISTINCT + 1}"
    con.register("t", data)
    try:
        values = [r[0] for r in con.execute(sql).fetchall()]
    finally:
        con.unregister("t")
    if len(values) > _EXAMPLES_MAX_DISTINCT or any(len(v) > 24 for v in values):
        return ()
    return tuple(values)


def _csv_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".csv"))
        elif path.suffix.lower() == ".csv":
            found.append(path)
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


class TableCatalog:
    """The loaded tables by SQL name, and one readable sentence per file that was skipped."""

    def __init__(self, tables: list[TableInfo], problems: list[str], limits: TableLimits | None = None) -> None:
        self.tables: dict[str, TableInfo] = {t.name: t for t in tables}
        self.problems = problems
        self.limits = limits or TableLimits()
        self.memo: dict[Any, Any] = {}  # what is derived from the tables once (the planner's label vectors)

    @classmethod
    def from_paths(cls, paths: list[Path], limits: TableLimits | None = None) -> TableCatalog:
        """Load every ``.csv`` among ``paths`` (directories are searched recursively)."""
        limits = limits or TableLimits()
        tables: list[TableInfo] = []
        problems: list[str] = []
        files = _csv_files(paths)
        if len(files) > limits.max_tables:
            problems.append(f"Only the first {limits.max_tables} of {len(files)} CSV files were loaded.")
            files = files[: limits.max_tables]
        if not files:
            return cls([], problems, limits)
        con = open_loader(limits.memory_mb, limits.threads)
        try:
            reserved = reserved_words(con)
            for path in files:
                try:
                    loaded = load_csv(con, path, limits.max_file_mb * 1_000_000)
                except CSVReadError as exc:
                    problems.append(str(exc))
                    continue
                columns = tuple(
                    ColumnInfo(n, t, _examples(con, loaded.data, n) if kind_of(t) == "text" else ())
                    for n, t in loaded.columns
                )
                name = table_name(path.stem, [t.name for t in tables], reserved)
                tables.append(TableInfo(name, path.name, columns, loaded.rows, loaded.data))
        finally:
            con.close()
        return cls(tables, problems, limits)

    def __len__(self) -> int:
        return len(self.tables)

    def names(self) -> list[str]:
        return list(self.tables)

    def table(self, given: str | None) -> tuple[TableInfo, str]:
        """The table ``given`` names (forgiving; optional when there is only one), and a note."""
        if not self.tables:
            if self.problems:
                raise RetryException(" ".join(self.problems[:3]))
            raise RetryException("No table is available: attach a CSV file or add one to the theme's documents.")
        if not given or not given.strip():
            if len(self.tables) == 1:
                return next(iter(self.tables.values())), ""
            raise RetryException(f"Say which table to use: one of {', '.join(self.tables)}.")
        by_source = {t.source.lower(): t for t in self.tables.values()}
        if given.strip().lower() in by_source:
            return by_source[given.strip().lower()], ""
        try:
            name, note = match_name(given, self.names(), "table")
        except RetryException:
            if len(self.tables) != 1:
                raise
            only = next(iter(self.tables.values()))
            return only, f"(there is no table '{given[:40]}'; used {only.name}, the only table)"
        return self.tables[name], note

    def register_into(self, con: duckdb.DuckDBPyConnection) -> None:
        for info in self.tables.values():
            con.register(info.name, info.data)

    def describe(self, max_chars: int | None = None) -> str:
        """One line per table, "name(column: type, ...), N rows", bounded in length."""
        budget = max_chars or self.limits.describe_chars
        lines: list[str] = []
        used = 0
        names = self.names()
        for i, info in enumerate(self.tables.values()):
            line = info.describe()
            if len(line) > budget // 2:
                line = info.describe(max_columns=8)
            if used + len(line) > budget and lines:
                lines.append(f"… and {len(names) - i} more tables: {', '.join(names[i:])}"[: max(80, budget - used)])
                break
            lines.append(line[:budget])
            used += len(line) + 1
        if self.problems:
            lines.append(("Not loaded: " + " ".join(self.problems))[: max(120, budget - used)])
        return "\n".join(lines)
