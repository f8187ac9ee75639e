"""The balance rows of a roll-forward that a question names by its ends or by the closing date."""

from engine.tools.tables.label_match import label_words
from engine.tools.tables.question_reading import read_question
from engine.tools.tables.roll_forward import balance_rows

LABELS = [
    "Beginning balance",
    "Purchases(1)",
    "Disposals/payments received",
    "Accretion",
    "Balance at December 31, 2010(2)",
]


def test_a_level_asked_at_the_closing_date_is_the_closing_balance_not_a_movement_row():
    question = (
        "what is the gross carrying amount of the company's purchased distressed loan portfolio at december 31 , 2010?"
    )
    assert balance_rows(question, LABELS, ["Purchases(1)"]) == ["Balance at December 31, 2010(2)"]
    # another date, two years, or a balance row named: the rows named
    assert balance_rows(question.replace("31 , 2010", "31 , 2009"), LABELS, ["Purchases(1)"]) == ["Purchases(1)"]
    both = "what was the change in purchases from december 31 , 2009 to december 31 , 2010?"
    assert balance_rows(both, LABELS, ["Purchases(1)"]) == ["Purchases(1)"]
    assert balance_rows(question, LABELS, ["Beginning balance"]) == ["Beginning balance"]
    assert balance_rows("what were the purchases in 2010?", LABELS, ["Purchases(1)"]) == ["Purchases(1)"]


def test_a_change_over_the_year_is_the_closing_less_the_opening_balance():
    question = "what was the change from the beginning of 2010 to the end of 2010?"
    assert balance_rows(question, LABELS, []) == ["Beginning balance", "Balance at December 31, 2010(2)"]
    assert balance_rows("in 2010 what was the change?", LABELS, [], within_year=True) == [
        "Balance at December 31, 2010(2)",
        "Beginning balance",
    ]


def test_a_question_naming_the_tables_own_subject_across_years_is_its_closing_balance():
    caption = label_words("the following table summarizes the activity in our gross unrecognized tax benefits:")
    question = "what was the percentage decline in the gross unrecognized tax benefits from 2014 to 2015"
    subject = frozenset(read_question(question).subject)
    assert balance_rows(question, LABELS, [], subject=subject, captioned=frozenset(caption)) == [
        "Balance at December 31, 2010(2)"
    ]
    # a subject the caption does not name, or a row named: as before
    other = frozenset(read_question("what was the percentage decline in deferred revenue from 2014 to 2015").subject)
    assert balance_rows(question, LABELS, [], subject=other, captioned=frozenset(caption)) == []
    assert balance_rows(question, LABELS, ["Accretion"], subject=subject, captioned=frozenset(caption)) == ["Accretion"]
