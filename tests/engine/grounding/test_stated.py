"""Derivations an answer writes out ("0.07 = $0.34 − $0.28"): evaluated without eval, compared
with the stated result at its precision, a false one flagged with the expression's real value,
a true one with traced operands vouched with its derivation."""

import pytest

from engine.grounding import Evidence, check_answer
from engine.grounding.stated import stated_derivations

EPS = """ | 2019 | 2018
Basic earnings per share | $0.34 | $0.28
Diluted earnings per share | $0.33 | $0.27"""

REVENUE = """(In millions) | 2019 | 2018
Revenue | $1,271 | $276
Cost of sales | 6,332 | 6,059
Gross margin % | 32.0% | 31.8%"""


def table(text, n=1):
    return Evidence(n=n, tool="query_table", text=text, source="table.csv", computed=True)


@pytest.mark.parametrize(
    "answer, holds, actual",
    [
        ("0.06 = $0.34 − $0.28", True, 0.06),
        ("The change is 0.07 = $0.34 − $0.28.", False, 0.06),
        ("360.51% = (($1,271 − $276) / $276) × 100", True, 360.507),
        ("360.51% = ($1,271 − $276) / $276", True, 360.507),  # a percent without × 100
        ("273 million = 6,332 − 6,059", True, 273.0),
        ("6,332 − 6,059 = 273", True, 273.0),  # the result on the right
        ("-0.2% = ((1,568.6 − 1,571.7) / 1,571.7) × 100", True, 0.197),  # signs compared as magnitudes
        ("0.2% = (32.0% − 31.8%) × 100", True, 0.2),  # percentages read as hundredths
        ("3,977 thousand = ($4,905 + $3,049) / 2", True, 3977.0),
        ("1.15 = 277.3 / 270.3", False, 1.026),
        ("-43 million = -114 − (71)", True, 43.0),  # a lone figure in parentheses is a negative one
        ("-185 million = -114 − (71)", True, 185.0),  # or grouped
        ("-48 million = -114 − (71)", False, 43.0),
        ("16.93% = (10.4 / 61.4) × 100", True, 16.938),  # the digits written cut from the actual's
        ("16.92% = (10.4 / 61.4) × 100", False, 16.938),
        ("0.05 = $0.34 − $0.28", False, 0.06),
        ("31.3 = (766,801 × 40.85) / 1,000,000", True, 31.324),
    ],
)
def test_the_stated_expression_is_evaluated_at_the_results_precision(answer, holds, actual):
    [stated] = stated_derivations(answer)
    assert stated.holds is holds
    assert stated.actual == pytest.approx(actual, abs=1e-3)


@pytest.mark.parametrize(
    "answer",
    [
        "Revenue was $1,271 million in 2019.",
        "x = 3",
        "2019 = 2019",
        "1,568.6; 690.5",
        "a = b + c",
        "(1 + ) = 2",
        "0,07 = 0.34 − 0.28",  # a decimal comma is not read as "07"
    ],
)
def test_text_without_arithmetic_states_no_derivation(answer):
    assert stated_derivations(answer) == []


def test_a_division_by_zero_states_no_derivation():
    assert stated_derivations("5 = 3 / (2 − 2)") == []


def test_a_true_derivation_with_traced_operands_is_verified():
    report = check_answer(
        "0.06 = $0.34 − $0.28",
        "What was the change in basic earnings per share from 2018 to 2019?",
        [table(EPS)],
    )
    assert report.grounding == "verified"
    assert report.unsupported == []
    result = next(f for f in report.figures if f.text == "0.06")
    citation = report.citations[result.citation - 1]
    assert citation.derivation == "0.06 = $0.34 − $0.28"
    assert "Basic earnings per share" in citation.quote


def test_a_percentage_change_with_times_100_is_verified_without_tracing_the_100():
    report = check_answer(
        "360.51% = (($1,271 − $276) / $276) × 100",
        "What was the percentage change in revenue from 2018 to 2019?",
        [table(REVENUE)],
    )
    assert report.grounding == "verified"
    assert [f.text for f in report.figures] == ["360.51%", "$1,271", "$276", "$276"]


