"""A year answering "when …?" is supported only by the sentences most about the question."""

import pytest

from engine.grounding import Evidence, check_answer
from engine.grounding.evidence_index import EvidenceIndex
from engine.grounding.measure import HYPOTHETICAL
from engine.grounding.notes import misplaced_note
from engine.grounding.support import Support

IMFT = (
    "IMFT manufactures semiconductor products exclusively for its members. In 2018, IMFT discontinued production "
    "of NAND and subsequent to that time manufactured 3D XPoint memory. IMFT sales to Intel were $731 million, "
    "$507 million, and $493 million for 2019, 2018, and 2017, respectively."
)
QUESTION = "When has IMFT discontinued the production of NAND?"


def doc(text: str) -> list[Evidence]:
    return [Evidence(n=1, tool="search_docs", text=text, source="report.md")]


def check(answer: str, question: str = QUESTION):
    return check_answer(answer, question, [Evidence(n=1, tool="search_docs", text=IMFT, source="report.md")])


def test_the_year_of_the_sentence_about_the_question_is_supported():
    assert check("2018").grounding == "verified"


@pytest.mark.parametrize("answer", ["2017", "In 2019."])
def test_a_year_found_only_in_another_sentence_is_not(answer):
    assert check(answer).unsupported == [answer.removeprefix("In ").rstrip(".")]


def test_a_question_no_sentence_is_about_is_judged_as_before():
    assert check("2017", "When was the first quarter?").unsupported == []


RATES_SENTENCE = (
    "FY 2019 saw volatility in USD-INR, ranging from `64.90 and `74.10, and averaging at `70.07. Average currency "
    "exchange rates during FY 2019 for the three major currencies are given below:"
)
RATES_TABLE = """| Currency | Weightage (%) | FY 2019 ` | FY 2018 ` | % Change YoY |
|---|---|---|---|---|
| USD | 53.6 | 70.07 | 64.49 | 8.7 |
| GBP | 13.9 | 91.60 | 86.05 | 6.5 |
| Breakup of revenue growth | FY 2019 (%) | FY 2018 (%) | | |
| Impact of exchange rate | 7.6 | (2.3) | | |
| Total growth | 19.0 | 4.4 | | |"""


def test_a_sentence_naming_a_row_the_question_names_whole_is_about_the_subject():
    """ "the average USD-INR exchange rate": "Impact of exchange rate" shares more words, but the
    question names the row "USD" whole, and the sentence that names USD states its average."""
    evidence = [
        Evidence(n=1, tool="search_docs", source="r.md", text=RATES_SENTENCE),
        Evidence(n=2, tool="search_docs", source="r.md", text=RATES_TABLE),
    ]
    question = "What was the average USD-INR exchange rate in FY 2019?"
    assert check_answer("`70.07", question, evidence).grounding == "verified"
    assert check_answer("`78.48", question, evidence).unsupported == ["78.48"]
    other = "What was the impact of exchange rate on revenue growth in FY 2019?"
    assert check_answer("`70.07", other, evidence).unsupported == ["70.07"]  # USD is not named there


def test_a_sentence_with_no_year_keeps_the_scale_word_of_its_figure():
    """A bullet with no year under a period heading is taken as it stands: its "$1.7 billion"
    is billions, not the bare dollars of "$1.75" a sentence of 2018 writes."""
    text = (
        "Key changes: • Research and development expenses increased $1.7 billion or 13%, primarily due to "
        "investments in cloud engineering. In 2018 diluted EPS was reduced by $1.75."
    )
    evidence = [Evidence(n=1, tool="search_docs", source="r.md", text=text)]
    question = "Why did research and development expenses increase in 2018?"
    quoted = "Research and development expenses increased $1.7 billion or 13%, primarily due to investments."
    assert check_answer(quoted, question, evidence).grounding == "verified"
    assert check_answer("They increased $1.75 billion.", question, evidence).unsupported == ["$1.75 billion"]


