"""Derived figures checked against the rows and sentences about the question's subject and
period, with the answer's rounding, scale words and sign conventions.

The fixtures are written here, in the shapes of annual-report extracts (a table rendered
by a table tool, with a header over several lines, units in a corner cell, parentheses for
negatives, "—" for zero, a Total row; and the paragraphs around it)."""

import pytest

from engine.grounding import Evidence, check_answer
from engine.grounding.derive import operation_named, preferred_ops, reversed_ratio
from engine.grounding.evidence_index import EvidenceIndex
from engine.grounding.layout import Place
from engine.grounding.stems import word_sequence

SEGMENTS = """Revenue by segment:
 | Year ended December 31, |
 | 2019 | 2018
Software | 1,950 | 1,538
Services | 350 | 412
Other | 44.1 | 56.7
Total | 2,344.1 | 2,006.7"""

THOUSANDS = """(In thousands) | 2019 | 2018
Services | 1,450 | 250
Deferred compensation | — | 3,810
Other income (expense) | (3.1) | 2.4
Gross margin % | 30.8% | 38.4%"""

SHARES = """ | 2019 | 2018
Million shares |  |
Weighted average number of shares | 74.3 | 73.4
Weighted average number of shares outstanding | 74.0 | 73.1"""

COSTS = """ | 2019 | 2018
Restructuring costs | $8,455 | $10,647
Costs of closed restaurants | 4,000 | 7,771
 | $12,455 | $18,418"""

PASSAGE = (
    "Revenue from the licensing business was $5.2 million in 2019 and $4.0 million in 2018. "
    "In 2017, the licensing business had revenue of $3.3 million."
)


def table(text, n=1):
    return Evidence(n=n, tool="query_table", text=text, source="table.csv", computed=True)


def passage(text, n=2, location="Licensing"):
    return Evidence(n=n, tool="search_docs", text=text, source="report.md", location=location)


def check(answer, question, *evidence, language="en"):
    return check_answer(answer, question, list(evidence), language=language)


@pytest.mark.parametrize(
    "question, answer, derivation",
    [
        (
            "What was the change in Software revenue from 2018 to 2019?",
            "Software revenue rose by 412.",
            "412 = 1,950 − 1,538 (table.csv, Software, 2019 and 2018)",
        ),
        (
            "What was the sum of Software and Services revenue in 2019?",
            "2,300",
            "2,300 = 1,950 + 350 (table.csv, Software, 2019; Services, 2019)",
        ),
        (
            "What was the average Software revenue for 2018 and 2019?",
            "1,744",
            "1,744 = (1,950 + 1,538) / 2 (table.csv, Software, 2019 and 2018)",
        ),
        (
            "What is the ratio of Software to Services revenue in 2019?",
            "5.57",
            "5.57 = 1,950 / 350 (table.csv, Software, 2019; Services, 2019)",
        ),
        (
            "What was the percentage change in Software revenue from 2018 to 2019?",
            "26.79%",
            "26.79% = (1,950 − 1,538) / 1,538 × 100 (table.csv, Software, 2019 and 2018)",
        ),
        (
            "What percentage of total revenue was Software in 2019?",
            "83.19%",
            "83.19% = 1,950 / 2,344.1 × 100 (table.csv, Software, 2019; Total, 2019)",
        ),
    ],
)
def test_each_operation_is_verified_with_its_derivation(question, answer, derivation):
    report = check(answer, question, table(SEGMENTS))
    assert report.grounding == "verified", report
    assert report.unsupported == []
    (citation,) = report.citations
    assert citation.derivation == derivation
    assert "Software | 1,950 | 1,538" in citation.quote  # the operand rows, under their header
    assert citation.evidences == [1]
    assert report.figures[-1].citation == 1


@pytest.mark.parametrize(
    "question, wrong",
    [
        ("What was the change in Software revenue from 2018 to 2019?", "461"),  # 412 x 1.12
        ("What was the average Software revenue for 2018 and 2019?", "1,953"),
        ("What was the percentage change in Software revenue from 2018 to 2019?", "30.0%"),
        ("What percentage of total revenue was Software in 2019?", "93.2%"),
    ],
)
def test_a_figure_twelve_percent_off_is_flagged(question, wrong):
    report = check(f"The answer is {wrong}.", question, table(SEGMENTS))
    assert report.unsupported == [wrong]
    assert report.grounding == "unsupported"
    assert all(c.derivation is None for c in report.citations)


@pytest.mark.parametrize(
    "answer, verified",
    [
        ("26.79%", True),  # two decimals
        ("26.8%", True),  # one decimal: 26.79 rounds to it
        ("27%", True),
        ("26.7%", False),
        ("26.9%", False),
        ("26.81%", False),
    ],
)
def test_rounding_follows_the_answers_precision(answer, verified):
    report = check(answer, "What was the percentage change in Software revenue from 2018 to 2019?", table(SEGMENTS))
    assert (report.grounding == "verified") is verified


