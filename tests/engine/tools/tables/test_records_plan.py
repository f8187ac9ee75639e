"""The plan for a table of records: the measure, the filters the question names, the group of a
"which …", and no plan when no filter narrows a cell asked (words only: a fake embedding model
finds every name as far)."""

import pytest

from engine.tools.tables import TableCatalog
from engine.tools.tables.label_match import Semantic
from engine.tools.tables.question_reading import read_question
from engine.tools.tables.records_plan import group_column, records_args
from tests.engine.tools.tables.test_question_plan_answers import FakeEncode

SALES = "date,region,product,revenue_eur\n" + "\n".join(
    f"2025-0{m}-1{d},{region},Pipettes,{100 * m + d}"
    for m in (1, 2, 3)
    for d, region in enumerate(["Export", "France"])
)


@pytest.fixture
def sales(tmp_path):
    (tmp_path / "sales_2025.csv").write_text(SALES, encoding="utf-8")
    catalog = TableCatalog.from_paths([tmp_path])
    info, _ = catalog.table("sales_2025")
    return info, Semantic(catalog, FakeEncode())


def args_of(question: str, sales):
    info, sem = sales
    return records_args(question, read_question(question), info, sem)


def test_a_month_and_a_value_named_are_filters_on_their_columns(sales):
    args, unmet = args_of("What was the total revenue of France in March?", sales)
    assert args["operation"] == "sum" and args["columns"] == ["revenue_eur"]
    assert args["filters"] == [{"column": "region", "value": "France"}, {"column": "date", "month": 3}]
    assert not unmet


def test_which_region_groups_by_the_region_column(sales):
    info, sem = sales
    assert group_column("region", info, sem).name == "region"
    args, _ = args_of("Which region had the highest revenue?", sales)
    assert args["group_by"] == "region" and args["operation"] == "max"


def test_one_value_no_filter_narrows_is_not_planned(sales):
    """ "What is the revenue?" of six sales names no row: adding them up answers another question."""
    assert args_of("What is the revenue?", sales) is None
    assert args_of("What is the revenue of France in March?", sales) is not None


def test_the_whole_column_of_a_report_read_as_records_is_no_average(tmp_path):
    """Labels written twice (one block of rows a year) make a report read as records: its column holds Total rows
    among its items, so "the average accumulated amortization" of the whole column is not planned."""
    report = (
        "|  | Gross | Accumulated Amortization |\n|---|---|---|\n| June 30, 2019 | | |\n| Customers | 1,597 | (498) |\n"
        "| Other | 3 | (1) |\n| Total | 1,600 | (499) |\n| June 30, 2018 | | |\n| Customers | 1,590 | (405) |\n"
        "| Other | 2 | (1) |\n| Total | 1,592 | (406) |\n"
    )
    (tmp_path / "report.md").write_text(report, encoding="utf-8")
    catalog = TableCatalog.from_paths([tmp_path])
    info, _ = catalog.table(catalog.names()[0])
    question = "What is the average accumulated amortization?"
    assert info.total_column is not None
    assert records_args(question, read_question(question), info, Semantic(catalog, FakeEncode())) is None
