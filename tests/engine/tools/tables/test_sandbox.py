"""What SQL may run: one SELECT, on a connection that sees the registered tables only,
within time, memory and row limits."""

import threading
import time
from pathlib import Path

import pytest

from engine.errors import ToolError
from engine.tools.tables.catalog import TableCatalog, TableLimits
from engine.tools.tables.sandbox import open_sandbox, run_select, single_select
from tests.memory_cap import run_capped


@pytest.fixture
def catalog(sales_csv):
    return TableCatalog.from_paths([sales_csv])


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT 1",
        "select region from sales_2025;",
        "WITH q AS (SELECT * FROM sales_2025) SELECT count(*) FROM q",
        "FROM sales_2025",
        "SELECT 1 UNION ALL SELECT 2",
    ],
)
def test_one_select_is_accepted(sql):
    assert single_select(sql, TableLimits()).rstrip(";") == sql.strip().rstrip(";")


@pytest.mark.parametrize(
    "sql, said",
    [
        ("INSERT INTO sales_2025 VALUES (1)", "not INSERT"),
        ("COPY sales_2025 TO '/tmp/out.csv'", "not COPY"),
        ("ATTACH '/tmp/x.db' AS x", "not ATTACH"),
        ("PRAGMA version", "not PRAGMA"),
        ("SET threads = 64", "not SET"),
        ("INSTALL httpfs", "not LOAD"),
        ("LOAD httpfs", "not LOAD"),
        ("CREATE TABLE t AS SELECT 1", "not CREATE"),
        ("DROP TABLE sales_2025", "not DROP"),
        ("UPDATE sales_2025 SET units = 0", "not UPDATE"),
        ("EXPLAIN ANALYZE SELECT 1", "not EXPLAIN"),
        ("CALL pragma_version()", "not CALL"),
        ("EXPORT DATABASE '/tmp/x'", "not EXPORT"),
        ("SELECT 1; SELECT 2", "exactly one SELECT statement; this SQL holds 2"),
        ("SELECT 1; DROP TABLE sales_2025", "holds 2 statements"),
        ("SELEC region FROM sales_2025", "could not be parsed"),
        ("", "needs one SQL SELECT"),
    ],
)
def test_anything_else_is_refused_with_one_sentence(sql, said):
    with pytest.raises(ToolError) as info:
        single_select(sql, TableLimits())
    assert said in info.value.message
    assert info.value.message.count("\n") == 0


def test_overlong_sql_is_refused():
    with pytest.raises(ToolError, match="keep it under 100"):
        single_select("SELECT " + "1+" * 100 + "1", TableLimits(sql_max_chars=100))


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_text('/etc/passwd')",
        "SELECT * FROM read_blob('/etc/hostname')",
        "SELECT * FROM glob('/etc/*')",
        "SELECT * FROM read_csv('https://example.com/data.csv')",
        "SELECT * FROM read_parquet('s3://bucket/data.parquet')",
        "SELECT * FROM sniff_csv('/etc/passwd')",
    ],
)
def test_files_and_urls_cannot_be_read(catalog, sql):
    with pytest.raises(ToolError, match="Only the registered tables can be read"):
        run_select(catalog, sql)


def test_a_quoted_path_is_not_a_table(catalog):
    with pytest.raises(ToolError, match="Table with name /etc/passwd does not exist") as info:
        run_select(catalog, "SELECT * FROM '/etc/passwd'")
    assert "root:" not in info.value.message


def test_the_registered_file_itself_cannot_be_read_by_path(catalog, sales_csv):
    with pytest.raises(ToolError, match="Only the registered tables"):
        run_select(catalog, f"SELECT * FROM read_csv('{sales_csv}')")


def test_python_variables_are_not_reachable(catalog):
    secret_frame = catalog.tables["sales_2025"].data  # noqa: F841 - a replacement scan would find this name
    with pytest.raises(ToolError, match="secret_frame does not exist"):
        run_select(catalog, "SELECT * FROM secret_frame")


def test_extensions_are_not_loaded_on_demand(catalog):
    with pytest.raises(ToolError):
        run_select(catalog, "SELECT * FROM sqlite_scan('/tmp/x.db', 't')")