@pytest.mark.parametrize(
    "answer, verified",
    [("1.2 million", True), ("$1.2M", True), ("1,200 thousand", True), ("1.3 million", False), ("1.2 billion", False)],
)
def test_scale_words_against_a_table_in_thousands(answer, verified):
    report = check(answer, "What was the change in Services revenue from 2018 to 2019?", table(THOUSANDS))
    assert (report.grounding == "verified") is verified, report


def test_parentheses_are_negatives_and_a_decrease_is_a_negative_change():
    evidence = table(THOUSANDS)
    question = "What was the change in other income (expense) between 2018 and 2019?"
    report = check("Other income fell by 5.5, a decrease of 5.5.", question, evidence)
    assert report.grounding == "verified"
    assert report.citations[0].derivation == ("5.5 = 2.4 − −3.1 (table.csv, Other income (expense), 2018 and 2019)")
    assert check("-0.7", "What was the total other income (expense) of 2018 and 2019?", evidence).grounding == (
        "verified"
    )  # (3.1) + 2.4, signs kept
    assert check("A decrease of 0.7.", question, evidence).unsupported == ["0.7"]  # |2.4 - 3.1| ignores the sign


def test_a_dash_is_zero_and_an_unlabelled_row_is_a_total():
    average = check("1,905", "What was the average deferred compensation for 2018 and 2019?", table(THOUSANDS))
    assert average.grounding == "verified"
    assert (
        average.citations[0].derivation == "1,905 = (— + 3,810) / 2 (table.csv, Deferred compensation, 2019 and 2018)"
    )
    change = check("32.38%", "What is the percentage change of the total costs from 2018 to 2019?", table(COSTS))
    assert change.grounding == "verified"
    assert change.citations[0].derivation.startswith("32.38% = (12,455 − 18,418) / 18,418 × 100")


def test_percentage_points_come_from_percentages_only():
    evidence = table(THOUSANDS)
    report = check("7.6%", "What was the change in gross margin % from 2018 to 2019?", evidence)
    assert report.grounding == "verified"
    assert report.citations[0].derivation == "7.6% = 38.4% − 30.8% (table.csv, Gross margin %, 2018 and 2019)"


def test_only_the_operation_the_question_asks_is_tried():
    question = "What was the change in the weighted average number of shares outstanding from 2018 to 2019?"
    assert preferred_ops(question, ["Weighted average number of shares outstanding"]) == ("difference",)
    assert check("0.9 million", question, table(SHARES)).grounding == "verified"
    # 74.0 / 73.1 = 1.012 would round to 1.01, but a ratio is no change
    assert check("1.01 million", question, table(SHARES)).unsupported == ["1.01 million"]


def test_derivation_from_sentences_names_the_passage():
    question = "What was the change in revenue from the licensing business between 2018 and 2019?"
    report = check("It grew by $1.2 million.", question, passage(PASSAGE))
    assert report.grounding == "verified"
    assert report.citations[0].derivation == "$1.2 million = 5.2 million − 4.0 million (report.md, Licensing)"
    assert report.citations[0].quote.startswith("Revenue from the licensing business was $5.2 million")


def test_the_operands_must_be_about_the_question():
    # 1,950 - 1,538 = 412 = Services 2018: derived from the asked rows it holds, literal in the wrong row it does not
    report = check("412", "What was the change in Software revenue from 2018 to 2019?", table(SEGMENTS))
    assert report.citations[0].derivation is not None
    # Services 2019 + Other 2019 = 394.1; no subject row holds it: flagged
    assert check("394.1", "What was the change in Software revenue from 2018 to 2019?", table(SEGMENTS)).grounding == (
        "unsupported"
    )


def test_a_small_evidence_set_without_subject_still_verifies_a_derivation():
    evidence = [passage("The two offices cost 120 and 80 per night.", location="")]
    assert check("The difference is 40.", "How do they compare?", *evidence).grounding == "verified"


@pytest.mark.parametrize("rows", [40, 400])
def test_a_large_evidence_set_stays_bounded(rows):
    lines = [" | 2019 | 2018"] + [f"Revenue item {i} | {1000 + 7 * i:,} | {900 + 5 * i:,}" for i in range(rows)]
    lines.append("Software | 1,950 | 1,538")
    evidence = [table("\n".join(lines))] + [passage(PASSAGE, n=k) for k in range(2, 12)]
    report = check("412", "What was the change in Software revenue from 2018 to 2019?", *evidence)
    assert report.grounding == "verified"
    assert report.citations[0].derivation == "412 = 1,950 − 1,538 (table.csv, Software, 2019 and 2018)"


def test_index_reused_gives_the_same_report():
    evidence = [table(SEGMENTS), passage(PASSAGE)]
    index = EvidenceIndex(evidence)
    question = "What was the change in Software revenue from 2018 to 2019?"
    first = check_answer("412", question, evidence, index=index)
    assert check_answer("412", question, evidence, index=index) == first == check_answer("412", question, evidence)


