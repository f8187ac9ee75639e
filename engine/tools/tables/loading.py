"""Reading one CSV file into memory with DuckDB's sniffer (``read_csv_auto``).

The table is kept as an Arrow table so each query can register it on a fresh,
locked-down connection without touching the file again. Text columns that hold
numbers written with thousands separators (``1,234.5``) or in the French style
(``1 234,5``) become numbers; a file that is not UTF-8 is read as Latin-1.
"""

from __future__ import annotations

import csv
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from engine.tools.tables.messages import say
from engine.tools.tables.naming import column_labels, quote_ident

_EN_NUMBER = r"^[-+]?(\d+|\d{1,3}(,\d{3})+)(\.\d+)?$"
_FR_NUMBER = "^[-+]?(\\d+|\\d{1,3}([ \u00a0\u202f.]\\d{3})+)(,\\d+)?$"
_FR_CLEAN = "[ \u00a0\u202f.]"
_SEPARATOR = "[,. \u00a0\u202f]"
_GLOB_CHARS = re.compile(r"[*?\[\]{}]")
EXAMPLES_MAX_DISTINCT = 12  # a text column with more distinct values shows none


class CSVReadError(Exception):
    """A file that cannot be used as a table; the message is one readable sentence."""


@dataclass(frozen=True)
class LoadedCSV:
    data: Any  # a pyarrow.Table
    columns: list[tuple[str, str]]  # (name, DuckDB type)
    rows: int


NO_DISK = {"temp_directory": "", "max_temp_directory_size": "0B"}  # never spill to <cwd>/.tmp


def open_loader(memory_mb: int, threads: int) -> duckdb.DuckDBPyConnection:
    """A connection for reading files: no Python-variable scans, no extension downloads, no
    spilling to disk (over its memory limit a read fails, and the catalog says so)."""
    con = duckdb.connect(":memory:", config={"python_enable_replacements": False, "threads": threads, **NO_DISK})
    con.execute(f"SET memory_limit='{int(memory_mb)}MB'")
    con.execute("SET autoinstall_known_extensions=false")
    con.execute("SET autoload_known_extensions=false")
    return con


def reserved_words(con: duckdb.DuckDBPyConnection) -> frozenset[str]:
    rows = con.execute("SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved'").fetchall()
    return frozenset(r[0].lower() for r in rows)


def _reason(exc: duckdb.Error, path: Path, language: str) -> str:
    text = re.sub(r"[\"']/[^\"']*/([^/\"']+)[\"']", r'"\1"', str(exc).replace(str(path), path.name))
    if "not possible to automatically detect" in text:
        return say("csv_layout", language)
    if "Invalid unicode" in text:
        return say("csv_encoding", language)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    first = re.sub(r"^[A-Za-z ]+Error:\s*", "", lines[0] if lines else "unknown error")
    return first[:200].rstrip(".")


_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def _utf8_copy(path: Path, target: Path) -> None:
    """``path`` (UTF-16 with a byte-order mark) as UTF-8, in chunks: DuckDB's own UTF-16
    reader refuses characters outside the Basic Multilingual Plane."""
    with (
        path.open(encoding="utf-16", errors="replace", newline="") as src,
        target.open("w", encoding="utf-8", newline="") as dst,
    ):
        while chunk := src.read(1 << 20):
            dst.write(chunk)


def _read(con: duckdb.DuckDBPyConnection, path: Path) -> Any:
    """The raw Arrow table. DuckDB reads a path as a glob pattern, so a name holding
    ``*?[]{}`` is read through a link with a plain name. A file opening with a UTF-16
    byte-order mark (Excel's "Unicode text") is read from a UTF-8 copy, not as Latin-1 bytes."""
    with path.open("rb") as fh:
        utf16 = fh.read(2) in _UTF16_BOMS
    if utf16:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "table.csv"
            _utf8_copy(path, copy)
            return _read_plain(con, copy)
    if not _GLOB_CHARS.search(str(path)):
        return _read_plain(con, path)
    with tempfile.TemporaryDirectory() as tmp:
        link = Path(tmp) / "table.csv"
        try:
            link.symlink_to(path)
        except OSError:
            shutil.copyfile(path, link)
        return _read_plain(con, link)


_GENERIC_NAME = re.compile(r"column\d+")
_YEAR = re.compile(r"(?:19|20)\d\d")


