"""A figure the evidence states is no answer when it measures something else than the
question: another quantity of the same sentence, a total where a figure per unit is asked,
a total where a share price is asked, a row of losses where gains are asked."""

from engine.grounding import Evidence, check_answer
from engine.grounding.measure import AskedMeasure, measure_words, measured_by, opposite, per_unit, writes_per
from engine.grounding.notes import misplaced_note
from engine.grounding.stems import words

REDEEMED = (
    "During 2010, the company redeemed $690 million aggregate principal of its 8.75% senior secured notes due 2013."
)
DESTINATIONS = "Our ships call on approximately 455 destinations on all seven continents."
WARRANTS = "During 2008, 401,362 warrants were exercised, resulting in cash proceeds to the company of $3.0 million."
GAINS = """(In millions) | 2009 | 2008
Net unrealized loss on available-for-sale securities | (1,636) | (5,205)
Net gains from sales of available-for-sale securities | 368 | 68"""


def doc(text):
    return [Evidence(n=1, tool="search_docs", text=text, source="report.md")]


def test_the_head_of_the_question_is_what_it_measures():
    assert measure_words("What is the annual interest cost savings by the company redeeming the notes?") == (
        frozenset(words("interest cost savings")),
        "the annual interest cost savings",
    )
    assert measure_words("What was the amount of the notes redeemed?") == (frozenset(), "")  # how a figure is put
    assert measure_words("What was the movement in Americas revenue?") == (frozenset(), "")
    assert measure_words("How many destinations are there?") == (frozenset(), "")  # no head named


def test_a_unit_asked_per_is_not_a_period_nor_a_share():
    assert per_unit("How many destinations does each continent have?") == (
        frozenset(words("continent")),
        "a figure per continent",
    )
    assert per_unit("What was the revenue per employee in 2019?")[1] == "a figure per employee"
    assert per_unit("What is the dividend per share?") == (frozenset(), "")  # a row's own name
    assert per_unit("How much is paid per year?") == (frozenset(), "")
    assert per_unit("What is the rate as per the credit agreement?") == (frozenset(), "")
    assert writes_per("revenue per employee", frozenset(words("employees")))
    assert not writes_per(DESTINATIONS, frozenset(words("continent")))


def test_opposites_rule_out_a_row_only_when_it_does_not_name_the_asked_word_too():
    asked = frozenset(words("the net gains from sales of securities"))
    assert opposite(asked, frozenset(words("Net unrealized loss on securities")))
    assert not opposite(asked, frozenset(words("Net gains (losses) on securities")))
    assert not opposite(frozenset(words("the net income in 2019")), frozenset(words("Income tax expense")))
    assert opposite(frozenset(words("the interest income in 2019")), frozenset(words("Interest expense")))


def test_a_sentence_that_names_no_word_of_the_measure_supports_none_of_its_figures():
    question = "What is the annual interest cost savings by the company redeeming the 8.75% notes?"
    report = check_answer("$690 million", question, doc(REDEEMED))
    assert report.unsupported == ["$690 million"]
    assert misplaced_note(report.misplaced[0]) == (
        "$690 million is stated (2010, 2013), but not as the annual interest cost savings"
    )
    # the derivation the answer writes, with the notes as an operand, holds
    assert check_answer("60,375,000 = 690 × 1,000,000 × 8.75%", question, doc(REDEEMED)).unsupported == []
    # asked for the principal, the sentence states it
    assert (
        check_answer("$690 million", "What was the principal of the notes redeemed?", doc(REDEEMED)).unsupported == []
    )


def test_a_total_is_no_figure_per_unit():
    question = (
        "Assuming each continent has the same number of destinations, how many destinations does each continent have?"
    )
    report = check_answer("approximately 455 destinations", question, doc(DESTINATIONS))
    assert report.unsupported == ["455"]
    assert "455 is stated (report.md), but not as a figure per continent" == misplaced_note(report.misplaced[0])
    per_continent = "Our ships call on about 65 destinations per continent."
    assert check_answer("65 destinations", question, doc(per_continent)).unsupported == []


def test_a_figure_in_millions_is_no_share_price():
    question = "During 2008 what was the share price of the warrants exercised?"
    assert check_answer("$3.0 million", question, doc(WARRANTS)).unsupported == ["$3.0 million"]
    assert (
        check_answer(
            "$3.0 million", "What were the cash proceeds of the warrants exercised?", doc(WARRANTS)
        ).unsupported
        == []
    )


