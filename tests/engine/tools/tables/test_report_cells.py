"""Cells of report tables as reports write them, and the unit phrases around them."""

import pytest

from engine.tools.tables.report_cells import currency_in, is_period_header, is_unit_only, read_cell, scale_in


@pytest.mark.parametrize(
    "text, value, unit, currency",
    [
        ("$831.7", 831.7, "", "$"),
        ("1,571.7", 1571.7, "", ""),
        ("(3.1)", -3.1, "", ""),
        ("$(20,597)", -20597.0, "", "$"),
        ("$ (3.5)", -3.5, "", "$"),
        ("$  104,053", 104053.0, "", "$"),
        ("(60)%", -60.0, "%", ""),
        ("(5.0%)", -5.0, "%", ""),
        ("27 %", 27.0, "%", ""),
        ("(0.1) pts", -0.1, "pts", ""),
        ("-34.8", -34.8, "", ""),
        ("−3.2", -3.2, "", ""),
        ("€ 2,173", 2173.0, "", "€"),
        ("S$8.7", 8.7, "", "S$"),
        ("1.2x", 1.2, "x", ""),
        ("94th", 94.0, "th", ""),
        ("$1,234 (a)", 1234.0, "", "$"),  # a footnote mark is not part of the figure
        ("48.105", 48.105, "", ""),  # a lone point before three digits is a decimal point here
        ("$1,025,659(1)", 1025659.0, "", "$"),  # a footnote number glued to the figure
        ("(−152)", -152.0, "", ""),  # brackets round a figure with its own sign do not negate it again
        ("(1)", -1.0, "", ""),
        ("2.15 years", 2.15, "years", ""),  # an assumptions table writes each row in its own unit
        ("1.5 months", 1.5, "months", ""),
    ],
)
def test_figures_are_read_with_sign_unit_and_currency(text, value, unit, currency):
    cell = read_cell(text)
    assert (cell.kind, cell.value, cell.unit, cell.currency) == ("number", value, unit, currency)


@pytest.mark.parametrize("text", ["—", "-", "–", "--", "$—", "— %", "nil"])
def test_dashes_are_zero(text):
    assert (read_cell(text).kind, read_cell(text).value) == ("zero", 0.0)


@pytest.mark.parametrize(
    "text, kind",
    [("n/a", "na"), ("NM", "na"), ("", "empty"), ("Annual plan", "text"), ("1 year", "text"), ("3-5 years", "text")],
)  # "1 year", "3-5 years": a maturity table's column heads, not figures
def test_cells_without_a_figure_have_no_value(text, kind):
    assert (read_cell(text).kind, read_cell(text).value) == (kind, None)


def test_continental_tables_read_points_as_thousands():
    assert read_cell("1.234,5", continental=True).value == 1234.5
    assert read_cell("48.105", continental=True).value == 48105.0


@pytest.mark.parametrize(
    "text, scale, currency",
    [
        ("(In thousands)", "thousand", ""),
        ("$M", "million", "$"),
        ("in millions", "million", ""),
        ("(in thousands of $)", "thousand", "$"),
        ("€ million", "million", "€"),
        ("$'000", "thousand", "$"),
        ("£m", "million", "£"),
        ("(Dollars in Millions)", "million", "$"),
        ("$ in billions", "billion", "$"),
        ("%", "percent", ""),
    ],
)
def test_unit_phrases_give_scale_and_currency(text, scale, currency):
    assert (scale_in(text), currency_in(text), is_unit_only(text)) == (scale, currency, True)


def test_words_that_are_not_units_have_no_scale():
    assert [scale_in(t) for t in ("Change", "Amount", "Total", "Mmm good")] == ["", "", "", ""]
    assert not is_unit_only("Revenue")


@pytest.mark.parametrize("text, period", [("2019", True), ("FY18", True), ("May 26, 2019", True),
                                          ("2019 (1)", True), ("1,950", False), ("Revenue", False)])  # fmt: skip
def test_period_headers(text, period):
    assert is_period_header(text) is period