def test_the_derivation_is_written_in_the_checks_language():
    question = "Quelle a été la variation du chiffre d'affaires Software entre 2018 et 2019 ?"
    report = check_answer("412", question, [table(SEGMENTS)], language="fr")
    assert report.citations[0].derivation == "412 = 1,950 − 1,538 (table.csv, Software, 2019 et 2018)"


@pytest.mark.parametrize("answer", ["$4,455", "$2.11"])  # 8,455 − 4,000 and 8,455 / 4,000: two rows combined
def test_a_question_asking_no_computation_is_not_answered_by_two_rows_combined(answer):
    report = check(answer, "How much were the costs in 2019?", table(COSTS))
    assert report.unsupported == [answer]


def test_a_question_asking_no_computation_still_accepts_one_rows_change():
    report = check("$2,192", "How much did restructuring costs move?", table(COSTS))  # 10,647 − 8,455
    assert report.grounding == "verified"


CAPEX = """ | 2019 | 2018 | % CHANGE
BCE | 3,988 | 3,971 | (0.4%)
Capital intensity ratio | 16.6% | 16.9% | 0.3 pts"""


def test_percentage_points_are_not_a_percent_change_cell_nor_a_percent_change():
    question = "What is the % change in the capital intensity ratio for BCE?"
    assert check("0.4 pts", question, table(CAPEX)).unsupported == ["0.4"]  # (0.4%) and 3,988 / 3,971: not points
    assert check("0.3 pts", question, table(CAPEX)).grounding == "verified"


def test_a_figure_asked_as_stated_is_not_vouched_for_by_a_sum_of_other_cells():
    """ "What was the balance in 2018?" answered (11.3): 1.9 + 9.4 of two other columns is no support."""
    balances = """ | Securities | Minimum Pension Liability | Foreign Currency
Balance at March 31, 2018 | $1.9 | $(10.1) | $(9.4)"""
    question = "What was the Minimum Pension Liability balance in 2018?"
    assert check("(11.3)", question, table(balances)).grounding != "verified"
    assert check("(10.1)", question, table(balances)).grounding == "verified"
    asked = "How much higher was the securities balance than the foreign currency balance?"
    assert check("11.3", asked, table(balances)).grounding == "verified"  # 1.9 − (−9.4): a comparison asked


AMT = """ | 2019 | 2018
AMT credit | 9.2 | 12.4
Deferred revenue | 4.1 | 3.3"""


def test_which_year_meets_a_condition_is_checked_against_the_row():
    question = "In which year was AMT credit less than 10 thousands?"
    assert check("2019", question, table(AMT)).grounding == "verified"
    wrong = check("2018", question, table(AMT))
    assert wrong.unsupported == ["2018"]
    assert wrong.notes == ["2018 is not a year AMT credit is below 10: 2019 (9.2)"]


def test_a_row_named_for_what_it_computes_keeps_its_derivations():
    growth = """ | 2019 | 2018
Revenue | 1,072 | 1,000
Revenue growth | 7.2% | 5.1%"""
    assert check("7.2%", "What was revenue growth rate in 2019?", table(growth)).grounding == "verified"


NET_SALES = """(Dollars in Millions) | April 28, 2018 | April 29, 2017 | Net Change ($) | Net Change (%)
Net Sales | $ 0.3 | $ 0.2 | $ 0.1 | 50.0 %"""


def test_a_figure_asked_as_stated_is_not_a_sum_of_two_cells():
    # 0.3 + 0.1 = 0.4: "net" names the row, it asks no operation
    assert preferred_ops("What was the net sales in 2018?") == ()
    assert preferred_ops("Accrued interest represented how much of the ending balance?")[0] == "percentage"
    # "as part of" and "in part" name no share: the change asked is the operation
    as_part = (
        "what is the change in fair value of financial market instruments as part of the hedging strategy during 2010?"
    )
    assert preferred_ops(as_part) == ("difference",)
    assert preferred_ops("what part of the revenue came from Europe in 2019?")[0] == "percentage"
    assert check("$ 0.4 million", "What was the net sales in 2018?", table(NET_SALES)).grounding == "unsupported"
    assert check("$ 0.3 million", "What was the net sales in 2018?", table(NET_SALES)).grounding == "verified"


def test_a_change_in_any_tense_asks_a_difference_only():
    question = "How much did Medical segment loss from operations increased in fiscal 2018 compared to fiscal 2017?"
    assert preferred_ops(question) == ("difference",)
    medical = passage(
        "Medical segment loss from operations increased $2.9 million to $11.4 million in fiscal 2018 compared to "
        "$8.5 million in fiscal 2017. Medical segment gross profit was a loss of $3.5 million in fiscal 2018.",
        location="top",
    )
    # (2.9 + 3.5) / 2 = 3.2: an average, which the question does not ask
    assert check("$3.2 million", question, medical).grounding == "unsupported"
    assert check("$2.9 million", question, medical).grounding == "verified"