def test_a_cell_of_the_opposite_row_is_not_the_answer_nor_its_change():
    question = "What were the net gains from sales of available-for-sale securities in 2009?"
    assert check_answer("1,636", question, doc(GAINS)).grounding == "unsupported"
    assert check_answer("368", question, doc(GAINS)).grounding == "verified"
    computed = Evidence(
        n=1, tool="compute_table", source="compute_table", computed=True,
        text="3,569 = -1,636 − (-5,205): change in Net unrealized loss on available-for-sale securities, 2008 to 2009",
    )  # fmt: skip
    change = "By how much did the net gains from sales of available-for-sale securities increase from 2008 to 2009?"
    report = check_answer("3,569", change, [computed])
    assert report.unsupported == ["3,569"]
    assert "change in Net unrealized loss on available-for-sale securities, 2008 to 2009" in misplaced_note(
        report.misplaced[0]
    )


def test_a_passage_quoted_as_the_answer_must_measure_what_is_asked():
    per = "Assuming each continent has the same number of destinations, how many destinations does each continent have?"
    assert not measured_by(per, DESTINATIONS)
    assert measured_by("How many destinations do the ships call on?", DESTINATIONS)
    # a table's row names its measure in a title the quote may leave out: only opposites and units count there
    assert measured_by("What was the revenue of the Software segment in 2019?", "| Software | 1,950 | 1,538 |")
    assert not AskedMeasure.of("What were the net gains in 2009?").measures(
        "cell", frozenset(words("Net loss")), "Net loss"
    )


def test_a_computed_share_of_another_whole_than_the_one_asked_is_flagged():
    question = "Commercial mortgage loans at fair value at December 31, 2011 were what percent of total loans held for sale at December 31, 2011?"
    line = "65.15% = 843 / 1,294 × 100: share of Commercial mortgages at fair value in Total commercial mortgages, December 31, 2011 (report.md, …)"
    computed = [Evidence(n=1, tool="compute_table", source="compute_table", computed=True, text=line)]
    assert check_answer("65.15%", question, computed).unsupported == ["65.15%"]
    of_total = line.replace("1,294", "2,936").replace("65.15%", "28.71%").replace("Total commercial mortgages", "Total")
    computed = [Evidence(n=1, tool="compute_table", source="compute_table", computed=True, text=of_total)]
    assert check_answer("28.71%", question, computed).unsupported == []  # the table's own Total, which its title names


def test_a_passage_is_named_by_its_source_too():
    rows = [Evidence(n=1, tool="lookup_table", text="3 rows: Q1 10.5, Q2 11.25, Q3 12.0", source="sales")]
    assert check_answer("12.0", "What were the sales in Q3?", rows).unsupported == []
    costs = [Evidence(n=1, tool="lookup_table", text="3 rows: Q1 10.5, Q2 11.25, Q3 12.0", source="headcount")]
    assert check_answer("12.0", "What were the sales in Q3?", costs).unsupported == ["12.0"]


RSUS = """| | Number of RSUs | Weighted Average Grant Date Fair Value |
|---|---|---|
| Outstanding at December 31, 2008 | 1,200,000 | $ 10.10 |
| Granted | 1,583,616 | 9.32 |
| Outstanding at December 31, 2009 | 2,383,616 | $ 9.70 |"""
VALUE = "what was the value of the rsu's granted"


def test_a_count_is_no_value_in_a_cell_a_computed_line_or_a_bare_figure_of_a_sentence():
    report = check_answer("1,583,616", VALUE, doc(RSUS))
    assert report.unsupported == ["1,583,616"]
    assert (
        misplaced_note(report.misplaced[0])
        == "1,583,616 is a count (Granted, Number of RSUs); the question asks a value"
    )
    assert check_answer("14,759,301 = 1,583,616 × 9.32", VALUE, doc(RSUS)).grounding == "verified"
    assert check_answer("1,583,616", "what was the number of rsu's granted", doc(RSUS)).grounding == "verified"
    asked = AskedMeasure.of(VALUE)
    assert asked.counted("result", frozenset(), "1,583,616: Granted, Number of RSUs (report.md)")
    assert not asked.counted("result", frozenset(), "14,759,301 = 1,583,616 × 9.32: product (report.md)")
    # a sentence naming a number of units: its bare figure is the count, an amount beside it is not
    sentence = "The number of RSUs granted was 1,583,616, with a total grant-date value of $14.8 million."
    assert check_answer("1,583,616", VALUE, doc(sentence)).unsupported == ["1,583,616"]
    assert check_answer("$14.8 million", VALUE, doc(sentence)).grounding == "verified"
    assert not AskedMeasure.of("what was the value of the number of rsus").value  # a number asked