def test_configuration_is_locked_down(catalog):
    con = open_sandbox(catalog)
    try:
        settings = (
            "SELECT current_setting('enable_external_access'), current_setting('lock_configuration'), "
            "current_setting('autoinstall_known_extensions'), current_setting('autoload_known_extensions'), "
            "current_setting('threads'), current_setting('memory_limit')"
        )
        external, locked, autoinstall, autoload, threads, memory = con.execute(settings).fetchall()[0]
    finally:
        con.close()
    assert (external, locked, autoinstall, autoload, threads) == (False, True, False, False, 2)
    assert memory.startswith("488") or memory.startswith("512")  # DuckDB prints MiB


def test_query_function_cannot_run_other_statements(catalog):
    with pytest.raises(ToolError):
        run_select(catalog, "SELECT * FROM query('CREATE TABLE z AS SELECT 1')")


def test_a_slow_query_is_interrupted(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv], TableLimits(timeout_s=0.3))
    with pytest.raises(ToolError, match=r"ran longer than 0.3 s and was stopped"):
        run_select(catalog, "SELECT count(*) FROM range(100000000000) t(i) WHERE i % 7 = 3")


def test_memory_is_bounded(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv], TableLimits(memory_mb=64))
    with pytest.raises(ToolError, match="more than 64 MB of memory"):
        run_select(catalog, "SELECT length(string_agg(i::varchar, ',')) FROM range(30000000) t(i)")


def test_rows_beyond_the_kept_limit_are_counted_not_kept(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv], TableLimits(keep_rows=1000))
    out = run_select(catalog, "SELECT i, i * 2 AS double FROM range(123456) t(i)")
    assert out.total_rows == 123456
    assert len(out.rows) == 1000
    assert out.rows[999] == (999, 1998)
    assert out.columns == ["i", "double"]


def test_parameters_are_values_not_sql(catalog):
    out = run_select(catalog, "SELECT count(*) FROM sales_2025 WHERE region = $v", {"v": "France' OR '1'='1"})
    assert out.rows == [(0,)]


def test_typos_get_a_hint_with_the_real_names(catalog):
    with pytest.raises(ToolError) as info:
        run_select(catalog, "SELECT sum(revenu) FROM sales_2025")
    assert 'column "revenu" not found' in info.value.message
    assert "sales_2025(date: date" in info.value.message
    with pytest.raises(ToolError, match='Did you mean "sales_2025"'):
        run_select(catalog, "SELECT * FROM sales2025")


