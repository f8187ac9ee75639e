"""How a sentence writes a figure: as a change, or as a share of something."""

import pytest

from engine.grounding.layout import Place, content_words
from engine.grounding.written_as import as_change, change_phrase, share_of, signed_as_asked, whole_of_part


def place_of(sentence: str, figure: str) -> Place:
    start = sentence.index(figure)
    return Place(value=0.0, scale=1, text=figure, evidence=0, start=start, end=start + len(figure), kind="text",
                 unit=(0, len(sentence)))  # fmt: skip


@pytest.mark.parametrize(
    ("sentence", "figure", "change"),
    [
        ("The amendment is to increase by 2,000,000 the number of shares authorized.", "2,000,000", True),
        ("Licensing revenue increased by $5.2 million to $48.1 million in 2019.", "5.2", True),
        ("Licensing revenue increased by $5.2 million to $48.1 million in 2019.", "48.1", False),
        ("Revenue rose 5% in 2019, reflecting growth of 7% in Wireless.", "5%", True),
        ("Revenue rose 5% in 2019, reflecting growth of 7% in Wireless.", "7%", True),
        ("Le chiffre d'affaires est en hausse de 3,4 millions d'euros.", "3,4", True),
        ("Approximately 4,650,000 shares are authorized, and up to 300,000 may be options.", "300,000", False),
        ("A down payment of $40,000 was made in 2019.", "40,000", False),
        ("Fuel prices rose 9% and added $242 million of operating expenses compared to 2006.", "242", True),
        ("The acquisition added no debt; operating expenses were $242 million.", "242", False),
    ],
)
def test_a_figure_written_as_a_change(sentence, figure, change):
    assert as_change(sentence, place_of(sentence, figure)) == change


def test_the_change_phrase_ends_on_the_figure():
    sentence = "On April 30, 2018, the shareholders approved an amendment to increase by 2,000,000 the shares."
    assert change_phrase(sentence, place_of(sentence, "2,000,000")) == "to increase by 2,000,000"


@pytest.mark.parametrize(
    ("sentence", "figure", "measures"),
    [
        ("The company entered into a 0% interest loan agreement for an excavator.", "0%", False),
        ("Direct sales accounted for 41.3% of net revenues in 2019.", "41.3%", True),
        ("About 12% and 10% of the loan are outstanding.", "12%", True),
    ],
)
def test_a_percentage_measures_the_share_asked_or_something_else(sentence, figure, measures):
    asked = content_words("What percentage of the loan is outstanding?") | content_words("direct sales net revenues")
    assert share_of(sentence, place_of(sentence, figure), asked) == measures


@pytest.mark.parametrize(
    ("question", "sentence", "figure", "shown"),
    [
        ("What was the segment gross profit in 2018?", "Gross profit was a loss of $3.5 million in 2018.", "3.5",
         "−$3.5 million"),
        ("What was the net income (loss) in 2018?", "The company had a net loss of $2.0 million.", "2.0",
         "−$2.0 million"),  # "(loss)" names the other direction of the income asked
        ("What was the net loss in 2018?", "The company had a net loss of $2.0 million.", "2.0", "$2.0 million"),
        ("What was the gross profit in 2018?", "Gross profit was $3.5 million in 2018.", "3.5", "$3.5 million"),
        ("Quelle était la marge brute ?", "La marge brute est une perte de 3,5 millions d'euros.", "3,5",
         "−3,5 millions"),
    ],
)  # fmt: skip
def test_a_loss_stated_for_a_profit_asked_is_signed(question, sentence, figure, shown):
    start = sentence.index(figure)
    written = sentence[start - 1 : start + len(figure)] if sentence[start - 1] == "$" else figure
    unsigned = shown.lstrip("−")
    assert signed_as_asked(question, sentence, start - (written != figure), unsigned) == shown


def test_a_change_the_answer_writes_as_a_change_is_not_taken_for_the_level():
    """ "The operating loss increased $63 million to $987 million" quoted whole states the level (987) and says the
    63 is the change; the 63 alone, stated as the loss, is flagged as before."""
    from engine.grounding import Evidence, check_answer

    sentence = "LinkedIn operating loss increased $63 million to $987 million in 2018, including amortization."
    evidence = [Evidence(n=1, tool="search_docs", text=sentence, source="report.md")]
    asked = "How much was the LinkedIn operating loss in 2018?"
    assert check_answer(sentence, asked, evidence).grounding == "verified"
    alone = check_answer("The LinkedIn operating loss was $63 million in 2018.", asked, evidence)
    assert alone.unsupported == ["$63 million"]


def test_a_sentence_of_changes_only_does_not_state_the_level_asked():
    from engine.grounding import Evidence, check_answer

    sentence = "Research and development expenses increased $1.7 billion or 13%, due to cloud engineering."
    evidence = [Evidence(n=1, tool="search_docs", text=sentence, source="report.md")]
    asked = "How much were the research and development expenses in 2018?"
    assert check_answer(sentence, asked, evidence).grounding != "verified"
    # nor does a sentence's "$1.75" (earnings per share) vouch for "$1.7 billion"
    eps = [Evidence(n=1, tool="search_docs", text="Diluted EPS decreased by $1.75 in 2018.", source="report.md")]
    assert check_answer("$1.7 billion", "What were the expenses in 2018?", eps).grounding != "verified"


WHOLE = (
    "The company's cash and invested assets totaled $17.7 billion at December 31, 2015, which consisted of 87.4% "
    "fixed maturities and cash, of which 91.4% were investment grade; 8.2% equity securities."
)


@pytest.mark.parametrize(
    ("question", "part"),
    [
        ("What is the total value of fixed maturities and cash as of December 31, 2015, in billions?", True),
        ("What were the total cash and invested assets at December 31, 2015?", False),  # the whole is asked
    ],
)
def test_an_amount_written_as_the_whole_of_parts_given_in_percent(question, part):
    from engine.grounding.scope import question_terms

    asked = question_terms(question).keys()
    assert whole_of_part(WHOLE, place_of(WHOLE, "17.7"), asked) is part
    # a sentence that states the part's own amount is no whole of it
    own = "Fixed maturities and cash totaled $15.5 billion at December 31, 2015, and equity securities $1.4 billion."
    assert not whole_of_part(own, place_of(own, "15.5"), asked)