COMMON_SIZE = """| | 2019 | 2018 | 2017 |
|---|---|---|---|
| Revenue | 100% | 100% | 100% |
| Cost of revenue | 43% | 50% | 55% |
| Gross profit | 57% | 50% | 45% |"""


def test_a_column_where_the_named_base_is_100_percent_states_shares_of_it():
    evidence = [Evidence(n=1, tool="search_docs", source="r.md", text=COMMON_SIZE)]
    question = "What are the respective proportion of cost of revenue as a percentage of revenue in 2017 and 2018?"
    assert check_answer("55%; 50%", question, evidence).grounding == "verified"
    assert check_answer("55%; 57%", question, evidence).unsupported == ["57%"]
    # no 100% row of what the question names: a ratio asked is still not any percentage stated
    other = [Evidence(n=1, tool="search_docs", source="r.md", text=COMMON_SIZE.replace("100%", "9%"))]
    assert check_answer("55%; 50%", question, other).grounding != "verified"


def test_a_figure_stated_for_a_computation_asked_is_one_test_for_support_and_flag():
    def stated(table: str, question: str) -> dict[str, bool]:
        support = Support(EvidenceIndex([Evidence(n=1, tool="search_docs", source="r.md", text=table)]), question, "")
        return {p.text: support.stated_for_computation(p) for p in support.layout.every() if "2017" in p.years}

    ratio = "What are the respective proportion of cost of revenue as a percentage of revenue in 2017?"
    assert stated(COMMON_SIZE, ratio) == {"100%": False, "55%": False, "45%": False}  # shares of the 100% row
    assert stated(COMMON_SIZE.replace("100%", "9%"), ratio) == {"9%": True, "55%": True, "45%": True}
    assert stated(COMMON_SIZE.replace("100%", "9%"), "What was the cost of revenue in 2017?")["55%"] is False
    change = "What was the change in cost of revenue from 2017 to 2018?"
    assert stated(COMMON_SIZE.replace("Cost of revenue", "Change in cost of revenue"), change)["55%"] is False
    assert stated(COMMON_SIZE, change)["55%"] is True


SGA = (
    "| | 2019 | 2018 | $ Difference | % Difference |\n|---|---|---|---|---|\n"
    "| Selling, general and administrative expense | $24,371,349 | $14,794,205 | $9,577,144 | 64.7% |\n\n"
    "Selling, general and administrative expense increased $9.6 million to $24.4 million for the year ended "
    "December 31, 2019 compared to $14.8 million for the year ended December 31, 2018."
)


@pytest.mark.parametrize(
    ("answer", "vouched"),
    [
        ("$9.6 million", True),  # the sentence's change
        ("$9,577,144", True),  # the "$ Difference" cell
        ("$14.8 million", False),  # 2018's level: written beside the change, and 24.4 − 9.6 is no change
        ("$24.4 million", False),
    ],
)
def test_an_increase_asked_is_the_figure_written_as_the_change(answer, vouched):
    evidence = [Evidence(n=1, tool="search_docs", source="r.md", text=SGA)]
    question = "What was the Selling, general and administrative expense increase in 2019?"
    assert (check_answer(answer, question, evidence).grounding == "verified") is vouched


CARRYFORWARDS = """| (dollars in thousands) | Last Fiscal Year of Expiration | Amount |
|---|---|---|
| Income tax net operating loss carryforwards:(1) | | |
| Domestic–state | 2039 | $57,299 |
| Foreign | 2039 or indefinite | $565,609 |
| Tax credit carryforwards:(1) | | |
| Domestic–federal | 2029 | $39,784 |
| Domestic–state | 2027 | $3,313 |
| Foreign(2) | 2027 or indefinite | $15,345 |"""


def carryforwards(answer: str, question: str):
    return check_answer(answer, question, [Evidence(n=1, tool="search_docs", text=CARRYFORWARDS, source="r.md")])


