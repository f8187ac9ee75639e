"""The tables a conversation can query: every CSV among the theme's documents and the
attached files, and every table inside their Markdown, HTML and PDF documents, each under
a safe SQL name, with its columns, types and row count.

What a report table (a table inside a document) adds, for the table planner and the
answer; CSV tables leave all of it at its default:

- Where it is: ``TableInfo.source`` (the file name) and ``location`` ("table 2", "page 3,
  table 1"). Its name is ``<document>_<md|html|pdf>_t<position>`` ("annual_report_md_t1").
- Its rows: ``label_column`` holds the row labels, the key of a row ("Software");
  ``row_labels()`` lists them. ``section_column`` (or None) holds the section a row sits
  under ("Deferred tax assets"). ``row_unit_column`` (or None) holds "%" (or "pts", "x")
  on the rows whose figures are in that unit rather than the table's ("Gross margin").
- Its Total rows: ``total_column`` (or None) names a BOOLEAN column (``is_total``), true on
  Total and subtotal rows (``engine.grounding.totals.is_total_label``, or an unlabelled row
  that sums the rows above it, which is then labelled "Total"). A sum over a column adds
  the other rows only: ``parts_condition()`` is that SQL condition (``NOT "is_total"``; ""
  when nothing is marked), e.g. ``f'SELECT sum("2019") FROM {t.name} WHERE {cond}'``.
  ``total_labels()`` lists the labels of the Total rows.
- Its columns: ``ColumnInfo.period`` is the period a column's header names ("2019", "Q1
  2020", "2017/2018", or ""); ``period_columns()`` maps column → period. ``ColumnInfo.role``
  is "label", "section", "row_unit", "value", "total_value" (a column that is itself a
  total, e.g. "Total") or "total_flag". ``ColumnInfo.unit`` is "%", "pts", "x" or "th"
  when a column's figures carry it.
- Its unit: ``scale`` ("", "thousand", "million", "billion", "percent") and ``currency``
  ("$", "€", "£", "S$", …); ``unit`` says both ("$ thousand") for the answer to state.
  ``caption`` is the header text over every column ("Year Ended December 31,").
- ``preferred``: the table comes from a file attached to the conversation. Preferred
  tables come first in ``TableCatalog.tables`` (and ``TableCatalog.preferred()`` names
  them): they are the tables a question is about unless it names another one, and
  ``table(None)`` picks the attached table when there is exactly one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import duckdb
import pyarrow as pa
from pydantic import BaseModel

from engine.errors import ToolError
from engine.tools.tables.doc_loading import DocumentTable, document_tables
from engine.tools.tables.doc_tables import DOCUMENT_SUFFIXES, DocumentLimits
from engine.tools.tables.loading import CSVReadError, column_examples, load_csv, open_loader, reserved_words
from engine.tools.tables.messages import say
from engine.tools.tables.naming import display_ident, document_table_name, match_name, quote_ident, table_name

Kind = Literal["number", "date", "text"]
NUMBER_TYPES = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER",
                 "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "REAL")  # fmt: skip
DATE_TYPES = ("DATE", "TIMESTAMP", "TIME")


def kind_of(sql_type: str) -> Kind:
    """The app's column kind for a DuckDB type name."""
    upper = sql_type.upper()
    if upper.startswith(NUMBER_TYPES):
        return "number"
    if upper.startswith(DATE_TYPES):
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
    csv_columns: int = 1000  # wider CSV files are not loaded
    result_bytes: int = 2_000_000  # bytes of a query result kept (Arrow size, after cutting long cells)
    cell_chars: int = 2000  # characters of one text cell of a query result
    max_tables: int = 50
    describe_chars: int = 1500  # bound of catalog.describe()
    sql_max_chars: int = 8000
    max_document_mb: int = 20  # larger documents are not searched for tables
    document_tables: int = 20  # tables read from one document
    table_columns: int = 200  # columns of one document table
    table_cells: int = 20_000  # cells of one document table
    pdf_pages: int = 50  # PDF pages searched for tables (pdfplumber: about 0.1 s a page with a table)

    def documents(self) -> DocumentLimits:
        return DocumentLimits(self.document_tables, self.table_columns, self.table_cells, self.pdf_pages)


