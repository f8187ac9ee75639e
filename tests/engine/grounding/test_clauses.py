"""Which figure of a sentence answers: each figure's clause, the words written with it, and the pins."""

from engine.grounding.clauses import clause, is_year, pin_initialism, pin_sentence, with_unit_words
from engine.grounding.figures import Found, extract_figures


def figures(text: str) -> list[Found]:
    return [f for f in extract_figures(text) if f.kind != "date" and not is_year(f)]  # as facts reads them


def test_a_bracketed_figure_keeps_the_period_that_labels_it():
    text = "valued at £9.9 million (31 December 2018: £16.4 million) compared with £41.5 million (2018: £45.1 million)"
    spans = [clause(text, f) for f in figures(text)]
    assert spans[1] == "31 December 2018: £16.4 million" and spans[3] == "2018: £45.1 million"
    assert "2018" not in spans[0] and "2018" not in spans[2]


def test_glued_pence_and_the_counted_noun_are_written_with_the_figure():
    text = "was 445.0p (2018: n/a), and a total of 866.6 RSUs were granted"
    first, second = figures(text)
    assert with_unit_words(text, first) == "445.0p"
    assert with_unit_words(text, second, "How many RSUs were granted?") == "866.6 RSUs"
    assert with_unit_words(text, second, "How many were granted?") == "866.6"
    # a glued letter that is part of a word is no unit
    assert with_unit_words("in 12pcs", extract_figures("in 12pcs")[0]) == "12"


def test_the_initialism_written_after_a_figure_pins_it_but_the_shared_subject_does_not():
    text = "an allowance of $191.7 million against its U.S. deferred tax assets and $52.9 million against foreign ones"
    found = figures(text)
    clauses = {id(f): clause(text, f) for f in found}
    assert [f.text for f in pin_initialism("The allowance against U.S assets?", text, found, clauses)] == [
        "$191.7 million"
    ]
    assert pin_initialism("The allowance against foreign assets?", text, found, clauses) == found
    lifo = "The reductions in LIFO-valued inventories decreased costs by $0.0 million in 2019 and $0.6 million in 2018."
    found = figures(lifo)
    clauses = {id(f): clause(lifo, f) for f in found}
    assert pin_initialism("What was the effect of LIFO reductions?", lifo, found, clauses) == found


def test_the_year_pin_gives_way_to_a_clause_that_holds_more_of_the_subject():
    text = "The price at 31 December 2019 was INR19, compared with the carrying value pre-impairment of £41.5 million"
    found = figures(text)
    clauses = {id(f): clause(text, f) for f in found}
    kept = pin_sentence("What is the carrying value pre-impairment in 2019?", found, clauses)
    assert [f.text for f in kept] == ["£41.5 million"]
    kept = pin_sentence("What was the price in 2019?", found, clauses)
    assert [f.text for f in kept] == ["INR19"]


def test_the_first_figure_of_a_sentence_has_its_subject_and_a_cause_clause_does_not_take_it():
    text = (
        "Other income (expense), net changed $9.9 million in the year ended March 31, 2018 compared to the year"
        " ended March 31, 2017, which was primarily attributable to a change of $10.4 million in foreign exchange"
        " expense which was attributable to balances denominated in currencies other than the functional currency."
    )
    found = figures(text)
    clauses = {id(f): clause(text, f) for f in found}
    asked = "What was the net change in the other income (expense) in 2018?"
    assert [f.text for f in pin_sentence(asked, found, clauses, text)] == ["$9.9 million"]
    asked = "What was the change in foreign exchange expense in 2018?"
    assert [f.text for f in pin_sentence(asked, found, clauses, text)] == ["$10.4 million"]