def test_a_cell_of_another_column_than_the_one_the_question_names_is_unsupported():
    question = "What was the last fiscal year of expiration for domestic-state tax credit carryforwards?"
    report = carryforwards("3,313 thousand", question)
    assert report.unsupported == ["3,313 thousand"]
    assert report.notes == [
        "3,313 thousand is Domestic–state, Amount, not Domestic–state, Last Fiscal Year of Expiration"
    ]
    assert carryforwards("2027", question).grounding == "verified"
    # the Amount column asked by its name is that column's cell
    assert carryforwards("3,313", "What was the amount of domestic-state tax credit carryforwards?").unsupported == []


RATIO = "What was the domestic-state tax credit carryforwards as a ratio of domestic-federal tax credit carryforwards?"


@pytest.mark.parametrize("answer", ["0.08", "0.08 = 3,313 / 39,784"])
def test_a_ratio_in_the_order_the_question_names_its_rows_is_supported(answer):
    assert carryforwards(answer, RATIO).grounding == "verified"


def test_a_ratio_the_wrong_way_round_is_unsupported_derived_or_written():
    assert carryforwards("12.01", RATIO).unsupported == ["12.01"]
    report = carryforwards("12.01 = 39,784 / 3,313", RATIO)
    assert report.unsupported == ["12.01"]
    assert report.notes == [
        "12.01 divides Domestic–federal, Amount by Domestic–state, Amount: "
        "the question asks for Domestic–state, Amount to Domestic–federal, Amount"
    ]


REVISED = """| (In millions) | 2019 | 2018 |
|---|---|---|
| Food Care | $ 1,997.8 | $ 1,914.4 |
| Product Care | 2,762.9 | 2,273.8 |

The assets allocated to segments as of December 31, 2018 have been revised to correct an error. Assets allocated
to Food Care were understated by $372.9 million."""


def test_the_unrevised_value_is_not_the_revised_tables_cell():
    def check_revised(answer: str, question: str):
        return check_answer(answer, question, [Evidence(n=1, tool="search_docs", text=REVISED, source="r.md")])

    question = "What is the unrevised value of Food Care for 2018?"
    assert check_revised("1,914.4 million", question).unsupported == ["1,914.4 million"]
    assert check_revised("1,541.5 = 1,914.4 - 372.9", question).grounding == "verified"
    assert check_revised("1,914.4 million", "What is the value of Food Care for 2018?").grounding == "verified"


WARRANTS = """|  | Outstanding as of December 31, | Exercise | Exercisable |
|---|---|---|---|
| Issuance Date | 2019 | price | Through |
| Aug 2007- Jan 2011 | 2,016,666 | 3 - 4.35 | Nov-2022 |
| Jun-2018 | 458,202 | 9 | Dec-2020 |
| Jun-2018 | 1,158,000 | 7 | Dec-2021 |
| Aug - 2019 | 842,000 | 7 | Dec-2021 |
| Total | 4,474,868 |  |  |"""


def test_a_row_labelled_by_a_date_is_named_by_the_month_written_whole_and_is_of_its_year():
    def check_warrants(answer: str, question: str):
        return check_answer(answer, question, [Evidence(n=1, tool="search_docs", text=WARRANTS, source="r.md")])

    question = (
        "What is the total number of warrants oustanding as of December 31, 2019 that were issued in August 2019?"
    )
    assert check_warrants("842,000", question).grounding == "verified"  # "Aug - 2019", named "August 2019"
    assert check_warrants("458,202", question).unsupported == ["458,202"]
    question = "What is the change in warrants outstanding from Aug 2007-Jan 2011 to Jun-2018?"
    assert check_warrants("-400,464 = (458,202 + 1,158,000) − 2,016,666", question).grounding == "verified"
    assert check_warrants("-448,520", question).unsupported == ["448,520"]


LEASES = """| | Operating Leases | Finance Leases |
|---|---|---|
| 2021 | $138 | $6 |
| 2022 | 135 | 6 |
| Total future minimum lease payments | 273 | 12 |"""


