"""The fact an evidence answer states first: one figure picked by the question, or the
candidates labelled when the passage does not pin one down."""

import pytest

from engine.grounding.facts import cite_passage, computed_fact, row_cells, sentence_fact, stated_fact
from engine.grounding.models import Citation, Figure, GroundingReport, Quote
from engine.react.fact_answer import each_year


def quote(text: str, **update) -> Quote:
    return Quote(text=text, evidence=1, source="report.md", score=1.0, preface="From report.md:", **update)


ROW = "Segment | 2019 | 2018\nSoftware | 1,950 | 1,538"


def picked(question: str, text: str) -> str | None:
    fact = stated_fact(question, quote(text))
    return fact.picked.text if fact.picked else None


def test_row_cells_read_pipes_markdown_and_csv():
    assert row_cells(ROW) == (["Segment", "2019", "2018"], ["Software", "1,950", "1,538"])
    assert row_cells("| a | b |\n| x | 1 |") == (["a", "b"], ["x", "1"])
    assert row_cells('name,amount\n"Paris, FR",120') == (["name", "amount"], ["Paris, FR", "120"])
    assert row_cells("The cap is 180 euros per night.") is None


def test_a_row_with_two_years_is_not_pinned_without_a_year_and_labels_each_cell():
    fact = stated_fact("What was Software revenue?", quote(ROW))
    assert fact.several and [(c.text, c.label) for c in fact.candidates] == [
        ("1,950", "Software, 2019"),
        ("1,538", "Software, 2018"),
    ]


@pytest.mark.parametrize(
    "question, expected",
    [
        ("What was Software revenue in 2018?", "1,538"),
        ("Software revenue in fiscal 2019?", "1,950"),
    ],
)
def test_the_year_named_pins_the_column(question, expected):
    assert picked(question, ROW) == expected


def test_a_column_header_the_question_names_pins_the_cell():
    row = "warehouse | pallets_shipped | trucks\nGdansk | 2496 | 14"
    assert picked("How many pallets were shipped from Gdansk?", row) == "2496"
    assert stated_fact("What are Gdansk's figures?", quote(row)).several


def test_the_kind_asked_for_pins_the_figure_in_a_sentence():
    text = "Backups are kept for 32 days on 3 servers."
    assert picked("How long are backups kept?", text) == "32 days"
    assert picked("What share of staff work remotely?", "Of our 420 staff, 35 % work remotely.") == "35 %"


def test_a_list_of_amounts_for_one_subject_is_not_pinned_by_its_first_clause():
    text = "Revenue was €5.2m in 2019, €4.8m in 2018 and €4.1m in 2017."
    fact = stated_fact("What was revenue?", quote(text))
    assert [c.text for c in fact.candidates] == ["€5.2m", "€4.8m", "€4.1m"]  # the scale stays with the figure
    assert [c.label for c in fact.candidates][1:] == ["in 2018", "in 2017"]
    assert picked("What was revenue in 2018?", text) == "€4.8m"


def test_clauses_that_repeat_the_first_clauses_words_continue_its_subject():
    """ "and $0.6 million during fiscal year 2018" says no subject of its own: it is not pinned away."""
    text = (
        "The reductions in LIFO-valued inventories decreased cost of sales by $0.0 million during fiscal year 2019"
        " and $0.6 million during fiscal year 2018 and $0.0 million during fiscal year 2017."
    )
    fact = stated_fact("What was the effect of reductions in LIFO-valued inventories?", quote(text))
    assert fact.several and [c.text for c in fact.candidates] == ["$0.0 million", "$0.6 million", "$0.0 million"]
    assert picked("What was the effect of reductions in LIFO-valued inventories in 2018?", text) == "$0.6 million"


def test_a_clause_about_something_else_does_not_compete():
    text = "The hotel cap in Paris is 180 euros per night, and 120 euros elsewhere in France."
    assert picked("What is the hotel cap per night in Paris?", text) == "180 euros per night"


