"""A count stated with the items it counted must be their number."""

import pytest

from engine.grounding import Evidence, check_answer
from engine.grounding.counts import lone_figure, repeated_items, stated_counts
from engine.grounding.figures import extract_figures

ROWS = """ | 2019 | 2018
Accrued expenses and other liabilities | 212 | 187
Accounts payable | 90 | 80"""


def table(text, n=1):
    return Evidence(n=n, tool="query_table", text=text, source="table.csv", computed=True)


@pytest.mark.parametrize(
    "answer, count, items, holds",
    [
        ("3 (Group operating profit, Group cash generation, Group ROCE)", 3, 3, True),
        ("4 (Group operating profit, Group cash generation, Group ROCE)", 4, 3, False),
        ("3 (2019, 2018)", 3, 2, False),
        ("2 (2019 and 2018)", 2, 2, True),
        ("1 (2019)", 1, 1, True),
    ],
)
def test_the_count_is_compared_with_the_items_listed(answer, count, items, holds):
    [stated] = stated_counts(answer, "How many years did it exceed $200 million?")
    assert (stated.count, len(stated.items), stated.holds) == (count, items, holds)


def test_a_threshold_before_its_years_is_no_count():
    answer = "1 of 2 columns above 200 (2019): Accrued expenses and other liabilities, 2019 and 2018"
    assert stated_counts(answer, "How many years did it exceed $200 million?") == []
    assert [c.count for c in stated_counts("1 (2019) of 2 years over $200", "How many years?")] == [1]


def test_only_a_how_many_question_states_a_count():
    assert stated_counts("Revenue grew 12 (in thousands)", "What was the change in revenue?") == []
    assert stated_counts("$12 (2019)", "How many dollars?") == []  # an amount, not a count


def test_a_miscounted_answer_is_flagged_with_the_items_number():
    question = "How many years did Accrued expenses and other liabilities exceed $200 million?"
    report = check_answer("2 (2019)", question, [table(ROWS)])
    assert report.unsupported == ["2"]
    assert report.notes == ["2 is not the number of items listed (1)"]
    fr = check_answer("2 (2019)", "Combien d'années ...?", [table(ROWS)], language="fr")
    assert fr.notes == ["2 n'est pas le nombre d'éléments cités (1)"]


def test_a_right_count_with_its_items_is_verified():
    question = "How many years did Accrued expenses and other liabilities exceed $200 million?"
    report = check_answer("1 (2019)", question, [table(ROWS)])
    assert report.unsupported == []
    assert report.grounding == "verified"


@pytest.mark.parametrize(
    "answer, repeated",
    [
        ("2018; 2018", ["2018"]),
        ("2019; 2019; 2018", ["2019"]),
        ("FY2019; FY2019", ["FY2019"]),
        ("2019; 2018", []),
        ("2019\n2019", []),
        ("3%; 3%", []),  # two cells may hold one value: the actual and the constant change
        ("2,000 thousand; 2,000 thousand", []),
    ],
)
def test_a_list_naming_an_item_twice_is_found(answer, repeated):
    assert [answer[a:b] for a, b in repeated_items(answer, per_year=False)] == repeated


def test_one_figure_twice_counts_for_a_list_of_the_years_asked():
    assert [a for a, _ in repeated_items("28%; 28%", per_year=True)] == [5]  # "in 2019 and 2018"
    assert repeated_items("Level 2; Level 2; Level 3", per_year=False) == [(9, 16)]  # a label named twice


def test_a_repeated_year_in_a_list_is_flagged():
    question = "Which years does the table provide information for accrued expenses?"
    report = check_answer("2018; 2018", question, [table(ROWS)])
    assert report.unsupported == ["2018"]
    assert report.notes == ["2018 is listed twice"]
    assert check_answer("2019; 2018", question, [table(ROWS)]).grounding == "verified"


def test_an_item_the_evidence_names_with_and_is_one_item():
    obligations = Evidence(
        n=1, tool="query_table", source="table.csv", computed=True,
        text=" | Total\nNotes payable and long-term debt | $2,496,465\nOperating lease obligations | 603,185",
    )  # fmt: skip
    question = "How many contractual obligations had a total payments due that exceeded $500,000 thousand?"
    listed = "(Notes payable and long-term debt, Operating lease obligations)"
    assert check_answer(f"2 {listed}", question, [obligations]).grounding == "verified"
    assert check_answer(f"3 {listed}", question, [obligations]).notes == ["3 is not the number of items listed (2)"]


def test_a_row_label_with_commas_in_it_is_one_item():
    deferred = Evidence(
        n=1, tool="search_docs", source="report.md",
        text="| | 2019 | 2018 |\n|---|---|---|\n| Net operating loss carry forward | $183,297 | $119,259 |\n"
        "| Accrued expenses | 81,731 | 81,912 |\n"
        "| Property, plant and equipment, principally due to differences in depreciation | 66,268 | 97,420 |",
    )  # fmt: skip
    question = "How many components of deferred tax assets exceeded $50,000 thousand in 2019?"
    listed = "(Net operating loss carry forward, Accrued expenses, Property, plant and equipment, principally due to differences in depreciation)"
    assert check_answer(f"3 {listed}", question, [deferred]).grounding == "verified"
    assert check_answer(f"4 {listed}", question, [deferred]).notes == ["4 is not the number of items listed (3)"]
    # a prose list is still split at its commas
    prose = Evidence(n=1, tool="search_docs", source="r.md", text="We sell cash, receivables and inventories.")
    assert check_answer("2 (cash, receivables, inventories)", "How many assets are sold?", [prose]).notes == [
        "2 is not the number of items listed (3)"
    ]


PLANS = Evidence(
    n=1,
    tool="search_docs",
    source="report.md",
    text="We estimate that we will make payments of approximately $14.2 million and $10.8 million over the next "
    "twelve months to fund our pension and postretirement plans, respectively.",
)
RESPECTIVELY = "How much does the company estimate to fund its pension and postretirement plans, respectively?"


def test_one_figure_for_a_question_asking_several_respectively_is_found():
    assert lone_figure(extract_figures("$10.8 million"), RESPECTIVELY) == 0
    assert lone_figure(extract_figures("$14.2 million and $10.8 million"), RESPECTIVELY) is None
    assert (
        lone_figure(extract_figures("$10.8 million"), "How much will the company fund its postretirement plans?")
        is None
    )
    assert lone_figure(extract_figures("$10.8 million in 2019"), RESPECTIVELY) == 0  # a year is no second figure


def test_one_figure_of_two_asked_respectively_is_flagged_and_both_are_verified():
    one = check_answer("$10.8 million", RESPECTIVELY, [PLANS])
    assert one.grounding == "unsupported"
    assert one.notes and "$10.8 million is one figure" in one.notes[0]
    both = check_answer("$14.2 million and $10.8 million", RESPECTIVELY, [PLANS])
    assert both.grounding == "verified" and not both.notes