def test_the_day_of_a_date_supports_no_figure():
    header = Evidence(
        n=1, tool="search_docs", source="report.md", location="top",
        text="Cost of revenues | 31 December 2019 | 31 December 2018\nVAS | 26,120 | 20,330",
    )  # fmt: skip
    question = "What was the percentage increase in cost of VAS revenues between 2018 and 2019?"
    assert check("31%", question, header).grounding == "unsupported"
    assert check("28.5%", question, header).grounding == "verified"  # 26,120 / 20,330 − 1


def test_a_percentage_change_as_points_takes_both_percentages_from_one_sentence():
    costs = passage(
        "As a percentage of revenues, cost of revenues decreased to 56% for the fourth quarter of 2019 from 59% "
        "for the fourth quarter of 2018. Cost of revenues increased by 20% to RMB59,659 million for the fourth "
        "quarter of 2019.",
        location="top",
    )
    question = "What was the percentage increase in cost of revenues between the fourth quarter of 2018 and 2019?"
    assert check("36%", question, costs).grounding == "unsupported"  # 56% − 20%: two measures
    assert check("20%", question, costs).grounding == "verified"
    change = "What was the percentage change in cost of revenues as a percentage of revenues from 2018 to 2019?"
    assert check("3%", change, costs).citations[0].derivation == "3% = 59% − 56% (report.md, top)"


def test_a_period_written_at_the_end_of_its_columns_spans_both():
    prices = (
        "|  |  | Fiscal 2019 |  | Fiscal 2018 |\n|---|---|---|---|---|\n|  | High | Low | High | Low |\n"
        "| First Quarter | $ 83.14 | $ 63.81 | $ 45.24 | $ 37.43 |"
    )
    question = "In the first quarter of 2018, what was the difference between the high and low price per share?"
    report = check("7.81", question, table(prices))
    assert report.citations[0].derivation == "7.81 = 45.24 − 37.43 (table.csv, First Quarter, Fiscal 2018)"
    assert check("19.33", question, table(prices)).grounding == "unsupported"  # 83.14 − 63.81: fiscal 2019


def test_a_sentence_about_another_row_supports_no_figure_of_the_subject():
    revenues = table(" | 2019 | 2018\nVAS | 199,991 | 176,646\nOnline Advertising | 68,377 | 58,079")
    media = passage("Media advertising revenues decreased by 15% to RMB15,480 million.", location="top")
    question = "What was the 2019 year-on-year percentage change in VAS revenues?"
    assert check("15%", question, revenues, media).grounding == "unsupported"
    assert check("13.2%", question, revenues, media).grounding == "verified"  # 199,991 / 176,646 − 1
    vas = passage("VAS revenues increased by 13% to RMB199,991 million.", location="top")
    assert check("13%", question, revenues, vas).grounding == "verified"


def test_a_sentence_the_answer_quotes_supports_its_own_figures():
    revenues = table(" | 2018 | 2017\nResearch and development | 120.2 | 101.1")
    why = passage(
        "The increase was primarily due to a $18.1 million increase in employee-related costs, associated with "
        "our increased headcount from 159 employees as of December 31, 2017 to 229 employees.",
        location="top",
    )
    question = "What caused the increase in research and development expense?"
    answer = (
        "due to a $18.1 million increase in employee-related costs, associated with our increased headcount "
        "from 159 employees as of December 31, 2017 to 229 employees."
    )
    assert check(answer, question, revenues, why).unsupported == []


AMORTIZATION = """(In millions) | 2019 | 2018
Gross carrying amount | 1,494.9 | 1,403.2
Accumulated amortization | (260.8) | (212.1)"""


def test_a_ratio_or_an_average_asked_is_not_one_figure_as_stated():
    """ "The ratio of A to B": A's own figure, stated in the evidence, is no answer; the
    ratio computed from A and B is. A row or sentence naming the computation still states it."""
    question = "What is the ratio of amortization expense to accumulated amortization in fiscal 2019?"
    evidence = (table(AMORTIZATION), passage("Amortization expense was $49.1 million in fiscal 2019."))
    assert check("$49.1 million", question, *evidence).grounding == "unsupported"
    assert check("0.19", question, *evidence).unsupported == []
    stated = passage("The ratio of amortization expense to accumulated amortization was 0.19 in fiscal 2019.")
    assert check("0.19", question, table(AMORTIZATION), stated).grounding not in ("unsupported", "partly")
    average = "What was the average gross carrying amount in 2018 and 2019?"
    assert check("1,494.9", average, table(AMORTIZATION)).grounding == "unsupported"
    assert check("1,449.05", average, table(AMORTIZATION)).unsupported == []


