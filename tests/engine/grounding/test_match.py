"""check_answer: figures traced to evidence (with rounding), flagged, or found in the question."""

import pytest

from engine.grounding import Evidence, check_answer
from engine.grounding.evidence_index import EvidenceIndex, cells, without_engine_notes

HOTELS = (
    "Analysts book rail for any trip under four hours. Hotel costs are capped at 160 euros per night in Paris "
    "and London, and 120 euros per night elsewhere. The meal allowance (per diem) is 45 euros per day."
)
TABLE = "quarter,region,product,revenue_eur,units,margin_pct\nQ1,France,Centrifuges,1564200,1303,37.3\nQ1,France,Microscopes,1438800,1692,37.0"


def calculator(n, expression, result):
    return Evidence(n=n, tool="calculator", text=result, input=f'{{"expression": "{expression}"}}', computed=True)


def doc(n, text, source="travel/policy.md", location="Hotels"):
    return Evidence(n=n, tool="search_docs", text=text, source=source, location=location)


def test_calculator_result_is_cited_with_its_expression():
    report = check_answer("17 * 23 = 391.", "What is 17 * 23?", [calculator(1, "17 * 23", "391")])
    assert report.grounding == "verified"
    assert report.unsupported == []
    assert [c.quote for c in report.citations] == ["17 * 23 = 391"]
    assert report.citations[0].source == "calculator"
    assert {f.text: f.citation for f in report.figures} == {"17": 1, "23": 1, "391": 1}


def test_wrong_result_after_the_calculator_is_unsupported():
    report = check_answer("17 * 23 = 291.", "What is 17 * 23?", [calculator(1, "17 * 23", "391")])
    assert report.unsupported == ["291"]
    assert report.grounding == "partly"


def test_prompt_example_figures_without_evidence_are_unsupported():
    report = check_answer("12 * 9 = 108.", "What is the hotel cap in Paris?", [doc(1, HOTELS)])
    assert report.unsupported == ["12", "9", "108"]
    assert report.grounding == "unsupported"
    assert report.citations == []


def test_cut_note_number_is_not_evidence():
    text = HOTELS + "\n[… 1298 more characters cut]"
    report = check_answer("The document has 1298 more characters.", "How long is it?", [doc(1, text)])
    assert report.unsupported == ["1298"]
    assert without_engine_notes(text).strip() == HOTELS


def test_document_figure_cited_with_its_sentence():
    report = check_answer("The cap is 160 € per night in Paris [policy.md].", "Hotel cap in Paris?", [doc(1, HOTELS)])
    assert report.grounding == "verified"
    (citation,) = report.citations
    assert citation.quote == (
        "Hotel costs are capped at 160 euros per night in Paris and London, and 120 euros per night elsewhere."
    )
    assert (citation.source, citation.location, citation.evidence) == ("travel/policy.md", "Hotels", 1)


def test_footnotes_numbered_in_order_of_first_use_and_shared_per_sentence():
    evidence = [doc(1, HOTELS), calculator(2, "160 * 3", "480")]
    report = check_answer("Three nights cost 480 euros at 160 euros a night (120 elsewhere).", "", evidence)
    by_text = {f.text: f.citation for f in report.figures}
    assert by_text == {"480 euros": 1, "160 euros": 2, "120": 2}
    assert [c.evidence for c in report.citations] == [2, 1]
    assert report.citations[0].quote == "160 * 3 = 480"


@pytest.mark.parametrize(
    ("answer", "evidence_text"),
    [
        ("It is 391.0", "391"),
        ("It is 65.5", "65.50"),
        ("It is 65.50", "65.5"),
        ("A third: 33.33%", "33.3333"),
        ("About 33.3 %", "33.3333"),
        ("Margin 4,7 %", "margin 4.7%"),
        ("20 000 people", "20,000 people"),
        ("20.000 personnes", "20000"),
        ("1,5 point", "1.5 points"),
        ("1,500 units", "1500 units"),
        ("€1,250.50", "1250.5"),
        ("48.2 million euros", "revenue of 48.2 million euros"),
        ("€48,200,000", "revenue of 48.2 million euros"),
        ("1.44 million euros", "1438800"),
        ("12 March 2025", "due 2025-03-12"),
        ("12 mars 2025", "due March 12, 2025"),
        ("03/12/2025", "due 12 March 2025"),
        ("03/12/2025", "due 3 December 2025"),
        ("in March 2025", "due 12 March 2025"),
        ("in 2025", "due 12 March 2025"),
        ("3 days", "up to three days a week"),
        ("3 jours", "jusqu'à trois jours par semaine"),
    ],
)
def test_found_in_any_format_and_rounding(answer, evidence_text):
    report = check_answer(answer, "", [doc(1, evidence_text)])
    assert report.unsupported == [], report
    assert report.grounding == "verified"


