"""The span of years a column of payments due covers, and the span a question asks."""

import math

import pytest

from engine.grounding import Evidence, check_answer
from engine.grounding.periods_due import span_due, within


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Up to 1 year", (0, 1)),
        ("Less than 1 year", (0, 1)),
        ("Payments due by period · 1 to 3 years", (1, 3)),
        ("1-3 years", (1, 3)),
        ("More than 5 years", (5, math.inf)),
        ("What are the obligations that are between 1 to 3 years?", (1, 3)),
        ("What are the purchase obligations due within five years?", (0, 5)),
        ("Total", None),
        ("2021-2022", None),  # years, not a span due
        ("over how many years will 5 years of costs be amortized?", None),  # a duration is no span due
    ],
)
def test_spans_due_are_read_from_columns_and_questions(text, span):
    assert span_due(text) == span


def test_a_span_lies_within_another():
    assert within((1, 3), (0, 5)) and not within((5, math.inf), (0, 5))


OBLIGATIONS = (
    "|  | Up to 1 year | 1 to 3 years | 3 to 5 years | More than 5 years | Total |\n|---|---|---|---|---|---|\n"
    "| Operating lease obligations | 16,164 | 19,812 | 6,551 | 5,883 | 48,410 |\n"
    "| Financing obligations | 2,956 | 5,912 | — | — | 8,868 |"
)


def test_a_cell_due_over_another_span_than_the_one_asked_is_unsupported():
    evidence = [Evidence(n=1, tool="search_docs", text=OBLIGATIONS, source="report.md")]
    question = "What are the respective values of the operating lease and financing obligations between 1 to 3 years?"
    assert check_answer("19,812; 5,912", question, evidence).unsupported == []
    assert check_answer("16,164; 2,956", question, evidence).unsupported == ["16,164", "2,956"]
    within_five = "What is the total operating lease obligations that are due within 5 years?"
    assert check_answer("6,551", within_five, evidence).unsupported == ["6,551"]
    assert check_answer("42,527 = 16,164 + 19,812 + 6,551", within_five, evidence).unsupported == []