def test_a_change_asked_is_not_one_figure_as_stated():
    """ "The change in X between 2018 and 2019": a cell of X as it stands is a level, not its
    change; the change computed from the two years is, and so is a sentence or column that states a change."""
    purchases = table(
        "Period | Total number of shares purchased\n1/1/2019 to 1/31/2019 | 46,743\n"
        "Fiscal Year 2018 | 217,732\nFiscal Year 2019 | 211,136"
    )
    question = "What is the change in the total number of shares purchased between fiscal years 2018 and 2019?"
    assert check("46,743.", question, purchases).grounding == "unsupported"
    assert check("-6,596 = 211,136 − 217,732", question, purchases).unsupported == []
    stated = passage("The total number of shares purchased decreased by 6,596 in fiscal 2019 compared to fiscal 2018.")
    assert check("6,596", question, purchases, stated).grounding not in ("unsupported", "partly")
    loss = "What is the percentage change in the non controlling interest share of loss from 2018 to 2019?"
    share = passage("The Group recognised 40 per cent of the non-controlling interest losses at 31 December 2019.")
    assert check("40 per cent of the non-controlling interest losses", loss, share).grounding == "unsupported"
    assert (
        check("211,136 in fiscal 2019.", "What changed in fiscal 2019?", purchases).unsupported == []
    )  # no one figure


CURRENCY_TEXT = (
    "The total comprehensive income from currency effects and measurement results from hedging transactions and "
    "hedging relationships totalled €17 million (2017/18: €−14 million). In addition, impairment losses on "
    "financial assets amounting to €2 million (2017/18: €0 million) were recognised in the reporting period."
)


def test_a_total_the_evidence_writes_as_a_name_asks_no_sum():
    question = (
        "What was the total comprehensive income from currency effects and measurement results from hedging "
        "transactions and hedging relationships?"
    )
    assert preferred_ops(question, sentences=[CURRENCY_TEXT.split(". ")[0]]) == ()
    assert "sum" in preferred_ops(question)  # no sentence names it: "total" may ask a sum
    assert check("€17 million", question, passage(CURRENCY_TEXT)).grounding == "verified"
    assert check("€19 million", question, passage(CURRENCY_TEXT)).grounding != "verified"  # not 17 + 2


def test_respectively_dates_each_figure_of_a_sentence_by_its_own_year():
    text = (
        "As a result of these amendments, we recognized a pre-tax curtailment gain of $1.2 million and $1.3 million "
        "as a component of net periodic pension cost during the years ended December 31, 2018 and 2017, respectively."
    )
    question = "What was the pre-tax curtailment gain in 2018?"
    assert check("$1.2 million", question, passage(text)).grounding == "verified"
    assert check("$1.3 million", question, passage(text)).grounding != "verified"  # the gain of 2017


@pytest.mark.parametrize(("answer", "grounding"), [("June 30", "verified"), ("June 34", "unsupported")])
def test_the_day_of_a_date_is_supported_by_that_date_not_by_the_same_number_elsewhere(answer, grounding):
    text = "Our fiscal year ends on June 30. Revenue was $34 million in fiscal 2019, up from $30 million."
    assert check(answer, "When does each fiscal year end?", passage(text)).grounding == grounding


def test_a_rounded_figure_is_within_five_percent_of_what_it_rounds():
    sentence = "Restructuring charges were $0.8 million in 2017, and revenue grew 13.48% in 2018."
    docs = [Evidence(n=1, tool="search_documents", text=sentence, source="report.md")]
    question = "What were the restructuring charges in 2017?"
    assert check_answer("$1", question, docs).unsupported == ["$1"]  # 25% off: no rounding of $0.8 million
    assert check_answer("$0.8 million", question, docs).unsupported == []
    assert check_answer("13.5%", "How much did revenue grow in 2018?", docs).unsupported == []


def test_no_derivation_gives_an_amount_from_percentages():
    customers = (
        "Accounts receivable and long term receivable from Customer B totaled approximately $7.4 million, or 36%, "
        "and approximately $0.2 million, or 3%, of total consolidated accounts receivable as of September 30, "
        "2019 and September 30, 2018, respectively."
    )
    docs = [Evidence(n=1, tool="search_documents", text=customers, source="report.md")]
    question = (
        "What is the total accounts receivable and long term receivable from Customer B as of September 30, 2019?"
    )
    assert check_answer("$8.3 million", question, docs).unsupported == ["$8.3 million"]  # not (3% − 36%) / 36%
    assert check_answer("$7.4 million", question, docs).unsupported == []


def test_a_share_asked_of_a_row_of_percentages_is_no_percentage_change_of_two_rows():
    suppliers = (
        " | 2019 | 2018 | 2017\nInventory purchases: | | |\nSupplier A | 31% | 33% | 34%\nSupplier B | 20% | 16% | 14%"
    )
    question = "How many percent of the total inventory purchases did Supplier A account for in the year 2019?"
    assert check_answer("35%", question, [table(suppliers)]).unsupported == ["35%"]  # not (20% − 31%) / 31%
    assert check_answer("31%", question, [table(suppliers)]).unsupported == []


def test_a_total_asks_a_sum_and_a_total_less_a_part_a_difference():
    assert preferred_ops("How much was the cumulative-effect adjustment to retained earnings?") == ("sum",)
    assert preferred_ops("What was the total revenue excluding services in 2019?") == ("sum", "difference")


