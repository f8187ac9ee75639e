"""A planned cell is questioned only by a sentence that names the question's subject (and
period) more fully than the cell does and states another figure or none."""

import pytest

from engine.grounding.models import Evidence
from engine.react.plan_check import sentence_against_plan

NOTE = (
    "The following table presents total stock-based compensation cost.\n\n"
    "| ($ in millions) | 2019 |\n|---|---|\n| Cost | $100 |\n\n"
    "Total unrecognized compensation cost related to non-vested awards at December 31, 2019 was $1.2 billion. "
    "Basic earnings per share is calculated by dividing net income by the weighted-average number of shares. "
    "Our 28nm and below technologies contributed approximately 15.2% and 11.3% of our foundry revenue in 2018 "
    "and 2019 respectively."
)
EVIDENCE = [Evidence(n=2, tool="search_docs", text=NOTE, source="report.md")]
QUESTION = "What was the Total unrecognized compensation cost related to non-vested awards at December 31, 2019?"


def cell(row: str, operation: str = "value") -> dict:
    return {"operation": operation, "rows": [row], "columns": ["2019"]}


def test_a_sentence_naming_the_subject_in_full_with_another_figure_questions_the_cell():
    said = sentence_against_plan(QUESTION, cell("Cost"), "100000000", EVIDENCE)
    assert said is not None and said.startswith("Total unrecognized compensation cost") and "$1.2 billion" in said


@pytest.mark.parametrize(
    ("question", "args", "result"),
    [
        (QUESTION, cell("Cost", "change"), "18000000"),  # the sentence states one figure, not a pair to change
        (QUESTION, cell("Unrecognized compensation cost related to non-vested awards"), "100000000"),  # named in full
        (QUESTION, cell("Cost"), "1200000000"),  # the sentence states the planned figure
        ("What was the basic net loss per share in 2019?", cell("Basic"), "-0.28"),  # no sentence of 2019
        ("What was the contribution of the 28nm and below technologies in 2019?", cell("28 nanometers"), "11.3"),
    ],
)
def test_a_cell_no_sentence_states_otherwise_is_not_questioned(question, args, result):
    assert sentence_against_plan(question, args, result, EVIDENCE) is None


SUMMARY = (
    "| $ million | 2019 | 2018 |\n|---|---|---|\n| Adjusted operating costs2 | 275.7 | 267.4 |\n\n"
    "2. Before exceptional items, acquisition related costs, acquired intangible asset amortisation and share-based "
    "payment amounting to $4.3 million in total (2018 $19.6 million)."
)
NOTED = [Evidence(n=2, tool="search_docs", text=SUMMARY, source="report.md")]
FOOTNOTE_QUESTION = (
    "For adjusted operating costs, what was the percentage change in the amount of before exceptional items, "
    "acquisition related costs, acquired intangible asset amortisation and share-based payment between 2018 and 2019?"
)
CHANGE = {"operation": "percent_change", "rows": ["Adjusted operating costs2"], "columns": ["2019", "2018"]}


def test_a_note_stating_the_words_a_computation_left_out_questions_it():
    statement = "3.1% = (275.7 − 267.4) / 267.4 × 100: percentage change in Adjusted operating costs2, 2018 to 2019"
    said = sentence_against_plan(FOOTNOTE_QUESTION, CHANGE, "3.1%", NOTED, statement)
    assert said is not None and "$4.3 million" in said


def test_a_note_stating_the_computed_cells_does_not_question_it():
    statement = "-78.06% = (4.3 − 19.6) / 19.6 × 100: percentage change in Before exceptional items, 2018 to 2019"
    assert sentence_against_plan(FOOTNOTE_QUESTION, CHANGE, "-78.06%", NOTED, statement) is None


TAXES = (
    "| | June 1, 2019 | June 2, 2018 |\n|---|---|---|\n| Statutory federal income tax (benefit) | $14,694 | $34,105 |\n"
    "| State income tax (benefit) | 2,164 | 3,200 |\n\n"
    "Federal and state income taxes of $36.5 million, $2.1 million, and $3.7 million were paid in fiscal years 2019, "
    "2018, and 2017, respectively. BCE operating revenues grew by 1.6% in 2019, driven by growth in Bell Wireless."
)
TAXED = [Evidence(n=2, tool="search_docs", text=TAXES, source="report.md")]
STATE = {"operation": "value", "rows": ["State income tax (benefit)"], "columns": ["June 1, 2019"]}


def test_a_cell_leaving_out_a_word_a_sentence_states_with_an_amount_is_questioned():
    said = sentence_against_plan("What was the federal state income tax in fiscal year 2019?", STATE, "2,164", TAXED)
    assert said is not None and said.startswith("Federal and state income taxes of $36.5 million")