def test_a_glued_subunit_and_the_counted_thing_stay_with_the_figure():
    pence = "The weighted average market value per ordinary share for options exercised in 2019 was 445.0p (2018: n/a)."
    assert picked("What was the weighted average market value per ordinary share in 2019?", pence) == "445.0p"
    granted = "In 2017, a total of 866.6 RSUs were granted to other management and 120 to directors."
    assert picked("How many RSUs were granted in 2017 to other management?", granted) == "866.6 RSUs"
    # a word after the figure that the question does not count stays out
    assert picked("How many were granted in 2017 to other management?", granted) == "866.6"
    assert picked("What was the price in 2019?", "The price in 2019 was 12 pounds, or 1,200p in total.") != "12p"


def test_the_qualifier_written_after_a_figure_pins_the_initialism_the_question_names():
    text = (
        "As of December 31, 2019, the Company has a valuation allowance of $191.7 million against its U.S. deferred"
        " tax assets and a valuation allowance of $52.9 million against certain of its foreign deferred tax assets."
    )
    us = "What is the Company's valuation allowance against its U.S deferred tax assets as of December 31, 2019?"
    assert picked(us, text) == "$191.7 million"
    # the question names no initialism: both allowances stay candidates, none is stated as the answer
    assert picked(us.replace("U.S", "foreign"), text) is None


def test_a_clause_of_the_subject_outranks_a_clause_that_only_names_the_year():
    text = (
        "The market price per share of Prozone at 31 December 2019 was INR19 (31 December 2018: INR29), valuing the"
        " Group’s interest at £9.9 million (31 December 2018: £16.4 million) compared with the Prozone carrying value"
        " pre-impairment of £41.5 million (31 December 2018: £45.1 million)."
    )
    assert picked("What is the Prozone pre-impairment carrying value at 31 December 2019?", text) == "£41.5 million"
    assert picked("What is the market price per share of Prozone at 31 December 2019?", text) == "INR19"
    assert picked("What is the value of the Group's interest at 31 December 2019?", text) == "£9.9 million"
    # the year still pins a clause that names it over one that says nothing of the subject
    assert picked("What was revenue in 2019?", "In 2019 revenue was €5.2m, compared with €4.8m.") == "€5.2m"


def test_a_passage_without_a_figure_of_the_kind_states_itself_and_who_is_a_name():
    assert stated_fact("Who manages the site?", quote("Its manager is Solène Marchetti.")).picked.text == (
        "Solène Marchetti"
    )
    fact = stated_fact("When is the office open?", quote("The office opens every weekday."))
    assert fact.candidates == [] and fact.statement == "The office opens every weekday."


def test_a_computed_result_is_stated_first_with_its_derivation():
    fact = computed_fact("sum of pallets in shipments where warehouse = Gdansk = 4445")
    assert (fact.picked.text, fact.picked.label) == ("4445", "sum of pallets in shipments where warehouse = Gdansk")
    assert computed_fact("Export, €960,800").statement == "Export, €960,800"  # no "= result" to reorder


def test_cite_passage_points_the_fact_at_its_passage_and_renumbers():
    other = Citation(n=1, source="report.md", quote="Hardware | 1,538", evidence=1)
    kept = Citation(n=2, source="notes.md", quote="Costs were 12.", evidence=2)
    report = GroundingReport(
        figures=[
            Figure(text="1,538", start=0, end=5, kind="number", value="1538", citation=1),
            Figure(text="12", start=40, end=42, kind="number", value="12", citation=2),
        ],
        citations=[other, kept],
    )
    row = quote("Segment | 2018\nSoftware | 1,538")
    fact = stated_fact("Software in 2018?", row)
    out = cite_passage(report, row, fact, end=30)
    assert [c.quote for c in out.citations] == [row.text, "Costs were 12."]
    assert [f.citation for f in out.figures] == [1, 2]


