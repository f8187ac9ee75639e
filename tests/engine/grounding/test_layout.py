"""Where each evidence figure sits: table cells with their row, column, period and scale;
sentence figures with the years of their clause."""

import pytest

from engine.grounding.evidence_layout import evidence_places
from engine.grounding.layout import spaced_years, years_in

REPORT = """Notes to the accounts (in millions)
 | Year ended June 30, |
 | 2019 | 2018
 | $M | $M
Revenue: |  |
Software | 1,950 | (1,538)
Hardware | — | 12.5%
 | 1,950 | 1,550"""


def cells(text, computed=True):
    return [p for p in evidence_places(0, text, computed) if p.kind == "cell"]


def test_cells_carry_row_column_period_scale_and_sign():
    software, software_2018 = cells(REPORT)[:2]
    assert (software.label, software.column_name(), software.years) == ("Software", "2019", frozenset({"2019"}))
    assert software.column == "Year ended June 30, 2019 $M"  # the header lines joined per column, merged cell filled
    assert (software.value, software.scale, software.absolute) == (1950.0, 10**6, 1.95e9)
    assert (software_2018.value, software_2018.text) == (-1538.0, "(1,538)")
    assert "revenu" in software.words and "revenu" not in software.label_words  # the section row "Revenue:"


def test_dash_is_zero_percent_kept_and_an_unlabelled_row_is_a_total():
    by_text = {(p.label, p.text): p for p in cells(REPORT)}
    assert by_text[("Hardware", "—")].value == 0.0
    assert by_text[("Hardware", "12.5%")].percent is True
    total = [p for p in cells(REPORT) if p.label == ""]
    assert [p.value for p in total] == [1950.0, 1550.0] and all(p.total for p in total)
    assert not by_text[("Software", "1,950")].total


def test_csv_and_markdown_tables_are_read_as_cells():
    csv = "region,2019,2018\nFrance,1303,1250\nBenelux,980,1,020"
    france = [p for p in cells(csv, computed=False) if p.label == "France"]
    assert [(p.value, p.column) for p in france] == [(1303.0, "2019"), (1250.0, "2018")]
    markdown = "| Item | 2019 |\n|---|---|\n| Rent | 1,200 |"
    (rent,) = cells(markdown, computed=False)
    assert (rent.label, rent.column, rent.value) == ("Rent", "2019", 1200.0)


def test_sentence_figures_are_dated_by_their_clause_and_days_are_no_figures():
    text = "Bonuses totalled €7 million (2017/18: €16 million) at December 31, 2019."
    places = evidence_places(0, text, False)
    assert [(p.text, sorted(p.years)) for p in places] == [
        ("7 million", []),  # its clause names no year ("December 31" is a date, not a figure)
        ("16 million", ["2017", "2018"]),
    ]
    assert places[0].scale == 10**6


def test_fiscal_years_name_both_calendar_years():
    assert years_in("in financial year 2018/19 and FY2020") == {"2018", "2019", "2020"}
    assert years_in("1,2019 units") == frozenset()


def test_a_year_a_pdf_wrote_with_spaced_digits_is_that_year_and_a_curly_thousands_mark_is_a_scale():
    assert years_in("| | 2019 | 2 0 1 8 |") == {"2019", "2018"}
    assert years_in("1 2 3 4 and 2 0 1") == frozenset()
    table = "| | 30 June 2019 | 30 June 2018 |\n|---|---|---|\n| | $’000 | $’000 |\n| Net profit | (9,819) | 6,639 |"
    profit = next(p for p in cells(table, computed=False) if p.label == "Net profit")
    assert (profit.value, profit.scale, profit.years) == (-9819.0, 10**3, frozenset({"2019"}))


def test_accented_words_are_found_in_the_evidence():
    from engine.grounding import Evidence, check_answer

    table = "Catégorie | 2019 | 2018\nDépenses de personnel | 2 816 | 2 725\nÉlectricité | 120 | 95"
    evidence = [Evidence(n=1, tool="query_table", text=table, source="tableau.csv", computed=True)]
    question = "Quelle est la variation des dépenses de personnel entre 2018 et 2019 ?"
    report = check_answer("91", question, evidence, language="fr")
    assert report.grounding == "verified"
    assert report.citations[0].derivation == "91 = 2 816 − 2 725 (tableau.csv, Dépenses de personnel, 2019 et 2018)"


@pytest.mark.parametrize(
    ("text", "spaced"),
    [
        ("for 2017,2018 and 2019?", "for 2017, 2018 and 2019?"),
        ("in 2019,2018,2017.", "in 2019, 2018, 2017."),
        ("2,017,000 shares", "2,017,000 shares"),  # a number, its groups of three digits
        ("12,2019.5", "12,2019.5"),
        ("2017,20180", "2017,20180"),
    ],
)
def test_years_listed_without_spaces_are_spaced(text, spaced):
    assert spaced_years(text) == spaced
