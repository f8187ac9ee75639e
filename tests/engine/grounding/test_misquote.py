"""A figure changed inside a sentence the answer copies is what the sentence says, not a figure found elsewhere."""

from engine.grounding import Evidence, check_answer
from engine.grounding.figures import extract_figures
from engine.grounding.misquote import misquoted

REPORT = (
    "Consolidated revenue increased by 5% in 2018, reflecting revenue growth of 2% in Wireless.\n\n"
    "Cable revenue increased by 1% as the increase in Internet revenue from the general movement of customers "
    "was partially offset by the decrease in legacy Television subscribers."
)
EVIDENCE = [Evidence(n=1, tool="search_docs", text=REPORT, source="report.md", rank=0)]
QUESTION = "What led to increase in cable revenue in 2018?"


def test_a_figure_changed_in_a_copied_sentence_is_flagged_with_the_sentences_figure():
    wrong = "Cable revenue increased by 2% as the increase in Internet revenue from the general movement of customers."
    report = check_answer(wrong, QUESTION, EVIDENCE)  # 2% stands in the evidence, in another sentence
    assert report.unsupported == ["2%"] and report.notes == ["2% is 1% in the sentence the answer quotes"]
    french = check_answer(wrong, QUESTION, EVIDENCE, language="fr")
    assert french.notes == ["2% vaut 1% dans la phrase que cite la réponse"]


def test_the_sentence_as_written_and_a_figure_in_other_words_are_not_misquotes():
    right = "Cable revenue increased by 1% as the increase in Internet revenue from the general movement of customers."
    assert check_answer(right, QUESTION, EVIDENCE).grounding == "verified"
    answer = "Wireless grew by 2% in 2018."  # its own words: judged as any figure
    assert misquoted(answer, extract_figures(answer)[0], [REPORT], [REPORT.lower()]) is None


def test_a_figure_changed_near_the_opening_of_a_copied_sentence_is_caught():
    from engine.grounding import Evidence, check_answer

    said = "Americas revenue decreased 1.9 percent as reported (1 percent adjusted for currency) in 2019."
    docs = [Evidence(n=1, tool="search_documents", text=said, source="report.md")]
    question = "What was the movement in Americas revenue?"
    changed = check_answer(
        "Americas revenue decreased 2.1 percent as reported (1 percent adjusted for currency)", question, docs
    )
    assert changed.unsupported == ["2.1 percent"] and "1.9 percent" in changed.notes[0]
    kept = check_answer(
        "Americas revenue decreased 1.9 percent as reported (1 percent adjusted for currency)", question, docs
    )
    assert kept.unsupported == []


def test_a_standards_number_changed_at_the_opening_is_caught():
    from engine.grounding import Evidence, check_answer

    said = "The Group adopted IFRS 9 ‘Financial Instruments’, IFRS 15 ‘Revenue from Contracts with Customers’ in 2018."
    docs = [Evidence(n=1, tool="search_documents", text=said, source="report.md")]
    question = "Which IFRS standards did the Group adopt?"
    assert check_answer(
        "IFRS 10 ‘Financial Instruments’, IFRS 15 ‘Revenue from Contracts", question, docs
    ).unsupported == ["10"]
    assert (
        check_answer("IFRS 9 ‘Financial Instruments’, IFRS 15 ‘Revenue from Contracts", question, docs).unsupported
        == []
    )


def test_a_year_changed_where_the_answer_closes_on_it_is_caught():
    from engine.grounding import Evidence, check_answer

    said = (
        "The increase was due to intangibles for companies acquired by CTS in fiscal year 2019. Revenue rose in 2018."
    )
    docs = [Evidence(n=1, tool="search_documents", text=said, source="report.md")]
    question = "What resulted in the increase in amortization?"
    changed = check_answer("intangibles for companies acquired by CTS in fiscal year 2018.", question, docs)
    assert changed.unsupported == ["2018"] and "2019" in changed.notes[0]
    assert (
        check_answer("intangibles for companies acquired by CTS in fiscal year 2019.", question, docs).unsupported == []
    )


def test_the_figure_of_a_copied_sentence_read_with_its_scale_or_unit_is_the_same():
    from engine.grounding import Evidence, check_answer

    said = "Cost of sales includes $2,496 million of inventory costs for 2019 (2018 – $2,515 million). It lasts between 12 and 24 months."
    docs = [Evidence(n=1, tool="search_documents", text=said, source="report.md")]
    kept = check_answer(
        "Cost of sales includes $2,496 million of inventory costs for 2019 (2018 – $2,515 million).",
        "What is included in cost of sales?",
        docs,
    )
    assert kept.unsupported == []
    assert check_answer("It lasts between 12 and 24 months", "How long does it last?", docs).unsupported == []


def test_a_year_changed_a_few_words_before_the_answer_ends_is_caught():
    said = (
        "The charge for the year includes an estimate of the awards to be granted after the balance sheet date in "
        "respect of achievement of 2019 targets. The 2018 charge was lower."
    )
    docs = [Evidence(n=1, tool="search_docs", text=said, source="report.md")]
    question = "What does the charge for the year include?"
    quoted = (
        "an estimate of the awards to be granted after the balance sheet date in respect of achievement of {} targets."
    )
    changed = check_answer(quoted.format(2018), question, docs)
    assert changed.unsupported == ["2018"] and changed.notes == ["2018 is 2019 in the sentence the answer quotes"]
    assert check_answer(quoted.format(2019), question, docs).grounding == "verified"