def test_the_one_of_a_stated_percentage_change_is_a_constant():
    cells = " | 2019 | 2018\nEarnings allocated to participating securities | 462 | 810"
    question = "What is the percentage increase / (decrease) in the earnings allocated to participating securities from 2018 to 2019?"
    assert check_answer("-42.96% = (462 / 810 − 1) × 100", question, [table(cells)]).unsupported == []


def test_the_one_of_a_reciprocal_is_a_constant_and_its_result_is_still_checked():
    rates = "Currency | FY 2019 | FY 2018\nUSD | 70.07 | 64.49\nGBP | 91.60 | 86.05"
    question = "What is the average INR-GBP exchange rate in FY 2019?"
    assert check_answer("0.01 = 1 / 91.60", question, [table(rates)]).grounding == "verified"
    wrong = check_answer("0.02 = 1 / 91.60", question, [table(rates)])
    assert wrong.unsupported == ["0.02"] and wrong.miscomputed == ["0.02"]


def test_a_share_asked_is_not_a_percentage_of_something_else_in_the_sentence():
    """ "What percentage of the loan is outstanding?": "a 0% interest loan" states the loan's
    rate, not the share; the share computed from the sentence's figures is, and so is a
    percentage written of what the question names."""
    loans = passage(
        "On September 8, 2016, the Company entered into a loan agreement for the acquisition of a pile driver in the "
        "principal amount of $174 bearing interest at 5.5%. The outstanding balance at December 31, 2019, is $36.\n\n"
        "On November 14, 2016, the Company entered into a 0% interest loan agreement for the acquisition of an "
        "excavator in the principal amount of $59. The outstanding balance at December 31, 2019, is $13."
    )
    question = "What is the percentage of loan for the acquisition of an excavator that is outstanding?"
    assert check("0%", question, loans).grounding == "unsupported"
    assert check("22.03% = 13 / 59 × 100", question, loans).unsupported == []
    europe = passage("Customers in Europe accounted for 12% and 10% of revenue in 2019 and 2018, respectively.")
    share = "What percentage of revenue came from customers in Europe in 2019?"
    assert check("12%", share, europe).grounding not in ("unsupported", "partly")
    assert check("12%", "What did customers in Europe account for in 2019?", europe).unsupported == []  # no share asked
    # the rate of a facility is another measure than a share of revenue: the sentence states none
    assert check("12%", "What was the interest rate on the Europe facility?", europe).unsupported == ["12%"]
    direct = passage(
        "Direct sales to contract manufacturers and consignment warehouses accounted for 41.3%, 34.9% and 39.0% of "
        "our net revenues for fiscal 2019, 2018 and 2017, respectively."
    )
    asked = "What was the percentage of Direct sales to contract manufacturers in 2019, 2018 and 2017 respectively?"
    assert check("41.3%; 34.9%; 39.0%", asked, direct).unsupported == []  # the share of revenue Direct sales are


RATIOS = """USDm | 2019 | 2018 | 2017
Net debt to EBITDA | 0.9 | 0.8 | 0.7
Loan-to-value (LTV) ratio | 46.0% | 52.9% | 55.8%"""


@pytest.mark.parametrize(
    ("question", "right", "wrong"),
    [
        ("In which year was the LTV ratio the largest?", "2017", "2019"),  # the row's short form
        ("In which year was the net debt to EBITDA ratio larger?", "2019", "2017"),  # "ratio" after a row that is one
    ],
)
def test_a_ratio_a_row_names_is_compared_by_its_cells(question, right, wrong):
    labels = ["Net debt to EBITDA", "Loan-to-value (LTV) ratio"]
    assert not operation_named(preferred_ops(question, labels))  # a row named, no computation asked
    assert check(right, question, table(RATIOS)).grounding == "verified"
    assert check(wrong, question, table(RATIOS)).unsupported == [wrong]


SCHEMES = """€m | 2019 | 2018 | 2017
Defined contribution schemes | 166 | 178 | 150
Research, development and engineering | 126 | 67 | 60"""


@pytest.mark.parametrize(
    ("question", "answer", "holds"),
    [
        ("What is the 2019 average defined contribution schemes?", "172 million = (166 + 178) / 2", True),
        ("What is the 2019 average defined contribution schemes?", "192.6 million = (166 + 178) / 2", False),
        (
            "What is the change between 2018 and 2019 average defined contribution schemes?",
            "8 million = [(166 + 178) / 2] − [(178 + 150) / 2]",
            True,
        ),
        ("What is the percentage change of Research, development and engineering from 2018 to 2019?",
         "88.06% = 126 / 67 − 1", True),  # the one of a percentage change, without brackets
        ("What is the percentage change of Research, development and engineering from 2018 to 2019?",
         "98.63% = 126 / 67 − 1", False),
    ],
)  # fmt: skip
def test_an_average_balance_and_a_percentage_change_written_as_a_quotient_less_one(question, answer, holds):
    report = check(answer, question, table(SCHEMES))
    assert (report.grounding == "verified") is holds