@pytest.mark.parametrize(
    ("answer", "evidence_text"),
    [
        ("It is 392", "391.4"),
        ("A third: 33.34%", "33.3333"),
        ("12 March 2025", "due 2025-03-13"),
        ("1,500 units", "2 units"),
        ("4 days", "up to three days a week"),
    ],
)
def test_other_values_are_not_found(answer, evidence_text):
    report = check_answer(answer, "", [doc(1, evidence_text)])
    assert report.grounding == "unsupported"
    assert len(report.unsupported) == 1


def test_table_row_quoted_with_its_header():
    evidence = [Evidence(n=3, tool="query_table", text=TABLE, computed=True)]
    report = check_answer("Microscopes: €1,438,800 at 37.0% margin.", "Q1 microscopes?", evidence)
    assert report.grounding == "verified"
    (citation,) = report.citations
    assert (
        citation.quote == "quarter,region,product,revenue_eur,units,margin_pct\nQ1,France,Microscopes,1438800,1692,37.0"
    )
    assert citation.source == "query_table"


def test_csv_cells_are_separate_numbers_but_thousands_stay_whole():
    assert cells("Q1,France,1303,37.3") == "Q1\tFrance\t1303\t37.3"
    assert cells("revenue of 1,250,000 euros") == "revenue of 1,250,000 euros"
    report = check_answer("1303 units", "", [doc(1, TABLE)])
    assert report.unsupported == []


def test_computed_ratio_matches_a_percentage():
    stats = Evidence(n=1, tool="statistics", text='{"share": 0.3333}', computed=True)
    assert check_answer("a share of 33.33%", "", [stats]).grounding == "verified"
    document = doc(2, "the share was 0.3333")
    assert check_answer("a share of 33.33%", "", [document]).grounding == "unsupported"


def test_input_figures_count_only_when_computed():
    search = Evidence(n=1, tool="search_docs", text="No passage found.", input='{"query": "budget 2026"}')
    assert check_answer("The 2026 budget", "", [search]).unsupported == ["2026"]
    calc = calculator(1, "2026 - 2025", "1")
    assert check_answer("2026 - 2025 = 1", "", [calc]).grounding == "verified"


def test_figures_from_the_question_are_found_without_a_footnote():
    report = check_answer("Yes, 250 euros is above the cap.", "Is 250 euros above the cap?", [doc(1, HOTELS)])
    assert report.unsupported == []
    assert report.figures[0].citation is None
    assert report.grounding == "verified"


def test_ignore_skips_figures():
    report = check_answer("Step 3: the cap is 160 euros.", "", [doc(1, HOTELS)], ignore=["3"])
    assert [f.text for f in report.figures] == ["160 euros"]
    assert report.grounding == "verified"


def test_invented_source_misspelt_variant():
    evidence = [doc(1, HOTELS, source="travel/travel-policy.md")]
    answer = "The cap is 160 euros [travel-polcy.md]; see also (source: travel-policy.md)."
    report = check_answer(answer, "", evidence)
    assert report.invented_sources == ["travel-polcy.md"]
    assert report.grounding == "partly"


@pytest.mark.parametrize(
    "answer",
    [
        "The cap is 160 euros [TRAVEL-POLICY.md].",
        "The cap is 160 euros [travel/travel-policy.md].",
        "From travel-policy.md: the cap is 160 euros.",
        "D'après travel-policy.md, le plafond est de 160 euros.",
        "The cap is 160 euros (source: travel-policy.md, Hotels).",
    ],
)
def test_real_sources_any_case_base_name_or_path(answer):
    report = check_answer(answer, "", [doc(1, HOTELS, source="travel/travel-policy.md")])
    assert report.invented_sources == []
    assert report.grounding == "verified"


def test_only_invented_sources_is_unsupported():
    report = check_answer("See the policy [hr_policy.md].", "", [doc(1, HOTELS)])
    assert report.invented_sources == ["hr_policy.md"]
    assert report.grounding == "unsupported"