@dataclass(frozen=True)
class ColumnInfo:
    name: str
    sql_type: str
    examples: tuple[str, ...] = ()  # the distinct values of a low-cardinality text column
    unit: str = ""  # "%", "pts", "x" when the column's figures carry it (report tables)
    period: str = ""  # the period its header names: "2019", "Q1 2020" (report tables)
    role: str = ""  # report tables: "label", "section", "value", "total_value" or "total_flag"

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
    location: str = ""  # where in its document: "table 2", "page 3, table 1" ("" for a CSV file)
    label_column: str | None = None
    section_column: str | None = None
    total_column: str | None = None  # BOOLEAN, true on Total and subtotal rows
    row_unit_column: str | None = None  # "%" on rows in percent inside a table of amounts
    scale: str = ""  # "", "thousand", "million", "billion", "percent"
    currency: str = ""
    caption: str = ""  # the header text over every column ("Year Ended December 31,"), and a document table's lead
    preferred: bool = False  # from a file attached to the conversation

    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def unit(self) -> str:
        """What the figures are in, to state with an answer: "$ thousand", "€ million", "percent", ""."""
        if self.scale == "percent":
            return "percent"
        return " ".join(p for p in (self.currency, self.scale) if p)

    def parts_condition(self) -> str:
        """The SQL condition keeping the rows that are not totals ("" when none is marked):
        a sum over a column adds these rows only, so no figure is counted twice."""
        return f"NOT {quote_ident(self.total_column)}" if self.total_column else ""

    def total_labels(self) -> list[str]:
        """The labels of the Total and subtotal rows, in order."""
        if not self.total_column or not self.label_column:
            return []
        marks = self.data.column(self.total_column).to_pylist()
        labels = self.data.column(self.label_column).to_pylist()
        return [str(label) for label, mark in zip(labels, marks, strict=True) if mark]

    def row_labels(self) -> list[str | None]:
        """The row labels in order ([] when the table has no label column)."""
        return self.data.column(self.label_column).to_pylist() if self.label_column else []

    def period_columns(self) -> dict[str, str]:
        """Column name → the period it holds, for the columns whose header names one."""
        return {c.name: c.period for c in self.columns if c.period}

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
        text = f"{self.name}({', '.join(parts)}), {self.rows} rows"
        if self.unit:
            text += f", figures in {self.unit}"
        if self.total_column and self.total_labels():
            text += f"; {display_ident(self.total_column)} marks Total rows"
        return text


TABLE_SUFFIXES = (".csv", *DOCUMENT_SUFFIXES)


def _table_files(paths: list[Path]) -> list[Path]:
    """CSV files and documents among ``paths`` (directories searched recursively), each once."""
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in TABLE_SUFFIXES))
        elif path.suffix.lower() in TABLE_SUFFIXES:
            found.append(path)
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def _under(path: Path, roots: list[Path]) -> bool:
    resolved = path.resolve()
    return any(resolved == root or resolved.is_relative_to(root) for root in roots)


def _document_info(path: Path, table: DocumentTable, name: str, preferred: bool) -> TableInfo:
    report, data = table.report, table.data
    columns = tuple(
        ColumnInfo(
            c.name,
            sql_type,
            column_examples(data, c.name) if c.kind == "text" else (),
            unit=c.unit,
            period=c.period,
            role=c.role,
        )
        for c, sql_type in zip(report.columns, table.types, strict=True)
    )
    role = {c.role: c.name for c in report.columns}
    return TableInfo(name, path.name, columns, report.rows, data, location=table.location,
                     label_column=role.get("label"), section_column=role.get("section"),
                     total_column=role.get("total_flag"), row_unit_column=role.get("row_unit"), scale=report.scale, currency=report.currency,
                     caption=" ".join(x for x in (report.caption, table.lead) if x), preferred=preferred)  # fmt: skip


def _csv_tables(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    tables: list[TableInfo],
    reserved: frozenset[str],
    limits: TableLimits,
    preferred: bool,
    language: str,
) -> list[TableInfo]:
    loaded = load_csv(con, path, limits.max_file_mb * 1_000_000, limits.csv_columns, language)
    columns = tuple(
        ColumnInfo(n, t, column_examples(loaded.data, n) if kind_of(t) == "text" else ()) for n, t in loaded.columns
    )
    name = table_name(path.stem, [t.name for t in tables], reserved)
    return [TableInfo(name, path.name, columns, loaded.rows, loaded.data, preferred=preferred)]


def _document_tables(
    path: Path,
    tables: list[TableInfo],
    reserved: frozenset[str],
    limits: TableLimits,
    preferred: bool,
    language: str,
) -> tuple[list[TableInfo], list[str]]:
    found, refused = document_tables(path, limits.max_document_mb * 1_000_000, limits.documents(), language)
    taken = [t.name for t in tables]
    out: list[TableInfo] = []
    for table in found[: limits.max_tables - len(tables)]:
        name = document_table_name(path.stem, path.suffix, table.position, taken, reserved)
        out.append(_document_info(path, table, name, preferred))
        taken.append(name)
    return out, refused