def test_a_cell_leaving_out_a_word_a_sentence_states_only_with_a_percentage_is_not_questioned():
    args = {"operation": "value", "rows": ["Bell Wireless"], "columns": ["2019"]}
    assert (
        sentence_against_plan("What were the operating revenues for 2019 for Bell Wireless?", args, "2,493", TAXED)
        is None
    )


SOFTWARE = (
    "| | 2019 | 2018 |\n|---|---|---|\n| Internal use software | 33,351 | 31,565 |\n\n"
    "Amounts capitalized to internal use software related to continuing operations for the years ended December 31, "
    "2019 and 2018 were $3,800 and $6,690, respectively."
)


def test_a_sum_is_questioned_by_a_sentence_of_the_subject_that_does_not_say_total():
    """ "The total amount capitalized …": "total" asks for the sum, the sentence need not write it."""
    question = (
        "What is the total amount capitalized to internal use software related to continuing operations "
        "for the years ended December 31, 2019 and 2018?"
    )
    args = {"operation": "sum", "rows": ["Internal use software"], "columns": ["2019", "2018"]}
    statement = "64,916 = 33,351 + 31,565: sum of Internal use software, 2019 and 2018"
    evidence = [Evidence(n=2, tool="search_docs", text=SOFTWARE, source="report.md")]
    said = sentence_against_plan(question, args, "64,916", evidence, statement)
    assert said is not None and said.startswith("Amounts capitalized to internal use software")
    assert sentence_against_plan(question, args, "10,490", evidence, "10,490 = 3,800 + 6,690: sum") is None


GP = (
    "Research, development and engineering expenses increased $3.7 million to $7.5 million for the year ended "
    "December 31, 2019 compared to $3.8 million for the year ended December 31, 2018 primarily due to $1.1 million "
    "of research, development and engineering expense associated with the legacy business of MOI and $2.7 million "
    "of research, development and engineering expense associated with the legacy business of GP during the year "
    "ended December 31, 2019."
)


def test_a_part_the_sentence_states_after_its_total_questions_the_total_cell():
    """The planned cell (7,496,012) is the sentence's "$7.5 million" total, but the words the
    question adds ("associated with the legacy business of GP") qualify the $2.7 million part."""
    question = (
        "How much was research, development and engineering expense associated with the legacy business of GP "
        "during the year ended December 31, 2019?"
    )
    args = {"operation": "value", "rows": ["Research, development and engineering expense"], "columns": ["2019"]}
    evidence = [Evidence(n=2, tool="search_docs", text=GP, source="report.md")]
    assert sentence_against_plan(question, args, "7,496,012", evidence) is not None
    total = "How much was research, development and engineering expense during the year ended December 31, 2019?"
    assert sentence_against_plan(total, args, "7,496,012", evidence) is None


def test_words_that_open_the_sentence_before_its_figures_qualify_all_of_them():
    said = (
        "Income from vessel operations for Teekay LNG increased to $299.3 million in 2019 compared to "
        "$148.6 million in 2018, primarily as a result of new vessels."
    )
    args = {"operation": "value", "rows": ["Income from vessel operations"], "columns": ["2018"]}
    evidence = [Evidence(n=2, tool="search_docs", text=said, source="report.md")]
    question = "What was the income from vessel operations for Teekay LNG in 2018?"
    assert sentence_against_plan(question, args, "148,599", evidence) is None


SPACE = (
    "| | 2015 | 2014 | 2013 |\n|---|---|---|---|\n| Net sales | $9,105 | $9,202 | $9,288 |\n\n"
    "2015 compared to 2014 space systems' net sales in 2015 decreased $97 million, or 1% (1%), compared to 2014."
)


def test_a_sentence_stating_only_a_change_does_not_question_an_average_of_levels():
    question = "What was average net sales for space systems in millions from 2013 to 2015?"
    args = {"operation": "mean", "rows": ["Net sales"], "columns": ["2015", "2014", "2013"]}
    statement = "9,198.33 = (9,105 + 9,202 + 9,288) / 3: average of Net sales, 2015, 2014 and 2013"
    evidence = [Evidence(n=1, tool="search_docs", text=SPACE, source="report.md")]
    assert sentence_against_plan(question, args, "9198.33", evidence, statement) is None
    levels = SPACE.replace("decreased $97 million, or 1% (1%), compared to 2014", "were $8,105 and $8,202 million")
    said = sentence_against_plan(
        question, args, "9198.33", [Evidence(n=1, tool="t", text=levels, source="r")], statement
    )
    assert said is not None  # a sentence of the subject stating other levels still questions it