def test_respectively_gives_each_figure_its_year_before_or_after_the_figures():
    after = "Volume was $29.6 billion, $28.2 billion, and $27.0 billion in fiscal 2019, 2018, and 2017, respectively."
    assert picked("What was the volume in fiscal 2018?", after) == "$28.2 billion"
    before = (
        "For fiscal 2019, 2018 and 2017 the provision is $5.7 million, $3.8 million, and $3.1 million, respectively."
    )
    fact = stated_fact("What was the provision?", quote(before))
    assert [(c.text, c.label) for c in fact.candidates] == [
        ("$5.7 million", "2019"),
        ("$3.8 million", "2018"),
        ("$3.1 million", "2017"),
    ]


def test_a_date_is_context_not_the_answer_unless_the_question_asks_when():
    text = "As of September 27, 2019, we had $923.4 million of gross federal net operating loss carryforwards."
    assert picked("What was the gross federal net operating loss in 2019?", text) == "$923.4 million"
    assert picked("When was the loss measured?", text) == "September 27, 2019"


def test_a_question_about_a_reason_is_answered_by_the_sentence_not_its_figure():
    text = "Total revenue for 2019 decreased 23% as compared to 2018 primarily due to pricing declines."
    fact = stated_fact("What caused the decrease of total revenue from 2018 to 2019?", quote(text))
    assert fact.candidates == [] and fact.statement == text


def test_report_table_cells_plain_numbers_answer_amounts_and_change_columns_only_changes():
    row = " | 2019 | 2018\nRoyalties | 163,047 | 155,939"
    assert picked("What is the amount of royalties in 2019?", row) == "163,047"
    changes = "Item | 2019 | 2019 %\nLoss | 120 | (12.5%)"
    assert picked("What was the loss in 2019?", changes) == "120"
    assert picked("What was the percentage change of the loss in 2019?", changes) == "(12.5%)"


def test_a_header_cell_spans_the_empty_cells_after_it_so_its_columns_stay_unsure():
    row = " | Fiscal 2019 |  | Fiscal 2018 | \nFirst Quarter | $ 83.14 | $ 63.81 | $ 45.24 | $ 37.43"
    fact = stated_fact("What was the price per share in the first quarter of 2019?", quote(row))
    assert [(c.text, c.label) for c in fact.candidates] == [
        ("$ 83.14", "First Quarter, Fiscal 2019"),
        ("$ 63.81", "First Quarter, Fiscal 2019"),
    ]


def test_a_defined_term_in_quotes_is_not_the_person_who_answers():
    text = "We maintain a pension plan (“Qualified Plan”) covering all full-time employees."
    assert stated_fact("Who is covered under the pension plan?", quote(text)).picked is None


def test_an_area_answers_only_a_question_about_an_area():
    text = "L'entrepôt couvre une surface de 6 200 m² et dispose de 7 quais de chargement."
    assert picked("How many loading docks does the Lyon office have?", text) == "7"
    assert picked("Quelle est la surface de l'entrepôt ?", text) == "6 200 m²"


def test_the_words_that_bound_a_figure_are_stated_with_it():
    ranked = "In 2019, we were ranked among the top 5% of companies in the Corporate Governance Evaluation."
    assert picked("What was the company's rank in 2019 in the evaluation?", ranked) == "among the top 5%"
    assert picked("How many staff work remotely?", "More than 400 staff work remotely.") == "More than 400 staff"
    assert picked("How many staff work remotely?", "Of our staff, 400 work remotely.") == "400"  # nothing to bound it


def test_a_footnote_mark_is_no_figure_of_the_passage():
    footnote = "(1) Classified as income tax expense within the Consolidated Statements of Operations."
    assert sentence_fact("What was the tax benefit in 2019?", footnote, "amount").candidates == []
    marked = "Tax benefit for stock compensation expense(1) was $611 in 2019."
    assert [c.figure for c in sentence_fact("What was the tax benefit in 2019?", marked, "amount").candidates] == [
        "$611"
    ]
    loss = "The loss was (1) million."  # a figure in parentheses inside a sentence stays one
    assert [c.figure for c in sentence_fact("What was the loss?", loss, "amount").candidates] == ["1"]


