"""What the engine asks before it can plan a table question: a value no table holds, or
a question several of the theme's tables could answer."""

import pytest

from engine.tools.tables import TableCatalog
from engine.tools.tables.clarify import clarification, revised
from engine.tools.tables.question_plan import plan

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
