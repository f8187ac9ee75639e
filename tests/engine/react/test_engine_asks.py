"""A small model's run starts with the engine's own question when the tables cannot
answer as asked; the analyst's click resumes it to an answer from the table."""

import pytest

from engine.react.parser import parse_blocks
from engine.react.types import ReActType
from engine.tools.base import ToolRegistry
from engine.tools.toolkits import general_toolkit
from tests.helpers import make_engine, run

SALES = "quarter,region,product,revenue_eur\nQ1,France,Pipettes,1000\nQ1,Benelux,Pipettes,700\nQ2,France,Pipettes,400\n"


@pytest.fixture
def tables(tmp_path):
    from engine.tools.tables import TableCatalog, table_toolkit

    (tmp_path / "sales_2025.csv").write_text(SALES, encoding="utf-8")
    catalog = TableCatalog.from_paths([tmp_path])
    return ToolRegistry(general_toolkit() + table_toolkit([tmp_path], small_model=True, catalog=catalog))


def small_engine(script, tables, **config):
    engine = make_engine(script, tools=tables, **config)
    engine.llm.abilities = engine.llm.abilities.model_copy(update={"small": True})
    return engine


def test_a_value_no_table_holds_suspends_the_run_with_the_values_as_choices(tables):
    engine = small_engine(["Answer: 999."], tables)
    text = run(engine, "What was the revenue in Germany in Q1?")
    assert engine.result.status == "suspended"
    suspended = engine.result.suspended
    assert suspended.choices == ["Benelux", "France"] and "Germany" in suspended.question
    assert engine.llm.calls == []  # the engine asked before the model wrote anything
    assert "ask_user" in text and not [b for b in parse_blocks(text) if b.type is ReActType.ANSWER]

    resumed = small_engine(["Thought: I can answer now.\nAnswer: The revenue was 999."], tables)
    resumed.resume(suspended, "France")
    assert resumed.result.status == "answered"
    assert "€1,000" in resumed.result.answer and "region = France" in resumed.result.answer  # from the table
    assert "999" not in resumed.result.answer
    assert not resumed.result.grounding.unsupported


def test_a_question_the_tables_can_answer_is_not_asked(tables):
    engine = small_engine(["Answer: 1,000."], tables)
    run(engine, "What was the revenue in France in Q1?")
    assert engine.result.status == "answered" and "1,000" in engine.result.answer


def test_a_large_model_is_not_asked_for(tables):
    engine = make_engine(["Answer: I do not know."], tools=tables)
    run(engine, "What was the revenue in Germany in Q1?")
    assert engine.result.status == "answered"  # a large model picks its tools, ask_user included
