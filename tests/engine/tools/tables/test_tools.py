"""query_table, aggregate_table and lookup_table end to end on real CSV files, and the
toolkit factory."""

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from engine.errors import ToolError
from engine.tools.results import ToolResult
from engine.tools.tables import AggregateTable, LookupTable, QueryTable, TableCatalog, TableLimits, table_toolkit

HANDBOOK_CSV = Path(__file__).resolve().parents[4] / "data" / "themes" / "handbook" / "sales_2025.csv"


def call(tool, **args) -> ToolResult:
    return tool.run(tool.validate(args))


def test_query_table_answers_the_q3_revenue_by_region_question():
    expected: dict[str, int] = defaultdict(int)
    with HANDBOOK_CSV.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["quarter"] == "Q3":
                expected[row["region"]] += int(row["revenue_eur"])
    (tool,) = table_toolkit([HANDBOOK_CSV.parent], small_model=False)
    result = call(
        tool,
        sql="SELECT region, sum(revenue_eur) AS revenue FROM sales_2025 WHERE quarter = 'Q3' GROUP BY 1 ORDER BY 1",
    )
    assert result.computed is True
    assert result.table.columns == ["region", "revenue"]
    assert result.table.dtypes == ["text", "number"]
    assert {r[0]: r[1] for r in result.table.rows} == dict(expected)
    for region, total in expected.items():
        assert f"{region}" in result.text and str(total) in result.text


def test_query_table_description_lists_tables_and_columns(sales_csv):
    tool = QueryTable(TableCatalog.from_paths([sales_csv]))
    assert "sales_2025(date: date, region: varchar" in tool.description
    assert "sales_2025(" in tool.function_schema()["function"]["description"]
    assert tool.single_string_field == "sql"


def test_query_table_result_is_cut_for_the_model_and_kept_for_the_app(sales_csv):
    limits = TableLimits(model_rows=5, keep_rows=50)
    tool = QueryTable(TableCatalog.from_paths([sales_csv], limits))
    result = call(tool, sql="SELECT i FROM range(1000) t(i)")
    data_lines = result.text.splitlines()[1:-1]
    assert data_lines == ["0", "1", "2", "3", "4"]
    assert result.text.splitlines()[-1].startswith("(5 of 1000 rows shown; the first 50 are kept as data")
    assert len(result.table.rows) == 50 and result.table.total_rows == 1000


def test_query_table_text_is_bounded_in_characters(sales_csv):
    tool = QueryTable(TableCatalog.from_paths([sales_csv], TableLimits(model_chars=600)))
    result = call(tool, sql="SELECT repeat('x', 30) AS a, repeat('y', 30) AS b FROM range(100)")
    assert len(result.text) <= 600
    assert "of 100 rows shown" in result.text


def test_query_table_values_are_json(sales_csv):
    tool = QueryTable(TableCatalog.from_paths([sales_csv]))
    result = call(tool, sql="SELECT date, 1.5::DECIMAL(4,2) AS d, 'nan'::DOUBLE AS n FROM sales_2025 LIMIT 1")
    assert result.table.rows == [["2025-01-15", 1.5, None]]
    assert result.table.dtypes == ["date", "number", "number"]


def test_zero_row_table_and_zero_row_results(write_csv):
    tool = QueryTable(TableCatalog.from_paths([write_csv("empty.csv", "a,b\n")]))
    result = call(tool, sql="SELECT * FROM empty")
    assert result.table.rows == [] and result.table.total_rows == 0
    assert result.text.splitlines()[-1] == "(no rows)"


# ---- the small-model tools ------------------------------------------------------------
@pytest.fixture
def tools(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv])
    return AggregateTable(catalog), LookupTable(catalog)


def test_sum_by_group(tools):
    result = call(tools[0], table="sales_2025", column="revenue", operation="sum", group_by="region")
    assert {r[0]: r[1] for r in result.table.rows} == {"Benelux": 9700.0, "France": 6400.5, "United Kingdom": 300.0}
    assert result.computed and result.text.startswith("sum of revenue by region in sales_2025:")


def test_max_over_the_whole_table(tools):
    result = call(tools[0], column="units", operation="max")
    assert result.table.rows == [[10, 6]]


@pytest.mark.parametrize("operation, expected", [("mean", 600.125), ("median", 550.0), ("count", 4), ("min", 300.0)])
def test_filter_is_case_insensitive(tools, operation, expected):
    result = call(tools[0], column="revenue", operation=operation, filter_column="product", filter_value="PIPETTES")
    assert result.table.rows[0][0] == pytest.approx(expected)


def test_count_without_a_column_and_a_numeric_filter(tools):
    result = call(tools[0], operation="count", filter_column="units", filter_value="4")
    assert result.table.rows == [[1, 1]]


def test_sloppy_names_are_read_with_a_note(tools):
    result = call(tools[0], table="Sales", column="Revenu", operation="Total", group_by="REGION")
    assert "(table 'Sales' read as 'sales_2025')" in result.text
    assert "(column 'Revenu' read as 'revenue')" in result.text
    assert len(result.table.rows) == 3


