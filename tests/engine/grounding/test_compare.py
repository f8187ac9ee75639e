"""A "which year … largest?" answer must be the year of the row's extreme cell."""

import pytest

from engine.grounding import Evidence, check_answer
from engine.grounding.compare import condition_asked, extreme_asked

SHARES = """ | 2019 | 2018
Weighted average number of shares | 74.3 | 73.4
Other reserves | 80 | 90"""


def table(text, n=1):
    return Evidence(n=n, tool="query_table", text=text, source="table.csv", computed=True)


@pytest.mark.parametrize(
    "question, extreme",
    [
        ("In which year was the weighted average number of shares largest?", "max"),
        ("In which year were the provisions larger?", "max"),
        ("Which year had the lowest revenue?", "min"),
        ("En quelle année les provisions sont-elles les plus faibles ?", "min"),
        ("What was the revenue in 2019?", None),
        ("Which year is larger or smaller?", None),  # both: no one extreme asked
        ("In which year was the net loss less -10,000?", None),  # a threshold, not an extreme
        ("In which year was revenue higher than $5 million?", None),
        ("Which year recorded a longer life expectancy at age 65?", "max"),  # a number of the row's name
    ],
)
def test_the_extreme_asked(question, extreme):
    assert extreme_asked(question) == extreme


def test_the_year_of_the_rows_largest_cell_is_verified_and_cited():
    report = check_answer("2019", "In which year was the weighted average number of shares largest?", [table(SHARES)])
    assert report.grounding == "verified"
    assert "Weighted average number of shares | 74.3 | 73.4" in report.citations[0].quote


def test_another_year_is_flagged_with_the_rows_extreme():
    question = "In which year was the weighted average number of shares largest?"
    report = check_answer("2018", question, [table(SHARES)])
    assert report.unsupported == ["2018"]
    assert report.notes == ["2018 is not the year Weighted average number of shares is largest: 2019 (74.3)"]


def test_the_smallest_is_compared_too_and_written_in_french():
    question = (
        "En quelle année le nombre moyen pondéré d'actions (weighted average number of shares) est-il le plus faible ?"
    )
    assert check_answer("2018", question, [table(SHARES)], language="fr").unsupported == []
    report = check_answer("2019", question, [table(SHARES)], language="fr")
    assert report.notes == [
        "2019 n'est pas l'année où Weighted average number of shares est le plus faible : 2018 (73.4)"
    ]


LOSSES = """ | 2019 | 2018
Loss for the year | (1,204) | (873)
Revenue | 5,100 | 4,800"""


def test_a_greater_loss_written_negative_is_the_larger_figure():
    question = "In which year is there a greater loss for the year?"
    assert check_answer("2019", question, [table(LOSSES)]).unsupported == []
    report = check_answer("2018", question, [table(LOSSES)])
    assert report.unsupported == ["2018"]
    assert check_answer("2019", "In which year was revenue greater?", [table(LOSSES)]).unsupported == []


FISCAL = """ | 2017/2018 | 2018/2019
Wages and salaries | 2,173 | 2,264
Personnel expenses | 2,725 | 2,816"""


def test_fiscal_years_over_two_calendar_years_are_compared_as_periods():
    question = "In which year was the amount of personnel expenses larger?"
    assert check_answer("2018/2019", question, [table(FISCAL)]).grounding == "verified"
    wrong = check_answer("2017/2019", question, [table(FISCAL)])
    assert wrong.unsupported == ["2017", "2019"]  # no period of the table, though 2019 ends the larger one
    assert check_answer("2019", question, [table(FISCAL)]).grounding == "verified"  # fiscal 2019 is 2018/2019
    # "2018" is of 2017/2018 (the smaller) as much as of 2018/2019: it does not name the larger
    assert check_answer("2018", question, [table(FISCAL)]).unsupported == ["2018"]
    smaller = "In which year was the amount of personnel expenses smaller?"
    assert check_answer("2018", smaller, [table(FISCAL)]).unsupported == ["2018"]


