"""The engine plans the table computation a question asks for (for a small model),
with the real embedding model: the thresholds are calibrated on it."""

import pytest

from engine.grounding.answer_kinds import aggregate_asked
from engine.tools.tables import TableCatalog
from engine.tools.tables.question_plan import plan
from engine.tools.tables.table_shape import label_column

SHIPMENTS = "month,warehouse,pallets_shipped,late_deliveries\n" + "\n".join(
    f"2025-0{m},{w},{1000 + 10 * m + i},{m + i}"
    for m in range(1, 7)
    for i, w in enumerate(["Lyon", "Rotterdam", "Gdansk"])
)
BUDGET = "department,budget_eur,headcount\nOperations,2480000,212\nFleet,1365000,97\nIT,618500,18\n"
REVENUE = 'Segment,2019,2018\nSoftware,"1,950","1,538"\nHardware,800,700\nTotal revenue,"2,750","2,238"\n'


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables")
    (folder / "shipments_2025.csv").write_text(SHIPMENTS, encoding="utf-8")
    (folder / "budget_2026.csv").write_text(BUDGET, encoding="utf-8")
    return TableCatalog.from_paths([folder])


@pytest.fixture(scope="module")
def encode():
    from engine.context import EngineContext

    return EngineContext().embed


@pytest.mark.parametrize(
    ("question", "op"),
    [
        ("What is the total number of pallets?", "sum"),
        ("Quel est le budget total de tous les départements ?", "sum"),
        ("Which warehouse shipped the most pallets?", "max"),
        ("Quelle est la moyenne des retards ?", "mean"),
        ("How many pallets did Lyon ship in March?", None),
    ],
)
def test_operation(question, op):
    assert aggregate_asked(question) == op


def test_a_total_for_one_value_is_a_filtered_sum(catalog, encode):
    planned = plan("What is the total number of pallets shipped by the Gdansk warehouse?", catalog, encode)
    assert planned.args == {
        "table": "shipments_2025", "operation": "sum", "columns": ["pallets_shipped"],
        "filters": [{"column": "warehouse", "value": "Gdansk"}],
    }  # fmt: skip


def test_a_month_named_is_a_filter_on_the_dated_column(catalog, encode):
    planned = plan("How many pallets did Lyon ship in March?", catalog, encode)
    assert planned.args["filters"] == [{"column": "warehouse", "value": "Lyon"}, {"column": "month", "month": 3}]
    assert not planned.ignores_period


def test_a_french_question_finds_the_english_column(catalog, encode):
    planned = plan("Quel est le nombre moyen de livraisons en retard ?", catalog, encode)
    assert planned.args["columns"] == ["late_deliveries"] and planned.args["operation"] == "mean"


def test_a_named_value_without_an_aggregate_is_its_cell(catalog, encode):
    planned = plan("What is the 2026 budget of the IT department?", catalog, encode)
    assert planned.args == {
        "table": "budget_2026", "operation": "value", "label_column": "department", "rows": ["IT"],
        "columns": ["budget_eur"],
    }  # fmt: skip
    assert not planned.ignores_period  # 2026 is the file's own year


def test_a_french_row_is_found_by_meaning(tmp_path, encode):
    (tmp_path / "revenue.csv").write_text(REVENUE, encoding="utf-8")
    planned = plan(
        "Quel était le chiffre d'affaires des logiciels en 2019 ?", TableCatalog.from_paths([tmp_path]), encode
    )
    assert planned.args["rows"] == ["Software"] and planned.args["columns"] == ["2019"]


def test_a_short_value_must_stand_as_written(catalog, encode):
    """ "it" in a sentence is not the IT department."""
    assert plan("Is it raining in Paris today?", catalog, encode) is None


@pytest.mark.parametrize(
    "question",
    [
        "Who is the head of the Fleet department?",
        "What is the dress code?",
        "What is the minimum length of a password?",  # "minimum", but no column is about passwords
        "How many employees work at the Lyon warehouse?",  # a value named, but no column about employees
        "Over how many years will the total fleet budget be amortized?",  # about text, not a sum
    ],
)
def test_a_question_no_table_answers_plans_nothing(catalog, encode, question):
    assert plan(question, catalog, encode) is None


def test_a_period_the_table_cannot_filter_on_is_said(catalog, encode):
    """A month the budget table cannot filter on is reported, so the answer says it is not verified."""
    planned = plan("What is the total budget of all departments in March?", catalog, encode)
    assert planned.args["table"] == "budget_2026" and planned.ignores_period
    assert not plan("What is the total number of pallets shipped by Gdansk?", catalog, encode).ignores_period
    assert not plan("Quel est le budget 2026 total de tous les départements ?", catalog, encode).ignores_period


def test_a_column_of_figures_kept_as_text_names_no_rows(tmp_path, encode):
    """A CSV of a report's table whose years the loader read as numbers and whose "$17,430.8" it kept as text:
    the text column holds figures, not row labels, and no sum of the years is planned."""
    (tmp_path / "yields.csv").write_text(
        '(Dollars in millions),Average Investments,Pre-tax Yield\n2015,"$17,430.8",2.72%\n2014,"16,831.9",3.15%\n'
        '2013,"16,472.5",3.33%\n',
        encoding="utf-8",
    )
    catalog = TableCatalog.from_paths([tmp_path])
    info = next(iter(catalog.tables.values()))
    assert label_column(info, catalog) is None
    assert plan("What is the total value of average investments in billions?", catalog, encode) is None
    # labels written as years are labels: a report's table of payments by year keeps its year column
    folder = tmp_path / "report"
    folder.mkdir()
    (folder / "payments.md").write_text(
        "| Payment date | Amount per share |\n|---|---|\n| 2015 | $1.14 |\n| 2016 | $1.16 |\n| 2017 | $1.49 |\n",
        "utf-8",
    )
    payments = TableCatalog.from_paths([folder])
    assert label_column(next(iter(payments.tables.values())), payments).name == "Payment date"
