"""How a computation over named cells is written (engine/tools/tables/cell_statement.py)."""

import pytest

from engine.tools.tables import TableCatalog
from engine.tools.tables.compute_tool import ComputeTable

REPORT = """Property and results of the year.

| Item | 2019 | 2018 |
| --- | --- | --- |
| Land | 50.7 | 41.2 |
| Accumulated depreciation and amortization | (2,378.2) | (2,201.3) |
| Net loss | (95,306) | (10,352) |
| Net income (loss) | (6,557) | 1,200 |
| Other income | (31) | (24) |
| Interest expense | (279,059) | (254,126) |
| EBITDA | 425 | 400 |
| Revenue | 1,000,000 | 900,000 |
| Tax paid | (5.6) | (4.1) |
| Other expense (income) | (12) | 5 |
"""


@pytest.fixture(scope="module")
def tool(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    (folder / "assets.md").write_text(REPORT, encoding="utf-8")
    return ComputeTable(TableCatalog.from_paths([folder]))


def run(tool, operation, rows, columns):
    (info,) = tool.catalog.tables.values()
    args = ComputeTable.Args(table=info.name, operation=operation, label_column="Item", rows=rows, columns=columns)
    return tool.run(args).statement


@pytest.mark.parametrize(
    ("operation", "row", "columns", "first"),
    [
        ("value", "Accumulated depreciation and amortization", ["2019"], "2,378.2: Accumulated depreciation"),
        ("value", "Net loss", ["2019", "2018"], "95,306; 10,352: Net loss"),
        ("mean", "Net loss", ["2019", "2018"], "52,829 = (95,306 + 10,352) / 2"),
    ],
)
def test_an_amount_taken_away_is_stated_as_an_amount_with_how_the_table_writes_it(tool, operation, row, columns, first):
    statement = run(tool, operation, [row], columns)
    assert statement.startswith(first)
    assert "written (" in statement  # the parentheses of the table are said, not hidden


@pytest.mark.parametrize(("row", "first"), [("Net income (loss)", "-6,557"), ("Other income", "-31")])
def test_a_row_that_may_go_either_way_keeps_its_sign(tool, row, first):
    statement = run(tool, "value", [row], ["2019"])
    assert statement.startswith(first + ":")
    assert "written" not in statement


def test_a_change_between_amounts_taken_away_is_computed_as_the_table_writes_them(tool):
    """ "The change in the loss" from 2018 (−10,352) to 2019 (−95,306): −84,954, as the cells are written."""
    statement = run(tool, "change", ["Net loss"], ["2019", "2018"])
    assert statement.startswith("-84,954 = -95,306 − (-10,352)")
    assert "written" not in statement


@pytest.mark.parametrize(
    ("operation", "rows", "columns", "first"),
    [
        ("value", ["Interest expense"], ["2019"], "279,059: Interest expense"),
        ("value", ["Tax paid"], ["2019"], "5.6: Tax paid"),
        ("change", ["Interest expense"], ["2019", "2018"], "24,933 = 279,059 − 254,126"),
        ("percent_change", ["Interest expense"], ["2019", "2018"], "9.81% = (279,059 − 254,126) / 254,126"),
        ("share", ["Interest expense", "Revenue"], ["2019"], "27.91% = 279,059 / 1,000,000"),
    ],
)
def test_a_cost_written_in_parentheses_is_computed_as_the_amount_spent(tool, operation, rows, columns, first):
    statement = run(tool, operation, rows, columns)
    assert statement.startswith(first)
    assert "written (" in statement


def test_a_cost_row_that_may_go_either_way_keeps_its_sign(tool):
    statement = run(tool, "change", ["Other expense (income)"], ["2019", "2018"])
    assert statement.startswith("-17 = -12 − 5")
    assert "written" not in statement


def test_a_sum_of_a_cost_and_an_income_keeps_the_signs(tool):
    statement = run(tool, "sum", ["Interest expense", "EBITDA"], ["2019"])
    assert statement.startswith("-278,634 = (-279,059) + 425")


def test_an_either_way_row_asked_in_its_other_direction_states_that_amount(tool):
    (info,) = tool.catalog.tables.values()
    args = ComputeTable.Args(
        table=info.name, operation="value", label_column="Item", rows=["Net income (loss)"], columns=["2019"],
        as_named="loss",
    )  # fmt: skip
    statement = tool.run(args).statement
    assert statement.startswith("6,557: Net income (loss), 2019") and "written (6,557)" in statement


def test_the_direction_is_the_engine_s_alone_not_offered_to_the_model(tool):
    assert "as_named" not in ComputeTable.Args.model_json_schema()["properties"]