def test_a_period_the_evidence_never_names_is_unsupported():
    unlabelled = FISCAL.replace("Personnel expenses", "")  # the total row has no label: no winner is known
    question = "In which year was the amount of personnel expenses larger?"
    assert check_answer("2017/2019", question, [table(unlabelled)]).unsupported == ["2017", "2019"]
    named = check_answer("2018/19", question, [table(unlabelled)])  # a period the evidence names, but no winner
    assert named.unsupported == ["2018"] and "is not checked" in named.notes[0]


def test_a_fiscal_year_written_fy19_is_the_year_2019():
    employees = " | FY19 | FY18 | Change\nTotal employee expenditure | 370.1 | 361.9 | 2%"
    question = "In which year was Total employee expenditure larger?"
    for right in ("FY19", "2019", "FY2019"):
        assert check_answer(right, question, [table(employees)]).grounding == "verified", right
    wrong = check_answer("FY18", question, [table(employees)])
    assert wrong.notes == ["FY18 is not the year Total employee expenditure is largest: 2019 (370.1)"]


SALES = """ | Years ended December 31, | | | 2019 vs 2018 | 2018 vs 2017
 | 2019 | 2018 | 2017 | % Change | % Change
Sales and marketing | $ 472,841 | $ 350,069 | $ 225,694 | 35.1 % | 55.1 %"""


def test_the_years_a_which_year_question_names_are_checked_not_taken_as_given():
    question = "Between year ended 2018 and 2019, which year had a higher sales and marketing expense?"
    assert check_answer("2019", question, [table(SALES)]).grounding == "verified"
    assert check_answer("2018", question, [table(SALES)]).unsupported == ["2018"]  # named by the question, still wrong
    earlier = "Between year ended 2017 and 2018, which year had a higher sales and marketing expense?"
    assert check_answer("2018", earlier, [table(SALES)]).grounding == "verified"  # of the two years asked


def test_a_date_over_its_block_of_rows_gives_them_its_year():
    dated = """ | Level 1 | Total Fair Value
June 30, 2019 | |
Money market funds | $81,945 | $81,945
June 30, 2018 | |
Money market funds | $14,918 | $14,918"""
    question = "Between 2018 and 2019 year end, which year has a higher total fair value of money market funds?"
    assert check_answer("2019", question, [table(dated)]).grounding == "verified"
    assert check_answer("2018", question, [table(dated)]).notes == [
        "2018 is not the year Money market funds is largest: 2019 (81,945)"
    ]
    asked = "What is the total fair value of money market funds as at June 30, 2019?"
    assert check_answer("$14,918", asked, [table(dated)]).unsupported == ["$14,918"]


def test_a_bare_total_row_is_about_the_rows_it_totals():
    loans = """ | 2018 | 2019
Loans due from subsidiaries - non-current portion | 46,698 | 45,377
Loans due from subsidiaries - current portion | 2,064 | 2,123
Total | 48,762 | 47,500"""
    question = "Which year had the higher Total loans due from subsidiaries?"
    assert check_answer("2018", question, [table(loans)]).grounding == "verified"
    assert check_answer("2019", question, [table(loans)]).notes == [
        "2019 is not the year Total is largest: 2018 (48,762)"
    ]


def test_a_fiscal_year_header_with_a_footnote_mark_is_its_year():
    cash = " | FY19 | FY181\nNet cash flow from operating activities | 142.9 | 147.7"
    question = "In which year was the Net cash flow from operating activities larger?"
    assert check_answer("FY18", question, [table(cash)]).grounding == "verified"
    assert check_answer("FY19", question, [table(cash)]).unsupported == ["FY19"]


def test_a_year_in_parentheses_cites_the_cells_and_is_no_answer():
    """The engine's statement names both years it compared, in its citation."""
    loans = " | 2019 | 2018\nTotal | 45,377 | 48,762"
    question = "Which year had the higher Total loans due from subsidiaries?"
    right = check_answer(
        "2018, 48,762: highest Total by column (table.csv, Total, 2019 and 2018)", question, [table(loans)]
    )
    assert right.grounding == "verified" and right.notes == []
    wrong = check_answer(
        "2019, 45,377: highest Total by column (table.csv, Total, 2019 and 2018)", question, [table(loans)]
    )
    assert wrong.unsupported == ["2019"]  # the answer's year, not the cited one


