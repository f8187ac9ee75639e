"""FinQA entries in the test gold's form: derivations, gold answers, sources, pages."""

import pytest

from bench.report_qa.dataset import Context
from bench.report_qa.finqa import (
    as_percent,
    contexts,
    derivation,
    detokenized,
    gold,
    header_cell,
    value_of,
    with_header,
)

TABLE = [["", "2015", "2014"], ["net revenue", "$ 5829", "$ 5735"], ["other", "( 12 )", "10"]]


def entry(
    question: str, program: str, answer: str, exe: float, inds: dict[str, str], page: str = "ETR/2016/page_23.pdf"
):
    return {
        "id": f"{page}-{question[:4]}",
        "filename": page,
        "pre_text": ["net revenue , net of fuel ( in millions ) is as follows :"],
        "post_text": ["the company 's revenue grew ."],
        "table_ori": [["", "2015", "2014"], ["Net revenue", "$5,829", "$5,735"]],
        "table": TABLE,
        "qa": {"question": question, "program": program, "answer": answer, "exe_ans": exe, "gold_inds": inds},
    }


def test_a_program_is_written_as_its_derivation():
    assert derivation("subtract(5829, 5735), divide(#0, 5735)", TABLE) == "(5829 - 5735) / 5735"
    assert derivation("divide(5829, const_100), multiply(#0, const_m1)", TABLE) == "(5829 / 100) * -1"
    assert derivation("table_average(net revenue, none)", TABLE) == "(5829 + 5735) / 2"
    assert derivation("table_sum(no such row, none)", TABLE) == ""  # a row the table does not hold: none
    assert derivation("multiply(690, const_1000000), multiply(#0, 8.75%)", TABLE) == "(690 * 1000000) * 8.75%"


def test_a_derivation_is_read_by_its_syntax_never_run():
    assert value_of("(5829 - 5735) / 5735") == (5829 - 5735) / 5735
    assert value_of("(690 * 1000000) * 8.75%") == pytest.approx(60_375_000)
    assert value_of("__import__('os').getcwd()") is None
    assert value_of("1 / 0") is None


def test_the_gold_is_the_written_answer_with_its_scale_else_the_executed_value():
    assert gold({"answer": "14.1%", "exe_ans": 0.141}) == (14.1, "percent")
    assert gold({"answer": "-3%", "exe_ans": -0.03}) == (-3, "percent")
    assert gold({"answer": "$ 94", "exe_ans": 94.0}) == (94, "")
    assert gold({"answer": "", "exe_ans": 0.53691}) == (0.5369, "")
    assert gold({"answer": "yes", "exe_ans": "yes"}) == ("yes", "")


def test_a_percentage_asked_and_written_without_its_sign_is_read_as_the_percentage():
    share = "divide(2400, 3278)"
    assert as_percent(
        "what percent of total derivatives are from interest rate contracts?", share, 73.22, "", 0.7322
    ) == (73.22, "percent")
    growth = "subtract(188.9, 153.9), divide(#0, 153.9)"
    assert as_percent("what was the percentage growth of the return?", growth, 0.2274, "", 0.2274) == (22.74, "percent")
    # not a ratio, a difference of percentages, a percentage already written, or no percentage asked: as written
    assert as_percent(
        "the savings from redeeming the 8.75% notes?", "multiply(690, 8.75%)", 60375000, "", 60375000.0
    ) == (60375000, "")
    assert as_percent("changed by how many percentage points?", "divide(2, 1), subtract(#0, 3)", -1, "", -1) == (-1, "")
    assert as_percent("what percent of sales?", share, 14.1, "percent", 0.141) == (14.1, "percent")
    assert as_percent("what was the ratio of a to b?", share, 0.73, "", 0.7322) == (0.73, "")


def test_text_is_detokenized_as_a_report_writes_it():
    assert detokenized("net revenue , net ( in millions ) was $ 5 .") == "net revenue, net (in millions) was $5."
    assert detokenized("the company 's share rose 3 % .") == "the company's share rose 3%."


def test_entries_of_one_page_become_one_context_in_the_test_golds_form():
    entries = [
        entry("what is the net change in net revenue ?", "subtract(5829, 5735)", "94", 94.0, {"table_1": "x"}),
        entry(
            "what is the growth rate ?",
            "subtract(5829, 5735), divide(#0, 5735)",
            "1.6%",
            0.016,
            {"table_1": "x", "text_0": "y"},
        ),
        entry("was revenue greater in 2015 ?", "greater(5829, 5735)", "yes", "yes", {"text_0": "y"}),
        entry(
            "what is the net change ?", "subtract(5829, 5735)", "94", 94.0, {"table_1": "x"}, page="AAL/2018/page_1.pdf"
        ),
        entry(
            "what is the average ?",
            "add(5829, 5735), add(#0, const_2), divide(#1, const_2)",
            "5782",
            5783.0,
            {"table_1": "x"},
            page="AAL/2018/page_1.pdf",
        ),
    ]
    out = [Context.model_validate(c) for c in contexts(entries)]
    assert len(out) == 2 and [len(c.questions) for c in out] == [3, 2]
    assert out[1].questions[1].derivation == ""  # a program that does not give its own answer is not stated
    first = out[0]
    assert first.table.table[1] == ["Net revenue", "$5,829", "$5,735"]  # the table as the report writes it
    assert first.paragraphs[0].text == "net revenue, net of fuel (in millions) is as follows:"
    change, rate, compared = first.questions
    assert (change.answer, change.answer_type, change.answer_from, change.derivation) == (
        94,
        "arithmetic",
        "table",
        "5829 - 5735",
    )
    assert (rate.answer, rate.scale, rate.answer_from) == (1.6, "percent", "table-text")
    assert (compared.answer, compared.answer_type, compared.answer_from) == (["yes"], "span", "text")


def test_a_table_whose_first_row_is_data_gets_an_empty_header():
    assert with_header([["Value of stock awards", "$121.4"], ["Total", "$4,187.8"]])[0] == ["", ""]
    assert with_header([["", "2015", "2014"], ["Net revenue", "$5,829", "$5,735"]])[0] == ["", "2015", "2014"]
    assert with_header([["In Millions", "Operating Leases"], ["Fiscal 2019", "$137.4"]])[0][1] == "Operating Leases"


def test_a_day_and_year_whose_line_break_was_lost_are_written_apart():
    assert header_cell("December 312012") == "December 31, 2012"
    assert header_cell("December 31,2011") == "December 31, 2011"
    assert header_cell("December 31, 2012") == "December 31, 2012"  # already apart
    assert header_cell("312012") == "312012"  # no month: a figure