ASSETS = """($ in millions) | 2014 | 2013
Net earnings (loss) | 338 | 261
Total assets | 6,239 | 6,190"""


def test_a_measure_of_a_row_the_evidence_never_names_is_no_cell_of_that_row():
    question = "what was the return on total assets during 2013?"
    report = check_answer("6,190 million", question, doc(ASSETS))
    assert report.unsupported == ["6,190 million"]
    assert misplaced_note(report.misplaced[0]) == "6,190 million is stated (Total assets, 2013), but not as the return"
    # the evidence names it: its row states it
    named = ASSETS + "\nReturn on total assets | 5.4% | 4.2%"
    assert check_answer("4.2%", question, doc(named)).grounding == "verified"
    # a measure with no row it is of ("the total revenue in 2019") is not read so: a table may leave it unnamed
    assert not AskedMeasure.of("What was the Total revenue in 2019?").of_row
    assert check_answer("6,190", "What was the total assets value in 2013?", doc(ASSETS)).grounding == "verified"
    assert AskedMeasure.of("what is the roi of an investment in loews common stock?").of_row


STOCK = """Performance graph
| item | 2009 | 2010 | 2011 |
| --- | --- | --- | --- |
| Loews Common Stock | 84.15 | 100.00 | 97.37 |"""


def test_the_return_on_an_investment_over_years_is_its_percentage_change():
    question = "what is the roi of an investment in loews common stock from 2010 to 2011?"
    asked = AskedMeasure.of(question)
    assert asked.growth and not asked.of_row  # the growth of what was invested, no measure of a row's own
    line = "-2.63% = (97.37 − 100) / 100 × 100: percentage change in Loews Common Stock, 2010 to 2011 (report.md, …)"
    computed = Evidence(n=2, tool="compute_table", source="compute_table", computed=True, text=line)
    report = check_answer("-2.63%", question, [*doc(STOCK), computed])
    assert (report.grounding, report.unsupported) == ("verified", [])
    assert measured_by(question, line)
    # a cell of the row is no return, nor a computed change in points
    assert check_answer("97.37", question, doc(STOCK)).unsupported == ["97.37"]
    change = "-2.63 = 97.37 − 100: change in Loews Common Stock, 2010 to 2011 (report.md, …)"
    assert not asked.measures("result", frozenset(words("Loews Common Stock")), change)
    # with no span, "the roi of an investment" stays a measure of a row the evidence must name
    assert AskedMeasure.of("what is the roi of an investment in loews common stock?").of_row


CREDIT = """The company has committed credit lines of $746 million with several banks.
Approximately $554 million of these credit lines were available for use as of year-end 2016.
Fair value of financial market instruments was $21 million and $47 million at December 31, 2010, and 2009, respectively."""


def test_what_a_credit_line_has_available_is_not_what_has_been_drawn():
    drawn = "what is the amount of credit lines that has been drawn in millions as of year-end 2016?"
    report = check_answer("approximately $554 million", drawn, doc(CREDIT))
    assert report.unsupported == ["$554 million"]
    available = "what is the amount of credit lines available for use as of year-end 2016?"
    assert check_answer("approximately $554 million", available, doc(CREDIT)).grounding == "verified"


def test_a_level_stated_as_it_stands_is_no_change_asked_as_part_of_a_strategy():
    question = (
        "what is the change in fair value of financial market instruments as part of the hedging strategy during 2010?"
    )
    report = check_answer("$21 million", question, doc(CREDIT))
    assert report.unsupported == ["$21 million"] and report.misplaced[0].computed


def test_a_unit_per_ends_at_the_words_that_compare_periods():
    assert per_unit("what is the percentage difference in the fair value per share between 2014 and 2015?")[0] == set()


def test_a_total_return_over_a_period_is_measured_by_its_percentage_change():
    line = "104% = (204 − 100) / 100 × 100: percentage change in LKQ Corporation, 12/31/2011 to 12/31/2016 (report.md)"
    question = "what was the percentage cumulative return for lkq corporation for the five years ended 12/31/2016?"
    assert measured_by(question, line)
    # with no period, the return is a measure its rows must name
    assert not measured_by("what was the percentage cumulative return for lkq corporation?", line)