class TableCatalog:
    """The loaded tables by SQL name, the conversation's attached ones first, and one
    readable sentence per file (``problems``: CSV files) or document table
    (``document_problems``) that was skipped."""

    def __init__(
        self,
        tables: list[TableInfo],
        problems: list[str],
        limits: TableLimits | None = None,
        document_problems: list[str] | None = None,
    ) -> None:
        ordered = [t for t in tables if t.preferred] + [t for t in tables if not t.preferred]
        self.tables: dict[str, TableInfo] = {t.name: t for t in ordered}
        self.problems = problems
        self.document_problems = document_problems or []
        self.limits = limits or TableLimits()
        self.memo: dict[Any, Any] = {}  # what is derived from the tables once (the planner's label vectors)

    @classmethod
    def from_paths(
        cls,
        paths: list[Path],
        limits: TableLimits | None = None,
        preferred: list[Path] | tuple[Path, ...] = (),
        language: str = "en",
    ) -> TableCatalog:
        """Load every ``.csv`` among ``paths`` and the tables inside every Markdown, HTML and
        PDF document (directories are searched recursively). Files under ``preferred`` (the
        conversation's attachments) are loaded first, so their tables come first and keep
        the plain names."""
        limits = limits or TableLimits()
        tables: list[TableInfo] = []
        problems: list[str] = []
        notes: list[str] = []
        roots = [Path(p).resolve() for p in preferred]
        files = _table_files([*preferred, *paths])
        files.sort(key=lambda p: not _under(p, roots))
        csvs = [p for p in files if p.suffix.lower() == ".csv"]
        if len(csvs) > limits.max_tables:
            problems.append(say("first_csvs", language, limit=limits.max_tables, n=len(csvs)))
            dropped = set(csvs[limits.max_tables :])
            files = [p for p in files if p not in dropped]
        if not files:
            return cls([], problems, limits)
        con = open_loader(limits.memory_mb, limits.threads)
        try:
            reserved = reserved_words(con)
            for path in files:
                if len(tables) >= limits.max_tables:
                    notes.append(say("first_tables", language, limit=limits.max_tables))
                    break
                try:
                    if path.suffix.lower() == ".csv":
                        tables += _csv_tables(con, path, tables, reserved, limits, _under(path, roots), language)
                    else:
                        found, refused = _document_tables(path, tables, reserved, limits, _under(path, roots), language)
                        tables += found
                        notes += refused
                except CSVReadError as exc:
                    problems.append(str(exc))
                except (duckdb.OutOfMemoryException, MemoryError):
                    sentence = say("load_memory", language, name=path.name, memory_mb=limits.memory_mb)
                    (problems if path.suffix.lower() == ".csv" else notes).append(sentence)
                except (duckdb.Error, pa.ArrowException):  # one file's fault never loses the others
                    sentence = say("unreadable", language, name=path.name)
                    (problems if path.suffix.lower() == ".csv" else notes).append(sentence)
        finally:
            con.close()
        return cls(tables, problems, limits, notes)

    def __len__(self) -> int:
        return len(self.tables)

    def names(self) -> list[str]:
        return list(self.tables)

    def preferred(self) -> list[str]:
        """The names of the tables attached to the conversation, in order (they come first)."""
        return [name for name, info in self.tables.items() if info.preferred]

    def table(self, given: str | None) -> tuple[TableInfo, str]:
        """The table ``given`` names (forgiving; optional when there is only one), and a note."""
        if not self.tables:
            if self.problems or self.document_problems:
                raise ToolError(" ".join((self.problems + self.document_problems)[:3]))
            raise ToolError(say("no_table_available"))
        if not given or not given.strip():
            if len(self.tables) == 1:
                return next(iter(self.tables.values())), ""
            attached = self.preferred()
            if len(attached) == 1:
                return self.tables[attached[0]], say("used_attached", name=attached[0])
            raise ToolError(say("which_table", tables=", ".join(self.tables)))
        by_source = {t.source.lower(): t for t in self.tables.values()}
        if given.strip().lower() in by_source:
            return by_source[given.strip().lower()], ""
        try:
            name, note = match_name(given, self.names(), "table")
        except ToolError:
            if len(self.tables) != 1:
                raise
            only = next(iter(self.tables.values()))
            return only, say("used_only", given=given[:40], name=only.name)
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
                lines.append(say("more_tables", n=len(names) - i, names=", ".join(names[i:]))[: max(80, budget - used)])
                break
            lines.append(line[:budget])
            used += len(line) + 1
        if self.problems or self.document_problems:
            skipped = " ".join(self.problems + self.document_problems)
            lines.append(say("not_loaded", skipped=skipped)[: max(120, budget - used)])
        return "\n".join(lines)
