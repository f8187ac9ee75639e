"""Figures found in answers: EN and FR formats, kinds, normalised values, what is not a figure."""

import pytest

from engine.grounding.figures import extract_figures, fmt, number_readings


def figures(text):
    return [(f.text, f.kind, f.value) for f in extract_figures(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It rose 4,7 % this year", ("4,7 %", "percent", "4.7%")),
        ("It rose 4.7% this year", ("4.7%", "percent", "4.7%")),
        ("up 7.4 percent", ("7.4 percent", "percent", "7.4%")),
        ("une hausse de 7,9 pour cent", ("7,9 pour cent", "percent", "7.9%")),
        ("It costs €1,250.50 now", ("€1,250.50", "amount", "1250.5 EUR")),
        ("Il coûte 1 250,50 € HT", ("1 250,50 €", "amount", "1250.5 EUR")),
        ("Il coûte 1.250,50 €", ("1.250,50 €", "amount", "1250.5 EUR")),
        ("a cap of 160 euros per night", ("160 euros", "amount", "160 EUR")),
        ("$3.5bn raised", ("$3.5bn", "amount", "3500000000 USD")),
        ("paid USD 400 today", ("USD 400", "amount", "400 USD")),
        ("revenue of 48.2 million euros", ("48.2 million euros", "amount", "48200000 EUR")),
        ("un objectif de 52 millions d'euros", ("52 millions d'euros", "amount", "52000000 EUR")),
        ("budget 1,2 M€", ("1,2 M€", "amount", "1200000 EUR")),
        ("£75 per head", ("£75", "amount", "75 GBP")),
        ("20 000 people", ("20 000", "number", "20000")),
        ("20\u202f000 people", ("20\u202f000", "number", "20000")),
        ("20\u00a0000 people", ("20\u00a0000", "number", "20000")),
        ("20,000 people", ("20,000", "number", "20000")),
        ("20.000 personnes", ("20.000", "number", "20000")),
        ("a ratio of 1,5 here", ("1,5", "number", "1.5")),
        ("1,500 orders", ("1,500", "number", "1500")),
        ("in 2025 only", ("2025", "number", "2025")),
        ("paid on 12 March 2025", ("12 March 2025", "date", "2025-03-12")),
        ("payé le 12 mars 2025", ("12 mars 2025", "date", "2025-03-12")),
        ("payé le 1er janvier 2026", ("1er janvier 2026", "date", "2026-01-01")),
        ("paid on March 12, 2025", ("March 12, 2025", "date", "2025-03-12")),
        ("paid on 2025-03-12", ("2025-03-12", "date", "2025-03-12")),
        ("paid on 13/03/2025", ("13/03/2025", "date", "2025-03-13")),
        ("closed in March 2025", ("March 2025", "date", "2025-03")),
        ("within 3 days", ("3 days", "duration", "3 day")),
        ("pendant 2 jours", ("2 jours", "duration", "2 day")),
        ("in 45 min", ("45 min", "duration", "45 minute")),
        ("sous 5 jours ouvrés", ("5 jours ouvrés", "duration", "5 business day")),
        ("for 3 years", ("3 years", "duration", "3 year")),
    ],
)
def test_one_figure_found_and_normalised(text, expected):
    assert figures(text) == [expected]


def test_offsets_point_at_the_figure_as_written():
    answer = "Costs were €1,250.50 and 4,7 % more."
    for f in extract_figures(answer):
        assert answer[f.start : f.end] == f.text


def test_ambiguous_thousands_keep_both_readings():
    (figure,) = extract_figures("1,500 units")
    assert [r.value for r in figure.readings] == [1500.0, 1.5]
    assert number_readings("1,5") == [("1.5", 1)]
    assert number_readings("1,250,000") == [("1250000", 0)]
    assert number_readings("12.345,67") == [("12345.67", 2)]


def test_ambiguous_numeric_date_keeps_both_readings():
    (figure,) = extract_figures("due 03/12/2025")
    assert figure.kind == "date"
    assert set(figure.dates) == {"2025-12-03", "2025-03-12"}


def test_rounding_tolerance_follows_the_written_precision():
    one, two = extract_figures("33.33% and 391")
    assert one.readings[0].tolerance == pytest.approx(0.005)
    assert two.readings[0].tolerance == pytest.approx(0.5)