CONTRACTS = """| | Total | Less than 1 year | 1-3 years | 3-5 years | After 5 years |
|---|---|---|---|---|---|
| Notes payable | 2,496 | 100 | 200 | 2 | 400 |"""


def test_an_item_of_a_list_is_read_as_the_cell_it_copies():
    docs = [Evidence(n=1, tool="search_docs", text=CONTRACTS, source="report.md")]
    question = "Which periods does the table provide information for total contractual obligations?"
    right = check_answer("Less than 1 year; 1-3 years; 3-5 years; After 5 years", question, docs)
    assert right.grounding == "verified"
    changed = check_answer("Less than 2 year; 1-3 years; 3-5 years; After 5 years", question, docs)
    assert changed.unsupported == ["2 year"] and changed.notes == ["2 year is 1 in the sentence the answer quotes"]
    # an item of the answer's own words, or a figure alone, is no copied cell
    answer = "Notes payable; 2,496"
    assert misquoted(answer, extract_figures(answer)[0], [CONTRACTS], [CONTRACTS.lower()]) is None


def test_a_list_of_amounts_with_their_scale_is_no_copied_cell():
    said = "The accumulated amortization was $212.1 million and $260.8 million; amortization expense was $34.9 million."
    docs = [Evidence(n=1, tool="search_docs", text=said, source="report.md")]
    answer = "$212.1 million; $260.8 million"
    assert misquoted(answer, extract_figures(answer)[0], [said], [said.lower()]) is None
    question = "What was the accumulated amortization of fiscal years 2018 and 2019, respectively?"
    assert check_answer(answer, question, docs).grounding == "verified"


PRODUCTS = (
    "The two product offerings acquired with the EIS Business in 2017, Horizon Clinicals and Series2000 Revenue "
    "Cycle, were sunset after March 31, 2018. It is assumed that mortality will be in line with nationally "
    "published mortality table S2NA with CMI 2018 projections."
)


def test_a_name_written_with_digits_changed_in_a_copied_sentence_is_flagged():
    evidence = [Evidence(n=1, tool="search_docs", text=PRODUCTS, source="report.md")]
    question = "Which product offerings were acquired with the EIS Business in 2017?"
    report = check_answer("Horizon Clinicals and Series1999 Revenue Cycle", question, evidence)
    assert report.unsupported == ["Series1999"]
    assert report.notes == ["Series1999 is Series2000 in the sentence the answer quotes"]
    assert check_answer("Horizon Clinicals and Series2000 Revenue Cycle", question, evidence).unsupported == []
    report = check_answer(
        "in line with nationally published mortality table S3NA with CMI", "What mortality?", evidence
    )
    assert report.notes == ["S3NA is S2NA in the sentence the answer quotes"]
    # a name the evidence does not write in those words is not this check's to judge
    assert check_answer("The product is Series1999.", question, evidence).notes == []


def test_a_name_with_digits_changed_in_an_item_of_a_list_is_flagged():
    text = (
        "(ii) the payments related to the attendance of the KPMG Conference of $6,000 for Messrs. Hanks and Perry"
        " and the payments related to the attendance of the G100 Conference of $4,000 for each of Ms. Bejar."
    )
    evidence = [Evidence(n=1, tool="search_docs", text=text, source="report.md")]
    question = 'What does "All Other Compensation" include payments related to?'
    report = check_answer("KPMG Conference; G112 Conference", question, evidence)
    assert report.unsupported == ["G112"] and report.notes == ["G112 is G100 in the sentence the answer quotes"]
    assert check_answer("KPMG Conference; G100 Conference", question, evidence).unsupported == []


BENEFIT = (
    "Deferred costs are amortised from the date of commercial release on a straight-line basis over the period "
    "of the expected benefit, which varies from 2 to 10 years."
)


def test_one_end_of_a_range_the_report_writes_is_flagged_unless_an_end_is_asked():
    evidence = [Evidence(n=1, tool="search_docs", text=BENEFIT, source="report.md")]
    report = check_answer("10 years", "How long is the period of expected benefit?", evidence)
    assert report.unsupported == ["10 years"]
    assert report.notes == ["10 years is one end of what the report writes: 2 to 10 years"]
    assert check_answer("2 to 10 years", "How long is the period of expected benefit?", evidence).unsupported == []
    assert check_answer("10 years", "What is the longest period of expected benefit?", evidence).unsupported == []
    # two figures joined by "and", or a change "from … to …", are no range
    listed = [Evidence(n=1, tool="search_docs", source="r.md", text="The terms were 15 years and 11 years.")]
    assert check_answer("11 years", "What was the second term?", listed).unsupported == []
    changed = [Evidence(n=1, tool="search_docs", source="r.md", text="The term was extended from 2 to 3 years.")]
    assert check_answer("3 years", "What is the term?", changed).unsupported == []