def test_a_year_with_no_row_to_compare_is_not_vouched_for_by_being_in_the_evidence():
    # No row is about "the unearned amount": 2019 stands in the header, which says nothing of which year is larger.
    question = "In which year was the unearned amount larger?"
    report = check_answer("2019", question, [table(SHARES)])
    assert report.unsupported == ["2019"] and report.miscomputed == ["2019"]  # not "held by no document"
    assert report.notes == ["2019 is not checked: no row of the evidence gives each year of what the question compares"]
    french = check_answer("2019", "En quelle année le montant non acquis est-il le plus élevé ?", [table(SHARES)],
                          language="fr")  # fmt: skip
    assert french.notes == [
        "2019 n'est pas vérifié : aucune ligne des éléments ne donne chaque année de ce que la question compare"
    ]


def test_a_year_named_by_the_question_is_checked_all_the_same():
    question = "Between 2018 and 2019, which year had a larger weighted average number of shares?"
    assert check_answer("2019", question, [table(SHARES)]).unsupported == []
    assert check_answer("2018", question, [table(SHARES)]).unsupported == ["2018"]


def test_a_condition_with_no_row_to_read_is_not_vouched_for():
    report = check_answer("2018", "In which year was the unearned amount less than 80?", [table(SHARES)])
    assert report.unsupported == ["2018"]


def test_longer_and_negative_are_read_as_an_extreme_and_a_condition():
    assert extreme_asked("Which year recorded a longer average lease term?") == "max"
    assert extreme_asked("In which year was the average duration shortest?") == "min"
    taxes = " | 2019 | 2018\nProvision for (benefit from) income taxes | (1,450) | 2,310"
    question = "In which year was Provision for (benefit from) income taxes negative?"
    assert check_answer("2019", question, [table(taxes)]).unsupported == []
    wrong = check_answer("2018", question, [table(taxes)])
    assert wrong.unsupported == ["2018"] and "below 0" in wrong.notes[0]


DEFERRED_INCOME = """25. Deferred income

| | 2019 | 2018 |
|---|---|---|
| Current | 53.2 | 55.2 |
| Non-current | 13.6 | 14.4 |
| | 66.8 | 69.6 |
"""


def passage(text):
    return Evidence(n=1, tool="search_docs", text=text, source="report.md", rank=0)


def test_a_row_without_a_label_is_about_the_title_over_its_table():
    question = "In which year was the deferred income larger?"
    assert check_answer("2018", question, [passage(DEFERRED_INCOME)]).grounding == "verified"
    assert check_answer("2019", question, [passage(DEFERRED_INCOME)]).notes == [
        "2019 is not the year the total is largest: 2018 (69.6)"
    ]
    # a row the question names is still its row, the unlabelled total beside it
    assert (
        check_answer("-2", "What was the change in Current deferred income?", [passage(DEFERRED_INCOME)]).grounding
        == "verified"
    )


def test_a_long_paragraph_over_a_table_is_no_title():
    text = DEFERRED_INCOME.replace(
        "25. Deferred income", "The deferred income balances " + "relate to revenue " * 10 + "."
    )
    assert check_answer("2018", "In which year was the deferred income larger?", [passage(text)]).unsupported == [
        "2018"
    ]


RECONCILIATION = """| | Bonds | Bank loans |
|---|---|---|
| Group - 2018 | S$ Mil | S$ Mil |
| As at 1 April 2017 | 8,726.6 | 2,306.3 |
| Financing cash flows | (506.2) | 222.6 |
| As at 31 March 2018 | 7,884.9 | 2,501.7 |
"""


def test_the_years_a_table_covers_are_those_of_its_header_not_of_a_row_label():
    question = "Which year does the information in the table relate to?"
    assert check_answer("2018", question, [passage(RECONCILIATION)]).grounding == "verified"
    wrong = check_answer("2017", question, [passage(RECONCILIATION)])  # "As at 1 April 2017" is a row's label
    assert wrong.unsupported == ["2017"] and wrong.notes == ["2017 is not a year the table's header gives: 2018"]
    french = check_answer("2017", "Quelle année couvre ce tableau ?", [passage(RECONCILIATION)], language="fr")
    assert french.notes == ["2017 n'est pas une année que donne l'en-tête du tableau : 2018"]
    shares = "Which years does the table provide information for the weighted average number of shares?"
    assert check_answer("2019; 2018", shares, [table(SHARES)]).grounding == "verified"
    assert check_answer("2019; 2017", shares, [table(SHARES)]).unsupported == ["2017"]