@pytest.mark.parametrize(
    "text",
    [
        "1. First point\n2. Second point\n3) Third point",
        "As said [1] and [^2] and ⁽³⁾.",
        "See sales_2025.csv and travel/policy-2024.md",
        "At https://example.com/reports/2025/q3",
        "Version v1.2.3 of Q3 and H1",
        "The fourth one.",
    ],
)
def test_not_figures(text):
    assert figures(text) == []


def test_list_marker_skipped_but_figures_on_the_line_kept():
    assert figures("1. Revenue was 48 units\n2. Margin 38.6%") == [
        ("48", "number", "48"),
        ("38.6%", "percent", "38.6%"),
    ]


def test_range_and_arithmetic_give_each_number():
    assert [f.value for f in extract_figures("2024-2025: 17 * 23 = 391")] == ["2024", "2025", "17", "23", "391"]


def test_three_may_be_is_not_a_date():
    assert figures("3 may be enough") == [("3", "number", "3")]


def test_fmt_has_no_exponent_or_trailing_zeros():
    from decimal import Decimal

    assert fmt(Decimal("2E+4")) == "20000"
    assert fmt(Decimal("65.50")) == "65.5"
    assert fmt(Decimal("391.0")) == "391"


def test_the_end_of_a_fiscal_year_is_no_figure():
    assert figures("In 2018/19 it rose 5%") == [("2018", "number", "2018"), ("5%", "percent", "5%")]


def test_a_fiscal_year_is_read_as_its_year():
    assert [(f.text, f.value) for f in extract_figures("In FY19, FY 2018 and fy2017: 5")] == [
        ("FY19", "2019"), ("2018", "2018"), ("fy2017", "2017"), ("5", "5"),
    ]  # fmt: skip


def test_a_date_across_a_two_line_header_is_one_date():
    """ "Year Ended December 31, · 2019": the day of the header's date is no figure to check."""
    found = extract_figures("0 thousand: Loss from discontinued operations, Year Ended December 31, · 2019")
    assert [(f.text, f.kind) for f in found][-1] == ("December 31, · 2019", "date")
    assert "31" not in [f.text for f in found]


def test_a_currency_code_written_against_the_figure_is_its_unit():
    found = extract_figures("approximately USD500 million (equivalent to approximately RMB3,550 million), INR 70.07")
    assert [(f.text, f.value) for f in found] == [
        ("USD500 million", "500000000 USD"),
        ("RMB3,550 million", "3550000000 RMB"),
        ("INR 70.07", "70.07 INR"),
    ]
    assert extract_figures("product ABCD500") == []  # four letters: no currency code, no figure


def test_a_figure_glued_to_its_currency_code_in_the_evidence_supports_the_answer():
    from engine.grounding.match import check_answer
    from engine.grounding.models import Evidence

    text = "an investment in a retail company of approximately USD500 million (about RMB3,550 million)."
    evidence = [Evidence(n=1, tool="search_docs", source="r.md", text=text)]
    question = "How much was invested into the retail company?"
    assert check_answer("approximately USD500 million", question, evidence).grounding == "verified"
    assert check_answer("RMB3,550 million", question, evidence).grounding == "verified"
    assert check_answer("USD560 million", question, evidence).unsupported == ["USD560 million"]


def test_a_month_name_does_not_open_a_figure_so_a_wrong_day_is_still_checked():
    from engine.grounding.match import check_answer
    from engine.grounding.models import Evidence

    evidence = [Evidence(n=1, tool="search_docs", source="r.md", text="Trading commenced on March 29, 1988.")]
    assert check_answer("March 29, 1988", "When did trading commence?", evidence).grounding == "verified"
    assert check_answer("March 32, 1988", "When did trading commence?", evidence).unsupported == ["32"]


def test_a_lists_item_numbers_are_no_figures():
    from engine.grounding.figures import scan_numbers

    assert scan_numbers("consulting services, as follows: 1.\nhealth and benefits advises clients") == []
    assert scan_numbers("- 2.\n3. Retirement specializes in actuarial services") == []
    assert [v for v, *_ in scan_numbers("Headcount: 12. Revenue was 5. See Note 1. A ratio of 1.5 here")] == [
        12.0,
        5.0,
        1.0,
        1.5,
    ]