def test_a_row_labelled_by_its_year_alone_is_that_years_row_not_a_total():
    def check_leases(answer: str, question: str):
        return check_answer(answer, question, [Evidence(n=1, tool="search_docs", text=LEASES, source="r.md")])

    assert check_leases("138 million", "What were the operating leases for 2021?").grounding == "verified"
    assert check_leases("135 million", "What were the operating leases for 2021?").unsupported == ["135 million"]


GENERAL_AND_ADMINISTRATIVE = (
    "General and administrative expenses increased by $2.7 million during the year ended June 30, 2019. Overall,"
    " general and administrative expenses, as a percentage of total revenue, remained at approximately 7%.\n\n"
    "Our general and administrative labour resources increased by 119 employees, from 1,501 employees at June 30,"
    " 2018 to 1,620 employees at June 30, 2019."
)


def test_a_share_of_the_whole_asked_is_the_sentences_not_a_ratio_of_figures_about_something_else():
    evidence = [Evidence(n=1, tool="search_docs", text=GENERAL_AND_ADMINISTRATIVE, source="report.md")]
    question = "What is the general and administrative expenses, as a percentage of total revenue?"
    assert check_answer("approximately 7%", question, evidence).unsupported == []
    # 119 / 1,501 employees is 8%, a share of no revenue
    assert check_answer("approximately 8%", question, evidence).unsupported == ["8%"]


DEBT_MATURITIES = (
    "Debt outstanding at December 31, 2013 had a face value totaling $4.3 billion with a weighted average interest "
    "rate of 5.49% and with maturity dates ranging between 2014 and 2028. Of this total amount, we had $3.1 billion "
    "of unsecured debt and $1.1 billion of secured debt at December 31, 2013."
)


def test_the_percent_of_a_whole_asked_is_no_rate_a_sentence_states_of_it():
    """FinQA: "what was the percent of the debt … that was unsecured debt" is a share (3.1 / 4.3), not the debt's rate."""
    question = "what was the percent of the debt maturities outstanding at december 31, 2013 that was unsecured debt"
    assert check_answer("5.49%", question, doc(DEBT_MATURITIES)).unsupported == ["5.49%"]
    assert check_answer("72.09% = 3.1 / 4.3 × 100", question, doc(DEBT_MATURITIES)).grounding == "verified"


def test_a_share_of_the_whole_asked_is_not_a_ratio_of_two_cells_of_a_table_that_never_names_it():
    changes = (
        "|  | Change between Fiscal increase (decrease) |  |\n|---|---|---|\n"
        "| (In thousands) | 2019 and 2018 | 2018 and 2017 |\n| Payroll and payroll-related benefits | $4,089 | $22,908 |\n"
        "| Facilities | (4,537) | 5,777 |\n| Total change in general and administrative expenses | $2,682 | $34,874 |"
    )
    evidence = [Evidence(n=1, tool="search_docs", text=changes, source="report.md")]
    question = "What is the general and administrative expenses, as a percentage of total revenue?"
    assert check_answer("approximately 8%", question, evidence).unsupported == ["8%"]  # 2,682 / 34,874: no revenue
    table = "| Segment | 2019 | 2018 |\n|---|---|---|\n| Software | 1,950 | 1,538 |\n| Total revenue | 2,870 | 2,333 |"
    revenue = [Evidence(n=1, tool="search_docs", text=table, source="revenue.md")]
    share = "What was Software revenue as a percentage of total revenue in 2019?"
    assert check_answer("67.94%", share, revenue).grounding == "verified"  # 1,950 / 2,870, a table of revenue


def test_an_amount_of_a_passage_that_gives_its_unit_before_it_is_in_that_unit():
    passage = (
        "Comparison of Year Ended December 31, 2019 to Year Ended December 31, 2018 (in 000’s)\n\n"
        "Net Sales Net sales were $93,662 for the year ended December 31, 2019, a decrease of $9,688 or 9.4%."
    )
    evidence = [Evidence(n=1, tool="search_docs", text=passage, source="report.md")]
    question = "What is the net sales for year ended December 31, 2019?"
    assert check_answer("$ 93,662 thousand", question, evidence).grounding == "verified"
    assert check_answer("$93,662 million", question, evidence).unsupported == ["$93,662 million"]
    dollars = [Evidence(n=1, tool="search_docs", text=passage.split("\n\n")[1], source="report.md")]
    assert check_answer("$ 93,662 thousand", question, dollars).unsupported == ["$ 93,662 thousand"]  # no unit given


