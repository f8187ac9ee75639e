"""What SQL may run: one SELECT, on a connection that sees the registered tables only,
within time, memory and row limits."""

import threading

import pytest

from engine.errors import RetryException
from engine.tools.tables.catalog import TableCatalog, TableLimits
from engine.tools.tables.sandbox import run_select, single_select


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
    with pytest.raises(RetryException) as info:
        single_select(sql, TableLimits())
    assert said in info.value.message
    assert info.value.message.count("\n") == 0


def test_overlong_sql_is_refused():
    with pytest.raises(RetryException, match="keep it under 100"):
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
    with pytest.raises(RetryException, match="Only the registered tables can be read"):
        run_select(catalog, sql)


def test_a_quoted_path_is_not_a_table(catalog):
    with pytest.raises(RetryException, match="Table with name /etc/passwd does not exist") as info:
        run_select(catalog, "SELECT * FROM '/etc/passwd'")
    assert "root:" not in info.value.message


def test_the_registered_file_itself_cannot_be_read_by_path(catalog, sales_csv):
    with pytest.raises(RetryException, match="Only the registered tables"):
        run_select(catalog, f"SELECT * FROM read_csv('{sales_csv}')")


def test_python_variables_are_not_reachable(catalog):
    secret_frame = catalog.tables["sales_2025"].data  # noqa: F841 - a replacement scan would find this name
    with pytest.raises(RetryException, match="secret_frame does not exist"):
        run_select(catalog, "SELECT * FROM secret_frame")


def test_extensions_are_not_loaded_on_demand(catalog):
    with pytest.raises(RetryException):
        run_select(catalog, "SELECT * FROM sqlite_scan('/tmp/x.db', 't')")


def test_configuration_is_locked_down(catalog):
    out = run_select(
        catalog,
        "SELECT current_setting('enable_external_access'), current_setting('lock_configuration'), "
        "current_setting('autoinstall_known_extensions'), current_setting('autoload_known_extensions'), "
        "current_setting('threads'), current_setting('memory_limit')",
    )
    external, locked, autoinstall, autoload, threads, memory = out.rows[0]
    assert (external, locked, autoinstall, autoload, threads) == (False, True, False, False, 2)
    assert memory.startswith("488") or memory.startswith("512")  # DuckDB prints MiB


def test_query_function_cannot_run_other_statements(catalog):
    with pytest.raises(RetryException):
        run_select(catalog, "SELECT * FROM query('CREATE TABLE z AS SELECT 1')")


def test_a_slow_query_is_interrupted(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv], TableLimits(timeout_s=0.3))
    with pytest.raises(RetryException, match=r"ran longer than 0.3 s and was stopped"):
        run_select(catalog, "SELECT count(*) FROM range(100000000000) t(i) WHERE i % 7 = 3")


def test_memory_is_bounded(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv], TableLimits(memory_mb=64))
    with pytest.raises(RetryException, match="more than 64 MB of memory"):
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
    with pytest.raises(RetryException) as info:
        run_select(catalog, "SELECT sum(revenu) FROM sales_2025")
    assert 'column "revenu" not found' in info.value.message
    assert "sales_2025(date: date" in info.value.message
    with pytest.raises(RetryException, match='Did you mean "sales_2025"'):
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