def test_sources_cited_and_real_without_figures_is_verified():
    report = check_answer("Rail is preferred [policy.md].", "", [doc(1, HOTELS)])
    assert report.grounding == "verified"


def test_nothing_to_check_is_none():
    assert check_answer("The capital of France is Paris.", "", []).grounding == "none"


def test_figures_in_source_names_do_not_count():
    evidence = [doc(1, "Revenue grew.", source="sales_2025.csv")]
    report = check_answer("Revenue grew [sales_2025.csv].", "", evidence)
    assert report.figures == []
    assert report.grounding == "verified"


def test_quote_is_bounded_around_the_figure():
    long_sentence = "The figure " + "and more words " * 60 + "is 777 in the end " + "tail " * 40 + "."
    report = check_answer("It is 777.", "", [doc(1, long_sentence)])
    (citation,) = report.citations
    assert len(citation.quote) <= 302
    assert "777" in citation.quote


def test_prebuilt_index_gives_the_same_report():
    evidence = [doc(1, HOTELS), calculator(2, "160 * 3", "480")]
    answer = "480 euros for 3 nights at 160 euros; 12 March 2025."
    index = EvidenceIndex(evidence)
    assert check_answer(answer, "", evidence, index=index) == check_answer(answer, "", evidence)


def test_hostile_inputs_do_not_break_the_check():
    nested = "[" * 500 + "1" + "]" * 500
    huge = "9" * 5000
    report = check_answer(nested + " " + huge + " (source: " + "a" * 150 + ")", "", [doc(1, HOTELS)])
    assert report.unsupported == [huge]  # too long for a float: matches nothing, flagged
    assert report.invented_sources == ["a" * 150]
    assert report.grounding == "unsupported"
    assert check_answer("", "", []).grounding == "none"


def test_file_name_printed_by_a_tool_is_a_real_source():
    listing = Evidence(n=1, tool="list_documents", text="Documents: travel/policy.md, hr/leave.md")
    assert check_answer("See [leave.md].", "", [listing]).invented_sources == []
    assert check_answer("See [leaves.md].", "", [listing]).invented_sources == ["leaves.md"]


def test_search_result_headers_are_no_evidence():
    raw = f"[1] source: travel/policy.md · Hotels · score 0.71\n{HOTELS}\n\nCite the sources you use as [source file]."
    report = check_answer("Score 0.71, rank 1: the cap is 160 euros [policy.md].", "", [doc(1, raw, source=None)])
    assert report.unsupported == ["0.71", "1"]
    assert report.invented_sources == []  # the header named it: the run returned it
    assert report.citations[0].quote.startswith("Hotel costs are capped")


def test_index_grown_one_observation_at_a_time():
    evidence = [doc(1, HOTELS), calculator(2, "160 * 3", "480"), doc(3, "Paid on 12 March 2025.", source="b.md")]
    index = EvidenceIndex()
    index.add(evidence[0])
    answer = "480 euros for 3 nights at 160 euros, paid on 12 March 2025."
    assert check_answer(answer, "", evidence[:1], index=index).unsupported == ["480 euros", "3", "12 March 2025"]
    for ev in evidence[1:]:
        index.add(ev)  # dates indexed before the add are indexed again with the new evidence
    assert check_answer(answer, "", evidence, index=index) == check_answer(answer, "", evidence)
    assert check_answer(answer, "", evidence, index=index).unsupported == []


def test_page_numbers_inside_a_citation_are_not_figures():
    report = check_answer(
        "The cap is 160 euros [policy.md, p. 3] (source: policy.md, section 2).", "", [doc(1, HOTELS)]
    )
    assert [f.text for f in report.figures] == ["160 euros"]
    assert report.grounding == "verified"


# Support from the right cell or sentence: the question's subject and period.

REPORT_TABLE = """ | Year ended December 31, |
 | 2019 | 2018
Software | 1,950 | 1,538
Other | 44.1 | 56.7
Total | 1,994.1 | 1,594.7"""
FISCAL = (
    "Wages and salaries also include expenses for long-term remuneration components totalling €7 million "
    "(2017/18: €16 million). In 2017, the licensing business had revenue of $3.3 million. "
    "In 2019, the licensing business had revenue of $5.2 million."
)


def report_table(n=1):
    return Evidence(n=n, tool="query_table", text=REPORT_TABLE, source="table.csv", computed=True)