def test_years_listed_without_spaces_are_each_asked():
    """ "For 2017,2018 and 2019" asks three years: the 2017 cell is in the period asked."""
    costs = " | 2019 | 2018 | 2017\nTotal costs | $8,455 | $10,647 | $3,631"
    answer = "7,577.67 = (3,631 + 10,647 + 8,455) / 3"
    spaced = check(answer, "What is the average total costs for 2017, 2018 and 2019?", table(costs))
    unspaced = check(answer, "What is the average total costs for 2017,2018 and 2019?", table(costs))
    assert spaced.grounding == unspaced.grounding == "verified"
    assert unspaced.misplaced == []


BLOCKS = """|  |  | As of December 31, 2019 |
|  | Amortized Cost | Fair Value |
| Government obligations | $129,499 | $126,066 |
| Total | $229,199 | $223,785 |
|  |  | As of December 31, 2018 |
|  | Amortized Cost | Fair Value |
| Government obligations | $73,798 | $87,797 |
| Total | $171,021 | $179,000 |"""


def test_a_header_written_again_inside_a_table_dates_the_rows_below_it():
    """The 2018 block's "Total" is 2018's, not the 2019 header's."""
    asked = "What is the difference between the total fair value amount and total amortized amount at 2018?"
    assert check("7,979 thousand = 179,000 − 171,021", asked, table(BLOCKS)).grounding == "verified"
    wrong = check("5,414 thousand = 229,199 − 223,785", asked, table(BLOCKS))  # the 2019 block's cells
    assert wrong.grounding != "verified" and wrong.misplaced


def test_a_percentage_the_report_states_for_what_is_asked_is_not_replaced_by_a_derived_one():
    """The row and the column the question names state 3%: a 4% derived from 2,082 and a
    sentence's "$2.0 billion" of notes repaid is no percentage change of interest expense."""
    cells = (
        "| | | | Percent Change | |\n|---|---|---|---|---|\n| (Dollars in millions) | 2019 | Actual | Constant | 2018 |\n"
        "| Interest expense | $2,082 | 3% | 3% | $2,025 |\n\nInterest expense increased in fiscal 2019 due to the "
        "maturities and repayments of $2.0 billion of senior notes during fiscal 2019."
    )
    question = "How much was the actual and constant percentage change in interest expense?"
    evidence = [Evidence(n=1, tool="search_docs", text=cells, source="report.md")]
    assert check_answer("3%; 3%", question, evidence).grounding == "verified"
    wrong = check_answer("4%; 3%", question, evidence)
    assert wrong.unsupported == ["4%"]
    assert wrong.notes == ["4% is not the percentage the report states for Interest expense, Actual: 3%"]


def test_the_years_counted_in_an_average_divisor_are_constants():
    cells = " | 2019 | 2018 | 2017\nUnrecognized tax benefit - beginning balance | $8,217 | $7,527 | $6,447"
    question = (
        "What was the average unrecognized tax benefit - beginning balance, across the 3 year period from 2017 to 2019?"
    )
    derivation = "(8,217 + 7,527 + 6,447) / (2019 − 2017 + 1)"
    assert check_answer(f"7,397 thousand = {derivation}", question, [table(cells)]).grounding == "verified"
    wrong = check_answer(f"7,997 thousand = {derivation}", question, [table(cells)])
    assert wrong.unsupported == ["7,997 thousand"] and "which is 7,397" in wrong.notes[0]


def test_three_figures_added_up_are_all_cells_or_all_sentences_figures():
    text = (
        "| £m | 2019 | 2018 |\n|---|---|---|\n| Net investment in finance lease | 0.8 | 1.2 |\n"
        "| Amounts owed by members of Peel | 0.3 | 0.3 |\n\nPeel has provided a guarantee in respect of Section 106 "
        "planning obligation liabilities at Barton Square which at 31 December 2019 totalled £13.0 million "
        "(2018: £12.4 million)."
    )
    evidence = [Evidence(n=1, tool="search_docs", text=text, source="report.md")]
    question = "What is the total guarantee in respect of Section 106 planning obligation liabilities at Barton Square at 31 December 2018?"
    assert check_answer("£12.4 million", question, evidence).grounding == "verified"
    assert check_answer("£13.9 million", question, evidence).unsupported == ["£13.9 million"]  # not 1.2 + 0.3 + 12.4


@pytest.mark.parametrize(
    "question",
    [
        "What was the absolute percentage change in risk-free interest rate between 2018 and 2019?",
        "By how many percent less did the EMEA region contribute to revenue growth as compared to the Americas?",
    ],
)
def test_an_absolute_change_or_a_gap_in_percent_is_a_difference(question):
    assert preferred_ops(question) == ("difference",)