RENTAL = """| <i>$ in millions</i> | As of December 2015 |
|---|---|
| 2016 | $ 317 |
| 2017 | 313 |
| 2018 | 301 |
| 2021 - thereafter | 1,160 |
| Total | $2,575 |"""


@pytest.mark.parametrize(("answer", "vouched"), [("12% = 301 / 2575", True), ("11.7%", True), ("13.1%", False)])
def test_the_total_of_a_table_whose_rows_are_the_years_is_the_whole_of_the_year_asked(answer, vouched):
    evidence = [Evidence(n=1, tool="search_docs", text=RENTAL, source="report.md")]
    question = "What percentage of future minimum rental payments are due in 2018?"
    assert (check_answer(answer, question, evidence).grounding == "verified") is vouched


LEASE_COMMITMENTS = """| In Millions | Operating Leases | Capital Leases |
|---|---|---|
| Fiscal 2019 | $137.4 | $0.3 |
| Fiscal 2020 | 115.7 | 0.2 |
| Total noncancelable future lease commitments | $559.3 | $0.5 |"""


@pytest.mark.parametrize(("answer", "vouched"), [("24.6%", True), ("137.4 million", False), ("20.7%", False)])
def test_a_portion_asked_of_a_total_is_the_share_of_the_row_of_the_year_asked(answer, vouched):
    evidence = [Evidence(n=1, tool="search_docs", text=LEASE_COMMITMENTS, source="report.md")]
    question = "What portion of the total noncancelable future lease commitments are due in fiscal year of 2019?"
    assert (check_answer(answer, question, evidence).grounding == "verified") is vouched


@pytest.mark.parametrize(("answer", "vouched"), [("45% = 1160 / 2575", True), ("45%", True), ("8.8%", False)])
def test_payments_due_after_a_year_are_those_of_the_years_after_it(answer, vouched):
    table = RENTAL.replace("| 2018 | 301 |", "| 2020 | 226 |")
    evidence = [Evidence(n=1, tool="search_docs", text=table, source="report.md")]
    question = "What percentage of future minimum rental payments are due after 2020?"
    assert (check_answer(answer, question, evidence).grounding == "verified") is vouched


NOTES = """(in millions) | Maturity Amount | Carrying Value | Fair Value
1.375% Notes due 2015 | $750 | $750 | $753
3.50% Notes due 2024 | 1,000 | 997 | 1,029
Total Long-term Borrowings | $4,950 | $4,938 | $5,309

In March 2014, the company issued $1.0 billion in aggregate principal amount of 3.50% senior unsecured notes maturing on March 18, 2024."""


def test_a_computation_asked_is_not_answered_by_a_rate_that_names_a_row_or_a_sentences_notes():
    """ "What percent higher is fair value than carrying value?": "3.50%" names a row and the notes' rate."""
    question = "What percent higher is fair value than carrying value?"
    wrong = check_answer("3.50%", question, doc(NOTES))
    assert wrong.unsupported == ["3.50%"]
    right = check_answer("7.51%", question, doc(NOTES))
    assert right.grounding == "verified" and not right.unsupported  # (5,309 − 4,938) / 4,938, derived
    stated = "In 2014, revenue increased 3.50% to $1.2 billion."
    grew = check_answer("3.50%", "What was the percentage change in revenue in 2014?", doc(stated))
    assert grew.grounding == "verified"  # written as the change it is


NET_INCOME = """(In millions) | Amount
2016 net revenue | $1,520.5
Volume/weather | (29.0)
2017 net revenue | $1,522.6

2016 compared to 2015 net income increased $92.9 million primarily due to higher net revenue, partially offset by
1 higher effective income tax rate."""