def test_a_figure_of_another_row_is_flagged_with_where_it_was_found():
    report = check_answer("Total revenue was 56.7 in 2019.", "What was the Total revenue in 2019?", [report_table()])
    assert report.unsupported == ["56.7"]
    assert report.grounding == "partly"  # the year is found
    assert report.notes == ["56.7 is Other, 2018, not Total, 2019"]
    (item,) = report.misplaced
    assert (item.figure, item.found, item.expected, item.evidence, item.in_table) == (
        "56.7", "Other, 2018", "Total, 2019", 1, True
    )  # fmt: skip


def test_a_figure_of_another_year_is_flagged():
    report = check_answer("Software revenue was 1,538.", "What was Software revenue in 2019?", [report_table()])
    assert report.unsupported == ["1,538"]
    assert report.notes == ["1,538 is Software, 2018, not Software, 2019"]


def test_the_note_is_in_the_checks_language():
    report = check_answer(
        "1,538", "Quel était le chiffre d'affaires Software en 2019 ?", [report_table()], language="fr"
    )
    assert report.notes == ["1,538 correspond à Software, 2018, et non à Software, 2019"]


def test_a_right_figure_from_the_right_row_stays_verified_and_cites_its_row():
    report = check_answer("Software revenue was 1,950 in 2019.", "What was Software revenue in 2019?", [report_table()])
    assert report.grounding == "verified"
    assert report.unsupported == [] and report.misplaced == [] and report.notes == []
    citation = report.citations[report.figures[0].citation - 1]
    assert report.figures[0].text == "1,950"
    assert citation.derivation is None
    assert citation.quote.endswith("Software | 1,950 | 1,538")


def test_a_figure_the_answer_dates_itself_is_not_misplaced():
    answer = "Software revenue was 1,950 in 2019, up from 1,538 in 2018."
    report = check_answer(answer, "What was Software revenue in 2019?", [report_table()])
    assert report.grounding == "verified"
    assert report.misplaced == []


PLAN = (
    "On April 30, 2018, the shareholders approved an amendment to the Plan to increase by 2,000,000 the number of "
    "shares of our common stock authorized for issuance under the Plan.\n\nWith the amendment, approximately "
    "4,650,000 shares of our common stock are authorized for issuance under the Plan."
)


def test_a_figure_written_as_a_change_does_not_answer_a_question_asking_the_level():
    docs = [Evidence(n=1, tool="search_docs", text=PLAN, source="report.md")]
    asked = "What is the authorized common stock for issuance under the plan?"
    report = check_answer("2,000,000", asked, docs)
    assert report.unsupported == ["2,000,000"] and report.grounding == "unsupported"
    assert report.notes == ["2,000,000 is written as a change (“to increase by 2,000,000”), not as the figure asked"]
    assert check_answer("4,650,000", asked, docs).grounding == "verified"
    increase = "What is the number of shares to be increased under the shareholders approved amendment?"
    assert check_answer("2,000,000", increase, docs).grounding == "verified"


@pytest.mark.parametrize(
    ("question", "grounding"),
    [
        ("What was the licensing revenue in 2019?", "unsupported"),
        ("By how much did licensing revenue increase in 2019?", "verified"),
        ("What was the change in licensing revenue in 2019?", "verified"),
        ("How much did licensing revenue grow in 2019?", "verified"),
    ],
)
def test_a_change_stated_beside_a_level_supports_only_a_question_about_the_change(question, grounding):
    text = "Licensing revenue increased by $5.2 million to $48.1 million in 2019. Service revenue was $12.0 million."
    docs = [Evidence(n=1, tool="search_docs", text=text, source="report.md")]
    assert check_answer("$5.2 million", question, docs).grounding == grounding
    assert check_answer("$48.1 million", "What was the licensing revenue in 2019?", docs).grounding == "verified"


def test_the_change_note_is_in_the_checks_language():
    docs = [Evidence(n=1, tool="search_docs", text=PLAN, source="report.md")]
    report = check_answer("2 000 000", "Quel est le nombre d'actions autorisées pour le plan ?", docs, language="fr")
    assert report.notes == [
        "2 000 000 est écrit comme une variation (« to increase by 2,000,000 »), et non comme le chiffre demandé"
    ]


@pytest.mark.parametrize("question", ["", "Summarise the table.", "What does it show?"])
def test_a_question_with_no_subject_or_period_is_checked_as_before(question):
    report = check_answer("Other was 56.7 and Software 1,538.", question, [report_table()])
    assert report.grounding == "verified"
    assert report.misplaced == []