def test_two_queries_at_once_each_get_their_own_answer(catalog):
    results: dict[str, object] = {}

    def query(region: str) -> None:
        sql = f"SELECT sum(units) FROM sales_2025 WHERE region = '{region}'"
        results[region] = [run_select(catalog, sql).rows[0][0] for _ in range(20)]

    threads = [threading.Thread(target=query, args=(r,)) for r in ("France", "Benelux")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {"France": [16] * 20, "Benelux": [8] * 20}


@pytest.mark.parametrize(
    "sql, name",
    [
        ("SELECT * FROM duckdb_settings()", "duckdb_settings"),
        ("SELECT value FROM duckdb_settings() WHERE name = 'temp_directory'", "duckdb_settings"),
        ("SELECT * FROM pg_settings", "pg_settings"),
        ("SELECT * FROM pg_catalog.pg_settings", "pg_settings"),
        ("SELECT current_setting('temp_directory')", "current_setting"),
        ("SELECT * FROM (SELECT \"CURRENT_SETTING\"('secret_directory'))", "current_setting"),
        ("WITH s AS (SELECT * FROM duckdb_temporary_files()) SELECT * FROM s", "duckdb_temporary_files"),
        ("SELECT * FROM duckdb_extensions()", "duckdb_extensions"),
        ("SELECT * FROM duckdb_databases", "duckdb_databases"),
        ("SELECT * FROM pragma_database_list", "pragma_database_list"),
        ("SELECT getvariable('x')", "getvariable"),
        ("SELECT 1 WHERE 1 IN (SELECT count(*) FROM duckdb_secrets())", "duckdb_secrets"),
    ],
)
def test_settings_paths_and_variables_are_hidden(catalog, sql, name):
    with pytest.raises(ToolError) as info:
        run_select(catalog, sql)
    assert info.value.message == (
        f"The database's settings, files and variables are not available here ({name}); query the tables instead."
    )


def test_the_schema_of_the_tables_can_still_be_read(catalog):
    out = run_select(catalog, "SELECT column_name FROM duckdb_columns() WHERE table_name = 'sales_2025'")
    assert [r[0] for r in out.rows] == ["date", "region", "product", "units", "revenue"]


def test_even_reached_the_settings_name_no_path(catalog, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    con = open_sandbox(catalog)
    try:
        rows = con.execute("SELECT name, value FROM duckdb_settings()").fetchall()
    finally:
        con.close()
    values = dict(rows)
    assert values["temp_directory"] == "" and values["secret_directory"] == ""
    home, cwd = str(Path.home()), str(tmp_path)
    assert not [(n, v) for n, v in rows if home in str(v) or cwd in str(v) or str(v).startswith((".", "/"))]


def test_a_query_over_the_memory_limit_never_spills_to_disk(sales_csv, tmp_path, monkeypatch):
    # Before: a GROUP BY over the limit wrote gigabytes to <cwd>/.tmp (up to 90% of the disk).
    monkeypatch.chdir(tmp_path)
    before = set(tmp_path.rglob("*"))
    catalog = TableCatalog.from_paths([sales_csv], TableLimits(memory_mb=64))
    sql = "SELECT count(*) FROM (SELECT i, string_agg(i::varchar, ',') FROM range(3000000) t(i) GROUP BY i)"
    with pytest.raises(ToolError) as info:
        run_select(catalog, sql)
    assert info.value.message == "The query needed more than 64 MB of memory; aggregate more or select fewer rows."
    assert set(tmp_path.rglob("*")) == before


def test_a_query_stopped_while_its_rows_are_read_gets_the_timeout_sentence(sales_csv):
    # Before: "OSError: INTERRUPT Error: Interrupted!" (an interrupt between two batches of
    # rows surfaces through Arrow as an OSError).
    limits = TableLimits(timeout_s=0.3, keep_rows=10**9, result_bytes=10**12)
    catalog = TableCatalog.from_paths([sales_csv], limits)
    with pytest.raises(ToolError) as info:
        run_select(catalog, "SELECT i FROM range(10000000000) t(i) WHERE i % 1000 = 0")
    assert info.value.message == (
        "The query ran longer than 0.3 s and was stopped; filter or aggregate more, or add a LIMIT."
    )


def test_out_of_memory_while_rows_are_read_gets_the_memory_sentence_not_duckdbs_advice(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv], TableLimits(memory_mb=64))
    with pytest.raises(ToolError) as info:
        run_select(catalog, "SELECT i, repeat('x', 100) AS pad FROM range(3000000) t(i) ORDER BY i DESC")
    assert info.value.message == "The query needed more than 64 MB of memory; aggregate more or select fewer rows."


def test_the_stop_sentences_are_french_in_french(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv], TableLimits(timeout_s=0.3, memory_mb=64))
    with pytest.raises(ToolError, match=r"^La requête a duré plus de 0.3 s et a été arrêtée"):
        run_select(catalog, "SELECT i FROM range(10000000000) t(i) WHERE i % 1000000007 = 0", language="fr")
    with pytest.raises(ToolError, match=r"^La requête demandait plus de 64 Mo de mémoire"):
        run_select(catalog, "SELECT i, repeat('x', 100) FROM range(3000000) t(i) ORDER BY i DESC", language="fr")


def test_long_text_cells_are_cut_in_duckdb_before_they_reach_python(catalog):
    out = run_select(catalog, "SELECT repeat('ab ', 1000000) AS long, 'short' AS s, 7 AS n")
    long, short, n = out.rows[0]
    assert len(long) == 2000 and long.endswith("…") and long.startswith("ab ab")
    assert (short, n) == ("short", 7)
    assert out.note == "text longer than 2,000 characters was cut (…)"