LIABILITIES = """For the years ended December 31, 2017, 2018 and 2019

| | As of December 31, | |
|---|---|---|
| | 2018 | 2019 |
| Ship management creditors | 268 | 328 |
| Amounts due to related parties | 169 | 200 |
"""


def test_in_which_years_was_x_recorded_asks_the_years_of_the_table_not_of_a_sentence_over_it():
    question = "In which years was the current liabilities recorded for?"
    assert check_answer("2018; 2019", question, [passage(LIABILITIES)]).grounding == "verified"
    wrong = check_answer("2017; 2019", question, [passage(LIABILITIES)])  # 2017 is only in the sentence above
    assert wrong.unsupported == ["2017"]
    # one year "recorded" may ask when an event was: a year a sentence gives stands
    event = "In which year was the impairment recorded?"
    assert (
        check_answer("2017", event, [passage("An impairment was recorded in 2017.\n\n" + LIABILITIES)]).grounding
        == "verified"
    )


def test_an_age_band_a_row_is_named_for_is_no_threshold():
    ageing = " | 2019 | 2018\n0 to 1 month overdue | 5,139 | 2,935\nOver 2 months overdue | 2,756 | 2,680"
    question = "Which year had a greater Over 2 months overdue past due but not impaired receivables?"
    assert extreme_asked(question) == "max"
    assert check_answer("2018", question, [table(ageing)]).unsupported == ["2018"]
    assert check_answer("2019", question, [table(ageing)]).unsupported == []


def test_the_extreme_of_a_computation_is_not_the_extreme_of_a_row():
    eps = " | 2018 | 2019\nBasic net earnings per share | 3.00 | 6.66\nDiluted net earnings per share | 2.96 | 6.58"
    question = "Which year had the lowest percentage difference in basic and diluted net earnings per share?"
    report = check_answer("2018", question, [table(eps)])  # the diluted row is lowest in 2018; the gap is not
    assert report.unsupported == ["2018"] and "not checked" in report.notes[0]


def test_a_threshold_with_its_scale_word_is_read_in_the_tables_unit():
    from engine.grounding.compare import condition_in

    millions = condition_in("how many segments were above $50 million")
    assert (millions.threshold, millions.scale) == (50.0, 10**6)
    assert millions.in_scale("thousand") == {"comparison": ">", "threshold": 50_000.0}  # a table in thousands
    assert millions.in_scale("million")["threshold"] == 50.0
    assert millions.in_scale("")["threshold"] == 50.0  # a table stating no unit: the question's words
    plain = condition_in("in which years was it less than 10,000")
    assert (plain.threshold, plain.scale) == (10_000.0, 1) and plain.in_scale("thousand")["threshold"] == 10_000.0
    assert condition_in("exceed 2 milliards").scale == 10**9 and condition_in("plus de 5 milliers").scale == 10**3


UNRECOGNIZED = """| | Year Ended December 31, | | |
|---|---|---|---|
| | 2019 | 2018 | 2017 |
| Unrecognized tax benefit - beginning balance | $8,217 | $7,527 | $6,447 |
| Unrecognized tax benefit - ending balance | $8,840 | $8,217 | $7,527 |"""


def test_which_of_the_years_asks_the_years_that_meet_the_condition():
    question = "Which of the years had unrecognized tax benefit - ending balance of greater than $8,200 thousand?"
    assert condition_asked(question) is not None
    assert check_answer("2018; 2019", question, [table(UNRECOGNIZED)]).grounding == "verified"
    wrong = check_answer("2017; 2019", question, [table(UNRECOGNIZED)])
    assert wrong.unsupported == ["2017"] and "above 8,200" in wrong.notes[0]