def test_a_loss_stated_for_the_profit_asked_is_a_negative_profit_in_each_year():
    text = "Segment gross profit was a loss of $3.5 million in fiscal 2018 compared to a loss of $3.1 million in fiscal 2017."
    fact = each_year("What was the segment gross profit in fiscal 2018 and 2017 respectively?", stated_fact(
        "What was the segment gross profit in fiscal 2018 and 2017 respectively?", quote(text)))  # fmt: skip
    assert fact.each and [c.text for c in fact.candidates] == ["−$3.5 million", "−$3.1 million"]
    loss = stated_fact("What was the segment loss in fiscal 2018 and 2017?", quote(text))
    assert [c.text for c in loss.candidates] == ["$3.5 million", "$3.1 million"]  # the loss asked is the loss written


def test_an_operation_asked_is_not_stated_by_one_cell_of_a_row():
    """ "The difference between the low and high price" is computed: a row's one cell, quoted, is not sure."""
    from engine.react.fact_answer import fact_line

    row = Quote(text="|  | Low | High |\n| First Quarter | $ 5.50 | $ 8.00 |", evidence=1, source="table.csv",
                score=1.0, preface="From table.csv:")  # fmt: skip
    asked = "In the first quarter, what is the difference between the low and high price?"
    line, _, _ = fact_line(asked, row, "en")
    assert line.startswith("Not sure")
    changed = Quote(text="|  | 2019 | % Change |\n| Revenue | $ 8.00 | 12% |", evidence=1, source="table.csv",
                    score=1.0, preface="From table.csv:")  # fmt: skip
    line, _, _ = fact_line("What was the percentage change in revenue?", changed, "en")
    assert not line.startswith("Not sure") and "12%" in line
    variance = Quote(text="|  | Variance |\n| Revenue | 1.00 |", evidence=1, source="table.csv", score=1.0,
                     preface="From table.csv:")  # fmt: skip
    line, _, _ = fact_line("What was the difference in revenue between 2019 and 2018?", variance, "en")
    assert line.startswith("1.00 (Revenue, Variance)")  # the column is the difference: its cell states it


@pytest.mark.parametrize(
    ("question", "stated"),
    [
        ("How much did operating income in the segment change by in 2019?", "decreased $352 million"),
        ("How much did operating income in the segment decrease by in 2019?", "$352 million"),  # the way is asked
        ("What was the operating income in 2019?", "$352 million"),
    ],
)
def test_a_change_asked_without_its_way_is_stated_with_the_way_it_moved(question, stated):
    text = "Operating income in the segment decreased $352 million in fiscal 2019 as compared to fiscal 2018."
    fact = sentence_fact(question, text, None)
    assert [c.text for c in fact.candidates] == [stated]


def test_a_level_asked_is_not_stated_by_a_figure_written_as_a_change():
    from engine.react.fact_answer import fact_line

    passage = Quote(text="Research and development expenses increased $1.7 billion, due to cloud engineering.",
                    evidence=1, source="report.md", score=1.0, preface="From report.md:")  # fmt: skip
    line, _, _ = fact_line("How much were the research and development expenses in 2018?", passage, "en")
    assert line.startswith("Not sure")
    line, _, _ = fact_line("By how much did research and development expenses increase in 2018?", passage, "en")
    assert line == "$1.7 billion [report.md]"


def test_a_list_item_number_is_no_fact_of_its_sentence():
    # the quote ends where a list opens: its "1." numbers the first item and states nothing
    question = "what were the total revenues in 2009 of which the consulting segment generated 17%?"
    text = (
        "our consulting segment generated 17% (17%) of our consolidated total revenues in 2009 and provides "
        "a range of consulting services, as follows: consulting services: 1."
    )
    fact = sentence_fact(question, text, None)
    assert "1" not in [c.figure for c in fact.candidates]
    assert fact.candidates == [] and fact.statement.startswith("our consulting segment")
    # a figure of the list's item is still one
    listed = sentence_fact("What is the retirement plan cost?", "Costs:\n1. Retirement plans cost 45 million.", None)
    assert [c.figure for c in listed.candidates] == ["45 million"]