def _years_header(raw: Any) -> bool:
    """Whether the first row DuckDB took for data is a header of periods: the sniffer
    finds no header in ``Item,2019,2018`` over plain numbers, since every cell of the first
    row could be data. It is one when every numeric column's first cell is a distinct year
    and its other cells are not all years."""
    if raw.num_rows < 2 or not all(_GENERIC_NAME.fullmatch(n) for n in raw.schema.names):
        return False
    first = [raw.column(i)[0].as_py() for i in range(raw.num_columns)]
    numeric = [i for i, f in enumerate(raw.schema) if str(f.type).startswith(("int", "uint", "double", "float"))]
    if not numeric or any(v is None or v == "" for v in first):
        return False
    years = [_whole(first[i]) for i in numeric]  # "2019" over "47.6" is read as 2019.0
    if len(set(years)) < len(years) or not all(_YEAR.fullmatch(y) for y in years):
        return False
    below = [v for i in numeric for v in raw.column(i).to_pylist()[1:] if v is not None]
    return any(not _YEAR.fullmatch(_whole(v)) for v in below)


def _whole(value: Any) -> str:
    """A number as written without a decimal part when it has none: 2019.0 → "2019"."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _read_plain(con: duckdb.DuckDBPyConnection, path: Path) -> Any:
    """Retries once as Latin-1 and once with a full-file type scan; a first row of years
    over plain numbers is read as the header (see ``_years_header``)."""
    options = ""
    for _ in range(3):
        try:
            raw = con.sql(f"SELECT * FROM read_csv_auto($p{options})", params={"p": str(path)}).to_arrow_table()
            if _years_header(raw):
                query = f"SELECT * FROM read_csv_auto($p{options}, header=true)"
                raw = con.sql(query, params={"p": str(path)}).to_arrow_table()
            return raw
        except duckdb.InvalidInputException as exc:
            if "Invalid unicode" not in str(exc) or "encoding" in options:
                raise
            options += ", encoding='latin-1'"
        except duckdb.ConversionException:
            if "sample_size" in options:
                raise
            options += ", sample_size=-1"
    raise CSVReadError(say("csv_types"))


def _count(values: Any, pattern: str) -> int:
    return int(pc.sum(pc.match_substring_regex(values, pattern)).as_py() or 0)


def _style(values: Any, sampled: bool) -> str | None:
    """The number style ("en"/"fr") of one text column whose non-null values all match one
    and that has separators somewhere (on a sample, only the match is checked). One column
    at a time in Arrow, so profiling is linear in the columns (one SELECT of five aggregates
    per column grew DuckDB's plan with the width: 5,000 columns took gigabytes)."""
    total = len(values) - values.null_count
    if not total:
        return None
    trimmed = pc.utf8_trim(values, characters=" ")  # DuckDB's trim(): spaces only
    if _count(trimmed, "^[-+]?0[0-9]"):
        return None  # plain digits with leading zeros are codes (postcodes, ids), not amounts
    en = _count(trimmed, _EN_NUMBER)
    if en < total and _count(trimmed, _FR_NUMBER) == total:
        style = "fr"
    elif en == total:
        style = "en"
    else:
        return None
    return style if sampled or _count(trimmed, _SEPARATOR) else None


def _numeric_text(raw: Any, text_columns: list[int]) -> dict[int, str]:
    """Which text columns (by position) hold only numbers with separators, and in which
    style ("en"/"fr"). A first look at the first rows rules out ordinary text columns cheaply."""
    if not text_columns or raw.num_rows == 0:
        return {}
    sample = raw.slice(0, 2000)
    styles: dict[int, str] = {}
    for i in text_columns:
        if _style(sample.column(i), sampled=True) is None:
            continue
        style = _style(raw.column(i), sampled=False)
        if style:
            styles[i] = style
    return styles


def column_examples(data: Any, name: str) -> tuple[str, ...]:
    """The distinct values of a low-cardinality text column (at most 12, each short), in
    order. Computed on that column alone, in Arrow, and ruled out on its first rows when
    they already hold too many: one DuckDB query over the whole table per column made the
    catalog quadratic in the columns."""
    column = data.column(data.schema.get_field_index(name))
    try:
        if pc.count_distinct(column.slice(0, 10_000)).as_py() > EXAMPLES_MAX_DISTINCT:
            return ()
        distinct = pc.unique(column.cast(pa.string()).drop_null())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return ()
    values = sorted(v for v in distinct.to_pylist() if v is not None)
    if len(values) > EXAMPLES_MAX_DISTINCT or any(len(v) > 24 for v in values):
        return ()
    return tuple(values)


def _dictionary_encoded(data: Any, columns: list[str]) -> Any:
    """Text columns with few distinct values (regions, products) stored as dictionaries:
    DuckDB filters and groups them about twice as fast."""
    for name in columns:
        index = data.schema.get_field_index(name)
        encoded = data.column(index).dictionary_encode()
        distinct = max((len(chunk.dictionary) for chunk in encoded.chunks), default=0)
        if data.num_rows >= 1000 and distinct <= data.num_rows // 10:
            data = data.set_column(index, name, encoded)
    return data


def header_width(path: Path, limit: int = 1_000_000) -> int:
    """The most fields the first line holds under any usual delimiter, read from the first
    ``limit`` bytes only: a cheap bound on the column count before DuckDB reads the file."""
    with path.open("rb") as fh:
        head = fh.read(limit)
    line = head.split(b"\n", 1)[0].decode("latin-1")
    return max(_fields(line, d) for d in ",;\t|")


def _fields(line: str, delimiter: str) -> int:
    try:
        return len(next(csv.reader([line], delimiter=delimiter), []))
    except csv.Error:  # a field over the csv module's size limit: count the delimiters
        return line.count(delimiter) + 1


def load_csv(
    con: duckdb.DuckDBPyConnection, path: Path, max_bytes: int, max_columns: int = 1000, language: str = "en"
) -> LoadedCSV:
    """Read ``path``; raise CSVReadError with one sentence when it cannot be a table. A file
    wider than ``max_columns`` is refused before it is read, and again after (the first
    line is only an estimate)."""
    path = path.resolve()
    try:
        size = path.stat().st_size
    except OSError:
        raise CSVReadError(say("csv_unopened", language, name=path.name)) from None
    if size == 0:
        raise CSVReadError(say("csv_empty", language, name=path.name))
    if size > max_bytes:
        raise CSVReadError(say("csv_too_big", language, name=path.name, size=size / 1e6, limit=max_bytes / 1e6))
    try:
        width = header_width(path)
    except OSError:
        raise CSVReadError(say("csv_unopened", language, name=path.name)) from None
    if width > max_columns:
        raise CSVReadError(say("too_wide", language, name=path.name, columns=width, limit=max_columns))
    try:
        raw = _read(con, path)
    except duckdb.OutOfMemoryException:
        raise  # the caller says how much memory it had
    except duckdb.Error as exc:
        raise CSVReadError(say("csv_unread", language, name=path.name, reason=_reason(exc, path, language))) from None
    if raw.num_columns > max_columns:
        raise CSVReadError(say("too_wide", language, name=path.name, columns=raw.num_columns, limit=max_columns))
    names = list(raw.schema.names)
    text_columns = [i for i, f in enumerate(raw.schema) if str(f.type) in ("string", "large_string")]
    styles = _numeric_text(raw, text_columns)
    labels = column_labels(names)
    if not styles and labels == names:
        data = raw
    else:
        # Columns are read by position: a header may hold empty or repeated names.
        parts = []
        for i, label in enumerate(labels):
            q = f"c{i}"
            if styles.get(i) == "fr":
                expr = f"CAST(replace(regexp_replace(trim({q}), '{_FR_CLEAN}', '', 'g'), ',', '.') AS DOUBLE)"
            elif styles.get(i) == "en":
                expr = f"CAST(replace(trim({q}), ',', '') AS DOUBLE)"
            else:
                expr = q
            parts.append(f"{expr} AS {quote_ident(label)}")
        con.register("raw_csv", raw.rename_columns([f"c{i}" for i in range(len(names))]))
        try:
            data = con.sql(f"SELECT {', '.join(parts)} FROM raw_csv").to_arrow_table()
        finally:
            con.unregister("raw_csv")
    data = _dictionary_encoded(data, [labels[i] for i in text_columns if i not in styles])
    con.register("loaded_csv", data)
    try:
        types = [str(t) for t in con.sql("SELECT * FROM loaded_csv").types]
    finally:
        con.unregister("loaded_csv")
    return LoadedCSV(data=data, columns=list(zip(labels, types, strict=True)), rows=data.num_rows)
