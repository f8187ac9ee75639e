"""The step the engine makes itself before a small model's first call."""

import pytest

from engine.react.first_step import computation_in, engine_step, reads_as_document_question
from engine.tools.base import ToolRegistry
from engine.tools.toolkits import general_toolkit


@pytest.mark.parametrize(
    ("question", "expression"),
    [
        ("What is 17% of 2,340?", "17 / 100 * 2340"),
        ("Combien font 48 × 27 ?", "48 * 27"),
        ("Shipping one pallet costs EUR 38.50. How much do 120 pallets cost?", "38.50 * 120"),
        ("Un billet coûte 12,50 €. Combien coûtent 8 billets ?", "12.50 * 8"),
        ("What is the hotel cap per night in Paris?", None),
        ("A pallet costs EUR 38.50. How many pallets did Lyon ship?", None),  # no quantity of pallets to price
    ],
)
def test_computation_in(question, expression):
    assert computation_in(question) == expression


@pytest.mark.parametrize(
    "question",
    [
        "What was the percentage change in total product revenue between 2018 and 2019?",
        "How many times did revenue exceed 1,000 between 2017 and 2019?",
        "What was the change in personnel expenses in 2018/2019 from 2017/2018?",
        "Which customers gave revenues in excess of 10% of total revenues in 2018 and 2019?",
        "What was the difference in cumulative total return compared to the S&P 500 for the period ending 12/16?",
        "What was the cumulative total return for the five year period ending 12/31/13?",
    ],
)
def test_a_report_question_with_two_figures_and_an_operators_word_is_still_about_the_documents(question):
    """ "product revenue", "how many times", a fiscal year "2018/2019", "10% of total
    revenues" and a date ("ending 12/16") name no arithmetic between the figures: the engine
    plans or searches."""
    assert computation_in(question) is None


def test_a_document_question_is_searched_and_a_computation_computed():
    registry = ToolRegistry(general_toolkit())
    assert reads_as_document_question("How long are backups kept?")
    step = engine_step("Combien font 48 × 27 ?", registry)
    assert [(c.name, c.args) for c in step.calls] == [("calculator", {"expression": "48 * 27"})]
    assert step.number == 0 and not step.unsure
    assert engine_step("How long are backups kept?", registry) is None  # no search_docs offered, no table: nothing


REVENUE = 'Segment,2019,2018\nSoftware,"1,950","1,538"\nHardware,800,700\nTotal revenue,"2,750","2,238"\n'


@pytest.fixture
def table_registry(tmp_path):
    from engine.tools.tables import TableCatalog, table_toolkit

    (tmp_path / "revenue.csv").write_text(REVENUE, encoding="utf-8")
    catalog = TableCatalog.from_paths([tmp_path])
    return ToolRegistry(general_toolkit() + table_toolkit([tmp_path], small_model=True, catalog=catalog))


def test_a_table_question_starts_with_the_planned_computation(table_registry):
    step = engine_step("What was the change in Software revenue from 2018 to 2019?", table_registry)
    call = step.calls[0]
    assert call.name == "compute_table" and not step.unsure
    assert call.args == {
        "table": "revenue", "operation": "change", "label_column": "Segment", "rows": ["Software"],
        "columns": ["2019", "2018"],
    }  # fmt: skip
    result = table_registry.get("compute_table").run(table_registry.get("compute_table").Args(**call.args))
    assert result.statement.startswith("412 = 1,950 − 1,538: change in Software, 2018 to 2019 (revenue.csv")


def test_a_period_the_plan_leaves_out_makes_the_step_unsure(table_registry):
    step = engine_step("What was the ratio of Software to Hardware revenue in March 2019?", table_registry)
    assert step.calls[0].name == "compute_table" and step.unsure


def test_a_text_question_plans_no_table_computation(table_registry):
    assert engine_step("Over how many years will the software be amortized?", table_registry) is None
