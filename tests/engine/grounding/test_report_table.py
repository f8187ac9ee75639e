"""A report's table read in the evidence: the rows a label written again says something of."""

from engine.grounding import Evidence, check_answer
from engine.grounding.report_table import owners

REVENUE = (
    "|  | July 27, 2019 | July 28, 2018 | 2019 vs. 2018 Variance in Percent |\n|---|---|---|---|\n"
    "| Revenue: |  |  |  |\n| Product | $39,005 | $36,709 | 6% |\n| Percentage of revenue | 75.1% | 74.4% |  |\n"
    "| Service | 12,899 | 12,621 | 2% |\n| Percentage of revenue | 24.9% | 25.6% |  |\n| Total | $51,904 | $49,330 | 5% |"
)


def test_a_label_written_again_under_rows_named_once_belongs_to_the_row_above_it():
    assert owners(["Product", "Percentage of revenue", "Service", "Percentage of revenue", "Total"]) == {
        1: "Product",
        3: "Service",
    }
    # a label written again in two sections, each under a section row named once too, is still owned
    assert owners(["Wireless", "Growth", "Wireline", "Growth"]) == {1: "Wireless", 3: "Wireline"}
    # rows above that are themselves written twice own nothing
    assert owners(["Current", "Other", "Current", "Other"]) == {}


def test_the_percentage_stated_under_the_row_asked_is_its_percentage_and_a_variance_column_is_no_level():
    evidence = [Evidence(n=1, tool="search_docs", text=REVENUE, source="report.md")]
    question = "What was the product percentage of revenue in 2019?"
    assert check_answer("75.1%", question, evidence).unsupported == []
    assert check_answer("24.9%", question, evidence).unsupported == ["24.9%"]  # the service's
    assert check_answer("6%", question, evidence).unsupported == ["6%"]  # the change of product revenue


def test_a_label_written_again_in_several_sections_is_each_sections_item():
    labels = ["Short-term compensation", "Share-based payments", "Cash remuneration", "Share-based payments"]
    assert owners(labels, ["Executive management"] * 2 + ["Board of directors"] * 2) == {}
    assert owners(labels) == {1: "Short-term compensation", 3: "Cash remuneration"}  # no sections told


def test_dates_packed_left_over_a_repeated_group_of_columns_date_a_group_each():
    table = (
        "|  | December 31, 2012 | December 31, 2011 |  |  |\n|---|---|---|---|---|\n"
        "| In millions | Amortized Cost | Fair Value | Amortized Cost | Fair Value |\n"
        "| Total securities | $59,801 | $61,912 | $60,675 | $61,018 |"
    )
    evidence = [Evidence(n=1, tool="search_docs", text=table, source="report.md")]
    question = "What was the fair value of total securities at December 31, 2012?"
    assert check_answer("$61,912 million", question, evidence).grounding == "verified"
    assert check_answer("$61,018 million", question, evidence).unsupported == ["$61,018 million"]