def test_a_zero_operand_a_dash_cell_needs_no_trace():
    rows = " | 2019 | 2018\nDeferred compensation | — | 3,810"
    report = check_answer(
        "1,905 = (0 + 3,810) / 2", "What was the average Deferred compensation for 2018 and 2019?", [table(rows)]
    )
    assert report.unsupported == []
    assert report.grounding == "verified"


def test_a_false_derivation_is_flagged_with_the_expressions_value():
    report = check_answer(
        "The change is 0.07 = $0.34 − $0.28.",
        "What was the change in basic earnings per share from 2018 to 2019?",
        [table(EPS)],
    )
    assert report.grounding == "partly"
    assert report.unsupported == ["0.07"]
    assert report.miscomputed == ["0.07"]
    assert report.notes == ["0.07 does not follow from $0.34 − $0.28, which is 0.060"]


def test_a_false_derivation_is_flagged_even_when_its_result_is_in_the_evidence():
    report = check_answer(
        "0.27 = $0.34 − $0.28",  # 0.27 is a cell of the table, not the difference
        "What was the change in basic earnings per share from 2018 to 2019?",
        [table(EPS)],
    )
    assert report.unsupported == ["0.27"]


def test_a_true_derivation_from_untraced_operands_is_not_vouched():
    report = check_answer(
        "0.10 = $0.38 − $0.28",  # 0.38 is in no evidence
        "What was the change in basic earnings per share from 2018 to 2019?",
        [table(EPS)],
    )
    assert report.grounding != "verified"
    assert "$0.38" in report.unsupported


def test_the_note_is_written_in_french():
    report = check_answer(
        "0.07 = 0.34 − 0.28",
        "Quelle est la variation du bénéfice de base par action entre 2018 et 2019 ?",
        [table(EPS)],
        language="fr",
    )
    assert report.notes == ["0.07 ne découle pas de 0.34 − 0.28, qui vaut 0.060"]


def test_square_brackets_group_as_parentheses():
    bookings = " | 2019 | 2018 | 2017\nTotal bookings (in millions) | $3,401.2 | $3,011.5 | $2,618.2"
    evidence = [Evidence(n=1, tool="query_table", text=bookings, source="table.csv", computed=True)]
    question = "What is the change in the average total bookings between 2017-2018, and 2018-2019?"
    right = "391.5 million = [(3,401.2 + 3,011.5) / 2] - [(3,011.5 + 2,618.2) / 2]"
    assert check_answer(right, question, evidence).grounding == "verified"
    wrong = check_answer(right.replace("391.5", "438.5", 1), question, evidence)
    assert wrong.notes == [
        "438.5 million does not follow from [(3,401.2 + 3,011.5) / 2] - [(3,011.5 + 2,618.2) / 2], which is 391.50"
    ]


def test_a_unit_conversion_constant_needs_no_trace():
    evidence = [Evidence(n=1, tool="search_docs", text="It redeemed $690 million of its 8.75% notes.", source="r.md")]
    question = "What is the annual interest cost saved by redeeming the 8.75% notes?"
    report = check_answer("60,375,000 = 690 × 1,000,000 × 8.75%", question, evidence)
    assert report.grounding == "verified" and report.unsupported == []


def test_a_sign_written_as_a_product_by_minus_one_needs_no_trace():
    table = "| | |\n|---|---|\n| Non-Tower Cash Flow, 2005 | $(30,584) |\n| Adjusted Consolidated Cash Flow, 2005 | $531,822 |"
    evidence = [Evidence(n=1, tool="search_docs", text=table, source="report.md")]
    question = "what portion of the adjusted consolidated cash flow in 2005 is related to non-tower cash flow?"
    assert check_answer("-5.8% = (30584 × -1) / 531822", question, evidence).grounding == "verified"
    assert check_answer("-5.8% = (30584 × -2) / 531822", question, evidence).unsupported[:1] == ["2"]
