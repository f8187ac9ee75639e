"""Rows named by a question and the direction it asks of them (engine/tools/tables/label_match.py)."""

import pytest

from engine.tools.tables.label_match import asked_direction


@pytest.mark.parametrize(
    ("question", "rows", "direction"),
    [
        ("What was the net loss in 2016?", ["Net income (loss)"], "loss"),
        ("What was the income tax benefit in 2019?", ["Income tax (benefit) expense"], "benefit"),
        ("What was the net income in 2016?", ["Net income (loss)"], None),  # the row's own direction
        ("What was the net income or loss in 2016?", ["Net income (loss)"], None),  # both asked
        ("What was the net loss in 2016?", ["Net loss"], None),  # no either-way row
        ("What was the decrease in cash?", ["Net increase (decrease) in cash"], "decrease"),
    ],
)
def test_the_direction_a_question_asks_of_an_either_way_row(question, rows, direction):
    assert asked_direction(question, rows) == direction
