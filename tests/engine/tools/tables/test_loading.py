"""Reading one CSV: wide files are bounded (a column cap with one sentence, profiling
linear in the columns), under a memory cap so a regression fails instead of swapping."""

import pytest

from engine.tools.tables.loading import CSVReadError, header_width, load_csv, open_loader
from tests.memory_cap import run_capped


def _wide(columns: int, rows: int = 20) -> str:
    header = ",".join(f"c{i}" for i in range(columns))
    body = "\n".join(",".join(f"v{r}_{i}" for i in range(columns)) for r in range(rows))
    return header + "\n" + body + "\n"


_LOAD = """
import json
from pathlib import Path
from engine.tools.tables.catalog import TableCatalog
path = Path({path!r})
catalog = TableCatalog.from_paths([path])
info = next(iter(catalog.tables.values()), None)
status = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
print(json.dumps({{"columns": len(info.columns) if info else 0, "problems": catalog.problems, "rss_kb": int(status)}}))
"""


def test_a_thousand_column_csv_loads_in_bounded_memory_and_time(write_csv):
    # Before: 1,000 columns took 3.3-12 GB and 15-95 s (one SELECT of 5,000 aggregates,
    # then one query over the whole table per column); now about 250 MB and a second.
    path = write_csv("wide.csv", _wide(1000))
    out, elapsed = run_capped(_LOAD.format(path=str(path)), cap_mb=4096)
    assert out["columns"] == 1000 and out["problems"] == []
    assert out["rss_kb"] < 1_000_000, out["rss_kb"]
    assert elapsed < 20, elapsed


def test_a_csv_over_the_column_cap_is_refused_with_one_sentence_before_it_is_read(write_csv):
    path = write_csv("very_wide.csv", _wide(5000, rows=3))
    out, _ = run_capped(_LOAD.format(path=str(path)), cap_mb=4096)
    assert out["columns"] == 0
    assert out["problems"] == [
        "very_wide.csv has 5,000 columns, over the limit of 1,000 for a table; it was not loaded."
    ]


def test_the_cap_is_checked_on_the_columns_read_too(write_csv):
    # A title line over the table: the first line holds one field, but DuckDB's sniffer
    # skips it and reads 30 columns, so the width is only known once the file is read.
    header = ",".join(f"c{i}" for i in range(30))
    rows = "\n".join(",".join(str(i * r) for i in range(30)) for r in range(5))
    path = write_csv("titled.csv", f"Sales report\n{header}\n{rows}\n")
    assert header_width(path) == 1
    con = open_loader(256, 1)
    try:
        with pytest.raises(CSVReadError, match=r"^titled.csv has 30 columns, over the limit of 10 for a table"):
            load_csv(con, path, 10**9, max_columns=10)
        assert len(load_csv(con, path, 10**9, max_columns=30).columns) == 30
    finally:
        con.close()


def test_the_sentence_is_french_in_french(write_csv):
    path = write_csv("large.csv", _wide(50, rows=1))
    con = open_loader(256, 1)
    try:
        with pytest.raises(CSVReadError) as info:
            load_csv(con, path, 10**9, max_columns=10, language="fr")
    finally:
        con.close()
    assert str(info.value) == "large.csv a 50 colonnes, au-delà de la limite de 10 par table ; il n'a pas été chargé."


def test_header_width_reads_the_first_line_only_and_respects_quotes(write_csv):
    assert header_width(write_csv("a.csv", 'x;y;"z;w"\n' + "1;2;3\n" * 10)) == 3
    assert header_width(write_csv("b.csv", "a\tb\tc\td\n")) == 4
    assert header_width(write_csv("c.csv", "only\n" + ",".join(["1"] * 50) + "\n")) == 1


def test_number_styles_are_still_found_column_by_column(write_csv):
    text = 'code,en,fr,plain,mixed\n007,"1,234.5","1 234,5",12,abc\n010,"2,000","2 000",13,"1,5"\n'
    con = open_loader(256, 1)
    try:
        loaded = load_csv(con, write_csv("styles.csv", text), 10**9)
    finally:
        con.close()
    types = dict(loaded.columns)
    assert types["en"] == "DOUBLE" and types["fr"] == "DOUBLE"
    assert loaded.data.column("en").to_pylist() == [1234.5, 2000.0]
    assert loaded.data.column("fr").to_pylist() == [1234.5, 2000.0]
    assert types["code"] == "VARCHAR" and loaded.data.column("code").to_pylist() == ["007", "010"]
    assert types["mixed"] == "VARCHAR"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_read_as_text_not_as_latin1_bytes(write_csv, encoding):
    # Excel's "Unicode text" export: UTF-16 with a byte-order mark, tab-separated; an emoji
    # (outside the Basic Multilingual Plane) made DuckDB's own UTF-16 reader refuse the file.
    text = "\ufeffrégion\tmontant\nÎle-de-France 🙂\t1 234,5\nBretagne\t20,5\n"
    path = write_csv("unicode.csv", text.encode(encoding))
    con = open_loader(256, 1)
    try:
        loaded = load_csv(con, path, 10**9)
    finally:
        con.close()
    assert loaded.columns == [("région", "VARCHAR"), ("montant", "DOUBLE")]
    assert loaded.data.column("région").to_pylist() == ["Île-de-France 🙂", "Bretagne"]
    assert loaded.data.column("montant").to_pylist() == [1234.5, 20.5]


@pytest.mark.parametrize(
    "data",
    [
        b"x\x00\t\x00\t\x00\n1\t2\t3\n",  # was: "zero-length delimited identifier"
        b'\x00,\x00,b\n"1,234.5",2,3\n',  # was: a number column profiled as text by its name
    ],
)
def test_header_names_never_reach_sql_as_identifiers(write_csv, data):
    # Found by the CSV fuzz suite: header cells holding NUL bytes made the conversion SQL
    # hold an empty identifier, or two columns share a name; columns are read by position.
    con = open_loader(256, 1)
    try:
        loaded = load_csv(con, write_csv("nul.csv", data), 10**9)
    finally:
        con.close()
    names = [n for n, _ in loaded.columns]
    assert len(names) == 3 and len({n.lower() for n in names}) == 3 and "\x00" not in "".join(names)
    assert loaded.rows == 1