def test_a_ratio_asked_is_no_amount_a_difference_happens_to_give():
    question = "In 2016 what was the ratio of the net income increased to the net revenues?"
    wrong = check_answer("$92.9 million", question, doc(NET_INCOME))
    assert wrong.unsupported == ["$92.9 million"]
    right = check_answer("0.061", question, doc(NET_INCOME))
    assert right.grounding == "verified"  # 92.9 / 1,520.5


ADJUSTED_ASSETS = (
    "|  | 2008 | 2007 |\n|---|---|---|\n| Total adjusted average assets | 1,966,895 | 1,700,000 |\n"
    "| Total debt as a percentage of total capital | 55.6% | 50.1% |\n"
)


def test_a_figure_as_stated_answers_no_hypothetical_question_and_the_flag_says_so():
    """FinQA: "assuming a 5% rate of return, what would the earnings be …" is computed, not the assets quoted."""
    question = "assuming a 5% rate of return, what would the earnings be on 2008 total adjusted average assets?"
    report = check_answer("1,966,895", question, doc(ADJUSTED_ASSETS))
    assert report.unsupported == ["1,966,895"]
    assert misplaced_note(report.misplaced[0]) == (
        "1,966,895 is stated (Total adjusted average assets, 2008); the question asks a figure computed from the evidence"
    )
    assert check_answer("98,344.75 = 5% × 1,966,895", question, doc(ADJUSTED_ASSETS)).grounding == "verified"
    assert (
        check_answer(
            "1,966,895", "what were the total adjusted average assets in 2008?", doc(ADJUSTED_ASSETS)
        ).unsupported
        == []
    )


def test_a_row_of_debt_is_no_support_for_a_question_about_equity():
    question = "in 2008 what was the percent of the financing structure that was based on the equity"
    assert check_answer("55.6%", question, doc(ADJUSTED_ASSETS)).unsupported == ["55.6%"]
    assert (
        check_answer(
            "55.6%", "in 2008 what was the debt as a percentage of total capital?", doc(ADJUSTED_ASSETS)
        ).unsupported
        == []
    )


CARRY_FORWARDS = (
    "As of December 31, 2017, the company had gross state income tax credit carry-forwards of approximately $20 "
    "million. A deferred tax asset of approximately $16 million has been established related to these state income "
    "tax credit carry-forwards. The company had a gross state net operating loss carry-forward of $39 million. A "
    "deferred tax asset of approximately $3 million has been established for the net operating loss carry-forward."
)


def test_a_ratio_asked_is_not_one_of_its_terms_as_stated_even_where_no_sentence_is_about_the_question():
    question = (
        "what is the ratio of the deffered tax assets for the state income tax credit carry-forwards to the net "
        "operating loss carry-forward"
    )
    evidence = doc(CARRY_FORWARDS)
    assert not Support(EvidenceIndex(evidence), question, "").scope.active  # judged against the whole evidence
    report = check_answer("approximately $16 million", question, evidence)
    assert report.unsupported == ["$16 million"]
    assert report.notes == ["$16 million is stated (report.md); the question asks a figure computed from the evidence"]
    assert check_answer("5.33", question, evidence).grounding == "verified"  # 16 / 3
    # an even split assumed is no other world: a figure stated per the unit asked answers it
    assert not HYPOTHETICAL.search("assuming each continent has the same number of destinations, how many …?")
    assert HYPOTHETICAL.search("assuming a 5% rate of return, what would the earnings be?")


def test_a_question_without_a_part_and_a_debt_to_equity_ask_a_computation():
    question = "what would the investment income have been in 2015 without the gain from the sale of shares?"
    assert HYPOTHETICAL.search(question)
    allocation = "| | 2017 Actual Asset Allocation |\n|---|---|\n| Debt securities | 70% |\n| Equity securities | 30% |"
    report = check_answer(
        "70%", "in 2017 what was the debt to equity based on the 2017 actual asset allocation", doc(allocation)
    )
    assert report.unsupported == ["70%"]
