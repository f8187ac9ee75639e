"""What the engine asks before it can plan a table question: a value no table holds, or
a question several of the theme's tables could answer."""

import pytest

from engine.tools.tables import TableCatalog
from engine.tools.tables.clarify import clarification, revised
from engine.tools.tables.question_plan import plan, plans

STOCK = """date,warehouse,item,units,revenue
2025-01-15,Rotterdam,Pipettes,10,120
2025-02-10,Leeds,Microscopes,2,80
"""


@pytest.fixture(scope="module")
def encode():
    from engine.context import EngineContext

    return EngineContext().embed


def test_a_value_the_table_does_not_hold_is_asked_with_the_values_it_holds(sales_csv, encode):
    catalog = TableCatalog.from_paths([sales_csv.parent])
    question = "What was the total revenue in Germany?"
    assert plan(question, catalog) is None  # nothing is computed for a region the table does not hold
    asked = clarification(question, catalog, encode)
    assert asked is not None and asked.kind == "value" and asked.unknown == "Germany"
    assert asked.choices == ["Benelux", "France", "United Kingdom"]  # the regions, not the products
    assert "region" in asked.question and "Germany" in asked.question
    again = revised(question, asked, "France")
    assert again == "What was the total revenue in France?"
    assert plan(again, catalog).args["filters"] == [{"column": "region", "value": "France"}]
    assert clarification(again, catalog, encode) is None


def test_without_an_embedding_model_a_name_that_fits_two_columns_is_not_guessed(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv.parent])
    assert clarification("What was the total revenue in Germany?", catalog) is None  # region or product: unsaid


def test_the_question_is_asked_in_french(sales_csv, encode):
    catalog = TableCatalog.from_paths([sales_csv.parent])
    asked = clarification("Quel est le revenue total en Allemagne ?", catalog, encode, language="fr")
    assert asked is not None and asked.question.startswith("Aucune valeur « Allemagne »")


def test_a_plannable_question_and_a_document_question_ask_nothing(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv.parent])
    assert clarification("What was the total revenue in France?", catalog) is None
    assert clarification("Who approves restatements?", catalog) is None


def test_two_files_that_both_fit_are_asked_between_and_a_named_one_is_not(sales_csv, write_csv):
    write_csv("stock_2025.csv", STOCK)
    catalog = TableCatalog.from_paths([sales_csv.parent])
    question = "What was the total revenue?"
    asked = clarification(question, catalog)
    assert asked is not None and asked.kind == "table"
    assert sorted(asked.choices) == ["sales_2025.csv", "stock_2025.csv"]
    again = revised(question, asked, "stock_2025.csv")
    assert clarification(again, catalog) is None
    assert plan(again, catalog).table == "stock_2025"
    assert clarification("What was the total revenue in the sales 2025 table?", catalog) is None


def test_two_copies_of_one_table_that_give_the_same_answer_are_not_asked_between(tmp_path):
    """A report's table and the CSV exported from it: whichever is meant, the sum is one."""
    report = "| | 2019 | 2018 |\n|---|---|---|\n| Wireless | 9,142 | 8,818 |\n| Wireline | 12,356 | 12,400 |\n"
    (tmp_path / "report.md").write_text(report, encoding="utf-8")
    (tmp_path / "table.csv").write_text(
        "Segment,2019,2018\nWireless,9142,8818\nWireline,12356,12400\n", encoding="utf-8"
    )
    catalog = TableCatalog.from_paths([tmp_path])
    assert len({p.table for p in plans("What is the total of Wireless revenues in 2018 and 2019?", catalog)}) == 2
    assert clarification("What is the total of Wireless revenues in 2018 and 2019?", catalog) is None
    (tmp_path / "table.csv").write_text(
        "Segment,2019,2018\nWireless,9000,8000\nWireline,12356,12400\n", encoding="utf-8"
    )
    differing = TableCatalog.from_paths([tmp_path])
    asked = clarification("What is the total of Wireless revenues in 2018 and 2019?", differing)
    assert asked is not None and asked.kind == "table"


def test_a_copy_whose_columns_do_not_name_the_year_asked_is_no_choice(tmp_path):
    """The CSV copy of a report's table with its years in a row, not its header: the
    report's table meets the year asked, the copy could only give a cell of no year."""
    report = "| | 2019 | 2018 |\n|---|---|---|\n| Total energy consumption (MWh) | 205,092.26 | 167,488.48 |\n"
    (tmp_path / "report.md").write_text(report, encoding="utf-8")
    (tmp_path / "table.csv").write_text(
        "2.1 Office Buildings,,\nIndicators,For the year ended 31 December,\n,2019,2018\n"
        'Total energy consumption (MWh),"205,092.26","167,488.48"\n',
        encoding="utf-8",
    )
    catalog = TableCatalog.from_paths([tmp_path])
    question = "How much was the total energy consumption (MWh) for year ended 31 December 2019?"
    found = plans(question, catalog)
    assert len({p.table for p in found}) == 2 and any(p.ignores_period for p in found)
    assert clarification(question, catalog) is None
