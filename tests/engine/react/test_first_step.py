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


def test_a_document_question_is_searched_and_a_computation_computed():
    registry = ToolRegistry(general_toolkit())
    assert reads_as_document_question("How long are backups kept?")
    step = engine_step("Combien font 48 × 27 ?", registry)
    assert [(c.name, c.args) for c in step.calls] == [("calculator", {"expression": "48 * 27"})]
    assert step.number == 0 and not step.unsure
    assert engine_step("How long are backups kept?", registry) is None  # no search_docs offered, no table: nothing