def test_in_which_period_asks_when_so_the_year_must_be_the_sentences():
    said = (
        "During 2019, Teekay Tankers' ship-to-ship transfer business provided operational and maintenance services "
        "to Teekay LNG Bahrain. During 2018, Teekay Parent chartered in two LNG carriers from Teekay LNG."
    )
    question = "In which period did Teekay Tankers' ship-to-ship transfer provided operational and maintenance services to Teekay LNG Bahrain?"
    assert check_answer("During 2019", question, [passage(said)]).grounding == "verified"
    assert check_answer("During 2018", question, [passage(said)]).unsupported == ["2018"]


EMISSIONS = """| | 2019 | 2018 |
|---|---|---|
| | Tonnes of CO2e | Tonnes of CO2e |
| Combustion of fuel and operation of facilities (Scope 1) | 144.7 | 137.2 |
| Electricity, heat, steam and cooling purchased for own use (Scope 2) | 4,641.0 | 4,950.4 |
| Total emissions | 4,785.7 | 5,087.6 |"""


def test_the_number_of_a_name_tells_its_row_apart_and_is_no_threshold():
    """ "Scope 1" is the row named "(Scope 1)", not "(Scope 2)" nor the total, and its 1 is no threshold."""
    question = "In which year were the Scope 1 emissions larger?"
    assert extreme_asked(question) == "max"
    assert check_answer("2019", question, [table(EMISSIONS)]).grounding == "verified"
    wrong = check_answer("2018", question, [table(EMISSIONS)])
    assert wrong.unsupported == ["2018"] and "(Scope 1) is largest: 2019" in wrong.notes[0]


ESPP_MD = """|  |  | For the Year Ended |  |
|---|---|---|---|
| VMware Employee Stock Purchase Plan | January 31, 2020 | February 1, 2019 | February 2, 2018 |
| Expected volatility | 27.4% | 33.5% | 22.6% |
| Expected term (in years) | 0.6 | 0.8 | 0.9 |"""
# the same table read as a plain CSV: its dates are a row of text, its columns unnamed
ESPP_CSV = """| Unnamed: 0 | Unnamed: 1 | For the Year Ended | Unnamed: 3 |
|---|---|---|---|
| VMware Employee Stock Purchase Plan | January 31, 2020 | February 1, 2019 | February 2, 2018 |
| Expected term (in years) | 0.6 | 0.8 | 0.9 |"""


def test_a_condition_is_read_in_the_copy_of_the_row_that_has_its_years():
    """The row the question names best may be a copy with no years (a CSV of the report's table):
    the same row in the report's table gives the years to compare."""
    evidence = [
        Evidence(n=1, tool="search_docs", text=ESPP_CSV, source="table.csv"),
        Evidence(n=2, tool="search_docs", text=ESPP_MD, source="report.md"),
    ]
    question = "Which years did expected term exceed 0.5 years?"
    assert check_answer("2020; 2019; 2018", question, evidence).grounding == "verified"
    assert check_answer("2020; 2019", "Which years did expected term exceed 0.7 years?", evidence).unsupported == [
        "2020"
    ]


VALUATIONS = (
    "|  | External valuation % | Internal valuation % |\n|---|---|---|\n| Year ended 30 June 2019 |  |  |\n"
    "| Leasehold | 23% | 77% |\n| Freehold | 38% | 62% |\n| Year ended 30 June 2018 |  |  |\n"
    "| Leasehold | 60% | 40% |\n| Freehold | 27% | 73% |"
)
# the same table in a search chunk that lost its first dating row: its first block has no year
VALUATIONS_CUT = VALUATIONS.replace("| Year ended 30 June 2019 |  |  |\n", "")


def test_a_copy_of_the_row_is_read_in_the_column_the_question_names():
    evidence = [
        Evidence(n=1, tool="search_docs", text=VALUATIONS_CUT, source="report.md"),
        Evidence(n=2, tool="search_docs", text=VALUATIONS, source="report.md"),
    ]
    question = "In which year was the external valuation % for leasehold less than 50%?"
    assert check_answer("2019", question, evidence).unsupported == []
    wrong = check_answer("2018", question, evidence)
    assert wrong.unsupported == ["2018"] and wrong.notes == ["2018 is not a year Leasehold is below 50: 2019 (23%)"]
