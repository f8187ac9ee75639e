"""Reading a CSV into sections: a plain table row by row, a report's table as a table."""

from __future__ import annotations

from engine.grounding.facts import stated_fact
from engine.grounding.models import Quote
from engine.rag.readers import CSV_ROWS_PER_SECTION, _csv

REPORT_CSV = (
    ',"Years ended December 31",\n'
    "(In millions of dollars),2019,2018\n"
    "Capital expenditures:,,\n"
    'Wireless,"1,320","1,086"\n'
    'Cable,"1,153","1,429"\n'
)


def test_a_plain_csv_is_read_row_by_row_with_its_column_names():
    sections = _csv("sales.csv", "region,revenue\nFrance,5392300\nBenelux,3104500\n")
    assert sections[0].text == "Columns of sales.csv: region, revenue"
    assert sections[1].text.splitlines() == ["region: France; revenue: 5392300", "region: Benelux; revenue: 3104500"]


def test_a_report_csv_with_a_header_over_two_rows_is_read_as_a_table():
    (section,) = _csv("table.csv", REPORT_CSV)
    lines = section.text.splitlines()
    assert lines[:3] == [
        "|  | Years ended December 31 |  |",
        "|---|---|---|",
        "| (In millions of dollars) | 2019 | 2018 |",
    ]  # both header rows over the body; the section row "Capital expenditures:" is body
    assert lines[3:] == ["| Capital expenditures: |  |  |", "| Wireless | 1,320 | 1,086 |", "| Cable | 1,153 | 1,429 |"]
    assert section.location == "rows 1-3"
    assert "(In millions of dollars): Cable" not in section.text  # no cell named after a blank header


def test_every_slice_of_a_long_report_csv_carries_the_header_rows():
    body = "".join(f'Row {i},"{i},000",{i}\n' for i in range(CSV_ROWS_PER_SECTION + 5))
    sections = _csv("table.csv", ',"June 30,",\n,2019,2018\n' + body)
    assert len(sections) == 2
    for section in sections:
        assert section.text.splitlines()[:3] == ["|  | June 30, |  |", "|---|---|---|", "|  | 2019 | 2018 |"]
    assert sections[1].location == f"rows {CSV_ROWS_PER_SECTION + 1}-{CSV_ROWS_PER_SECTION + 5}"


def test_a_hostile_cell_cannot_break_the_table_it_stands_in():
    (section,) = _csv("table.csv", ',Year,\n,2019,2018\nA | B,"1|2",3\n')
    assert section.text.splitlines()[-1] == "| A \\| B | 1\\|2 | 3 |"


def test_a_row_of_the_report_csv_is_quoted_with_its_label_and_year():
    (section,) = _csv("table.csv", REPORT_CSV)
    lines = section.text.splitlines()
    unit = "\n".join([lines[2], lines[-1]])  # the header row with the years, over the Cable row
    fact = stated_fact(
        "What was the Cable capital expenditure in 2018?",
        Quote(text=unit, evidence=1, source="t", score=1.0, preface=""),
    )
    assert fact.picked is not None and fact.picked.text == "1,429"