def test_a_sentence_dates_a_figure_by_its_own_clause():
    evidence = [doc(1, FISCAL, source="report.md", location="Personnel")]
    question = "What were the long-term remuneration components in FY2019?"
    assert (
        check_answer("€7 million", question, evidence).grounding == "verified"
    )  # "(2017/18: …)" dates €16 million only
    report = check_answer("$3.3 million", "What was the licensing revenue in 2019?", evidence)
    assert report.unsupported == ["$3.3 million"]
    assert report.notes == ["$3.3 million is in a passage about 2017, not 2019"]
    assert report.misplaced[0].in_table is False


def test_a_derived_figure_is_not_flagged_for_matching_another_cell():
    # 412 is no cell of Software, but 1,950 - 1,538 of Software, 2019 and 2018
    evidence = [Evidence(n=1, tool="query_table", text=REPORT_TABLE + "\nServices | 350 | 412", computed=True)]
    report = check_answer("412", "What was the change in Software revenue from 2018 to 2019?", evidence)
    assert report.grounding == "verified"
    assert report.citations[0].derivation == "412 = 1,950 − 1,538 (query_table, Software, 2019 and 2018)"


def test_a_figure_of_another_scale_is_not_supported_by_its_digits():
    evidence = [doc(1, "Software costs were $7.8 million in 2018 and $6.1 million in 2019.", source="report.md")]
    question = "What were software costs in 2018?"
    assert check_answer("$7.8 million", question, evidence).grounding == "verified"
    report = check_answer("8 thousand", question, evidence)
    assert report.unsupported == ["8 thousand"]
    assert report.notes == ["8 thousand: the evidence says 7.8 million"]
    assert report.misplaced[0].other_scale is True


def test_a_pair_of_periods_naming_one_year_twice_is_flagged_unless_the_evidence_writes_it():
    from engine.grounding import Evidence as Ev

    shown = "The table shows expenditure incurred in the R&D centers during FY 2019 and FY 2018."
    docs = [Ev(n=1, tool="search_documents", text=shown, source="report.md")]
    question = "What does the table show?"
    wrong = check_answer("Expenditure incurred in the R&D centers during FY 2018 and FY 2018", question, docs)
    assert wrong.unsupported == ["2018"] and "twice" in wrong.notes[0]
    assert (
        check_answer("Expenditure incurred in the R&D centers during FY 2019 and FY 2018", question, docs).unsupported
        == []
    )


def test_a_figure_of_a_sentence_about_another_initialism_is_misplaced():
    text = (
        "The Company's U.S. warehouse cost $41.8 million and $39.4 million in 2019 and 2018, respectively. "
        "The U.K. warehouse cost $31.2 million in 2018."
    )
    docs = [Evidence(n=1, tool="search_docs", text=text, source="report.md")]
    asked = "How much did the U.K. warehouse cost in 2018?"
    report = check_answer("$39.4 million", asked, docs)
    assert report.grounding == "unsupported" and report.notes == ["$39.4 million is in a passage about US, not UK"]
    assert check_answer("$31.2 million", asked, docs).grounding == "verified"
    assert (
        check_answer("$31.2 million", "How much did the United Kingdom warehouse cost?", docs).grounding == "verified"
    )
    assert check_answer("$39.4 million", "How much did the U.S. warehouse cost in 2018?", docs).grounding == "verified"


def test_a_percentage_is_never_supported_by_an_amount_of_money_read_the_continental_way():
    """ "$1,788 million" may read 1.788 (a decimal comma); "1.8%" is no amount of money."""
    from engine.grounding import Evidence, check_answer

    sentence = (
        "Cash flows from operating activities were $2,091 million in Q4 2019 compared to $1,788 million in Q4 2018."
    )
    evidence = [Evidence(n=1, tool="search_docs", text=sentence, source="report.md")]
    wrong = check_answer("1.8%", "What is the percentage change in operating revenues in 2019?", evidence)
    assert wrong.unsupported == ["1.8%"]
    right = check_answer("$1,788 million", "What were the cash flows from operating activities in Q4 2018?", evidence)
    assert right.grounding == "verified"
    rate = [Evidence(n=1, tool="search_docs", text="The rate was 1,8 % in 2019.", source="note.md")]
    assert check_answer("1.8%", "What was the rate in 2019?", rate).grounding == "verified"  # a decimal comma, no money