def test_the_absolute_percentage_change_of_a_rate_is_its_change_in_points_not_a_relative_change():
    rates = "| | 2019 | 2018 |\n|---|---|---|\n| Risk-free interest rate | 2.0% | 1.2% |"
    evidence = [Evidence(n=1, tool="search_docs", text=rates, source="r.md")]
    question = "What was the absolute percentage change in risk-free interest rate between 2018 and 2019?"
    assert check_answer("0.8%", question, evidence).grounding == "verified"
    assert check_answer("66.67%", question, evidence).unsupported == ["66.67%"]
    assert check_answer("66.67%", question.replace("absolute ", ""), evidence).grounding == "verified"


def test_a_ratio_is_reversed_when_the_question_names_the_denominators_row_first():
    def cell(label: str) -> Place:
        words = frozenset(word_sequence(label))
        return Place(value=1.0, scale=1, text="1", evidence=0, start=0, end=1, kind="cell", label=label,
                     words=words, label_words=words)  # fmt: skip

    state, federal = cell("Domestic state"), cell("Domestic federal")
    question = "What was the domestic state carryforwards as a ratio of domestic federal carryforwards?"
    assert reversed_ratio(question, federal, state) is True
    assert reversed_ratio(question, state, federal) is False
    assert reversed_ratio("What was the ratio of the two?", federal, state) is False  # neither row named


def test_a_figure_of_one_digit_is_no_loose_derivation():
    """ "1" for the total revenues: not 17% over its own "(17%)", nor 14.3% / 13.7%, nor any rounding of 1.24."""
    text = (
        "Our consulting segment generated 17% (17%) of our consolidated total revenues in 2009. In 2009, operating "
        "income margins in this segment were 14.3% (14.3%), up 60 basis points from 13.7% (13.7%) in 2008."
    )
    question = "what was the total revenues in 2009 based on the consulting segment generated 17% of total revenues?"
    assert check("1", question, passage(text)).unsupported == ["1"]
    # a difference of one digit within a tenth of it still holds: 14.3 − 13.7 = 0.6 points
    assert check("0.6 points", "by how many points did the operating income margin rise?", passage(text)).grounding == (
        "verified"
    )
    sales = table("Item | 2019 | 2018\nSales | 7.3 | 5.3")
    assert check("2", "What was the change in sales from 2018 to 2019?", sales).grounding == "verified"
    looser = table("Item | 2019 | 2018\nSales | 7.3 | 4.9")  # 2.4: "2" rounds it, but within a fifth of it
    assert check("2", "What was the change in sales from 2018 to 2019?", looser).unsupported == ["2"]
    assert check("2.4", "What was the change in sales from 2018 to 2019?", looser).grounding == "verified"


def test_an_operand_within_the_answers_rounding_adds_nothing():
    """ "$154 million" is no "154 million − 201": the 201 changes nothing the answer writes."""
    text = "The change in investment income in 2015 was due to a $154 million gain on the sale of 201 shares."
    question = "What was the change in investment income in 2015, less the gain?"
    assert check("$153,999,799", question, passage(text)).grounding == "verified"  # written to the unit, it holds
    hypothetical = "What would the investment income have been in 2015 without the gain?"  # no figure as stated
    assert check("$154 million", hypothetical, passage(text)).unsupported == ["$154 million"]
    assert preferred_ops("in 2017 what was the debt to equity based on the actual asset allocation")[0] == "percentage"


YEAR_ROWS = """(Dollars in millions) | Average investments | Investment income | Unrealized gains (losses)
2015 | 17,430.8 | 473.8 | (194.0)
2014 | 16,922.6 | 512.3 | 365.1"""
WHOLE_OF_PARTS = (
    "Cash and invested assets totaled $17.7 billion at December 31, 2015, which consisted of 87.4% "
    "fixed maturities and cash, of which 91.4% were investment grade."
)


def test_an_amount_written_as_the_whole_of_parts_asked_is_flagged_and_no_row_of_measures_adds_up_to_it():
    part = "What is the total value of fixed maturities and cash as of December 31, 2015, in billions?"
    report = check("17.7 billion", part, table(YEAR_ROWS), passage(WHOLE_OF_PARTS))
    # 17,430.8 + 473.8 − 194.0 = 17,710.6 is a row of three measures labelled by a year: no sum of anything
    assert report.unsupported == ["17.7 billion"]
    assert report.notes == ["17.7 billion is stated (2015); the question asks a figure computed from the evidence"]
    # the whole asked: the sentence states it
    whole = check("17.7 billion", "What were cash and invested assets at December 31, 2015?", passage(WHOLE_OF_PARTS))
    assert whole.unsupported == [] and whole.grounding == "verified"
    # a row labelled by a segment still adds up across its columns
    quarters = "Segment | Q1 | Q2 | Q3\nSoftware | 1,210 | 1,345 | 1,402"
    summed = check("3,957", "What was the sum of Software revenue over Q1, Q2 and Q3?", table(quarters))
    assert summed.unsupported == [] and summed.grounding == "verified"