@pytest.mark.parametrize(
    "args, said",
    [
        ({"column": "revenue", "operation": "variance"}, "use one of sum, mean, min, max, count, median"),
        ({"column": "region", "operation": "sum"}, "region is not numeric; sum needs one of units, revenue"),
        ({"operation": "mean"}, "Say which column to mean"),
        ({"column": "price", "operation": "sum"}, "There is no column 'price' in sales_2025"),
        (
            {"column": "revenue", "operation": "sum", "filter_column": "region", "filter_value": "Spain"},
            "values are Benelux",
        ),
        ({"column": "revenue", "operation": "sum", "filter_column": "units", "filter_value": "many"}, "not a number"),
    ],
)
def test_aggregate_misuse_gets_one_sentence(tools, args, said):
    with pytest.raises(ToolError) as info:
        call(tools[0], **args)
    assert said in info.value.message


def test_hostile_text_is_a_value_never_sql(tools):
    hostile = "x'); DROP TABLE sales_2025; --"
    with pytest.raises(ToolError, match="No row of sales_2025 has region"):
        call(tools[0], column="revenue", operation="sum", filter_column="region", filter_value=hostile)
    assert call(tools[0], operation="count").table.rows[0][0] == 6


def test_hostile_column_names_work_through_the_catalog(write_csv):
    path = write_csv("h.csv", '"a""; DROP TABLE h; --","Revenue (EUR)"\nx,2\ny,3\nx,5\n')
    tool = AggregateTable(TableCatalog.from_paths([path]))
    result = call(tool, column="revenue (eur)", operation="sum", group_by='a"; DROP TABLE h; --')
    assert result.table.rows == [["x", 7, 2], ["y", 3, 1]]


def test_lookup_equals_and_contains(tools):
    equals = call(tools[1], column="region", value="benelux")
    assert [r[2] for r in equals.table.rows] == ["Pipettes", "Centrifuges"]
    contains = call(tools[1], column="product", value="scope", match="contains")
    assert [r[1] for r in contains.table.rows] == ["France"]
    with pytest.raises(ToolError, match="No row of sales_2025 has region = 'Spain'"):
        call(tools[1], column="region", value="Spain")


# ---- the factory ----------------------------------------------------------------------
def test_toolkit_choice(sales_csv, tmp_path):
    assert [t.name for t in table_toolkit([sales_csv], small_model=False)] == ["query_table"]
    assert [t.name for t in table_toolkit([sales_csv], small_model=True)] == [
        "aggregate_table",
        "lookup_table",
        "compute_table",
    ]
    (tmp_path / "notes.md").write_text("no table here")
    assert table_toolkit([tmp_path / "notes.md"], small_model=False) == []


def test_toolkit_with_only_a_corrupt_csv_explains_it(write_csv):
    (tool,) = table_toolkit([write_csv("broken.csv", bytes(range(256)) * 40)], small_model=False)
    assert "Not loaded: broken.csv could not be read as a table" in tool.description
    with pytest.raises(ToolError, match="broken.csv could not be read as a table"):
        AggregateTable(tool.catalog).run(AggregateTable.Args(operation="count"))


def test_numbers_as_values_and_huge_arguments(tools):
    assert call(tools[0], operation="count", filter_column="units", filter_value=4).table.rows == [[1, 1]]
    assert call(tools[1], column="units", value=10).table.rows[0][1] == "France"
    with pytest.raises(ToolError, match="Invalid arguments for aggregate_table: 'column'"):
        call(tools[0], column="x" * 100_000, operation="sum")
    with pytest.raises(ToolError, match="'value'"):
        call(tools[1], column="region", value="y" * 100_000)


def test_larger_tables_with_repeated_text_give_the_same_answers(write_csv):
    regions = ["France", "Benelux", "Export"]
    lines = ["region,units"] + [f"{regions[i % 3]},{i}" for i in range(3000)]
    catalog = TableCatalog.from_paths([write_csv("big.csv", "\n".join(lines) + "\n")])
    assert str(catalog.tables["big"].data.schema.field("region").type).startswith("dictionary")
    aggregate, lookup = AggregateTable(catalog), LookupTable(catalog)
    result = call(aggregate, column="units", operation="sum", filter_column="region", filter_value="benelux")
    assert result.table.rows == [[sum(range(1, 3000, 3)), 1000]]
    assert len(call(lookup, column="region", value="xpor", match="contains").table.rows) == 50
    sql = call(QueryTable(catalog), sql="SELECT region, max(units) FROM big GROUP BY 1 ORDER BY 1")
    assert sql.table.rows == [["Benelux", 2998], ["Export", 2999], ["France", 2997]]


def test_query_table_says_when_a_result_was_cut_by_its_bytes(sales_csv):
    (tool,) = table_toolkit([sales_csv], small_model=False, language="fr")
    result = call(tool, sql="SELECT i, repeat('y', 1500) AS pad FROM range(10000) t(i)")
    kept = len(result.table.rows)
    assert 1000 < kept < 1400 and result.table.total_rows == 10000
    assert result.text.splitlines()[-1] == (
        f"(seules les {kept} premières lignes sont gardées, la limite de 2 Mo d'un résultat.)"
    )
    assert len(result.text) <= TableLimits().model_chars