def test_a_result_over_the_byte_budget_keeps_its_first_rows_and_counts_the_rest(catalog):
    out = run_select(catalog, "SELECT i, repeat('y', 1500) AS pad FROM range(10000) t(i)")
    assert out.total_rows == 10000
    assert 1000 < len(out.rows) < 1400  # 2 MB of ~1.5 KB rows
    assert [r[0] for r in out.rows[:3]] == [0, 1, 2]
    assert out.note == f"only the first {len(out.rows):,} rows are kept, the 2 MB limit of a result"


def test_lists_and_structs_are_bounded_as_text(catalog):
    out = run_select(catalog, "SELECT range(100000) AS many, [1, 2] AS two, {'a': 1} AS s, DATE '2020-01-31' AS d")
    many, two, s, d = out.rows[0]
    assert len(many) == 2000 and many.startswith("[0, 1, 2")
    assert (two, s, str(d)) == ("[1, 2]", "{'a': 1}", "2020-01-31")
    assert out.types == ["VARCHAR", "VARCHAR", "VARCHAR", "DATE"]


@pytest.mark.parametrize(
    "sql, rows",
    [
        ("SELECT i FROM range(5) t(i) ORDER BY i DESC", [(4,), (3,), (2,), (1,), (0,)]),
        ("SELECT 1 AS a, 2 AS a", [(1, 2)]),
        ('SELECT \'x\' AS "odd "" name" -- a trailing comment', [("x",)]),
        ("FROM sales_2025 SELECT count(*)", [(6,)]),
    ],
)
def test_the_bounded_query_keeps_order_names_and_syntax(catalog, sql, rows):
    assert run_select(catalog, sql).rows == rows


_HUGE = """
import json
from pathlib import Path
from engine.tools.tables.catalog import TableCatalog
from engine.tools.tables.sandbox import run_select
from engine.tools.tables.render import text_table, table_data
catalog = TableCatalog.from_paths([Path({path!r})])
out = run_select(catalog, {sql!r})
text, data = text_table(out, catalog.limits), table_data(out)
rss = int([l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1])
print(json.dumps({{"rows": len(out.rows), "total": out.total_rows, "chars": len(text), "rss_kb": rss}}))
"""


@pytest.mark.parametrize(
    "sql, rows",
    [
        ("SELECT repeat('ab ', 150000000) AS r", 1),  # before: 4.9 GB, then a MemoryError
        ("SELECT repeat('x', 6000000) AS r FROM range(200)", 200),  # before: 56 s and 2.4 GB
    ],
)
def test_huge_cells_stay_within_a_memory_cap(sales_csv, sql, rows):
    out, elapsed = run_capped(_HUGE.format(path=str(sales_csv), sql=sql), cap_mb=4096)
    assert out["rows"] == rows and out["total"] == rows
    assert out["chars"] < 2000
    assert out["rss_kb"] < 1_500_000, out["rss_kb"]
    assert elapsed < 20, elapsed


def test_dates_beyond_pythons_range_are_text_not_an_overflow(catalog):
    # Before: "query_table failed (OverflowError: date value out of range)".
    out = run_select(catalog, "SELECT DATE '-0044-03-15' AS ides, DATE '2020-01-02' AS d, 'infinity'::DATE AS inf")
    ides, d, inf = out.rows[0]
    assert ides == "-0044-03-15" and str(d) == "2020-01-02" and isinstance(inf, str)


def test_counting_the_rows_past_the_kept_ones_is_bounded_by_the_time_limit_too(sales_csv):
    # The rows past keep_rows are counted by a second statement; a one-shot timer that had
    # already fired let that count run on (two minutes for ten billion rows).
    catalog = TableCatalog.from_paths([sales_csv], TableLimits(timeout_s=1, keep_rows=100))
    started = time.monotonic()
    out = run_select(catalog, "SELECT i FROM range(10000000000) t(i) WHERE i % 1000 = 0")
    assert time.monotonic() - started < 5
    assert [r[0] for r in out.rows[:3]] == [0, 1000, 2000] and len(out.rows) == 100
    assert out.note == "there are more rows than these; counting them all ran past 1 s"
