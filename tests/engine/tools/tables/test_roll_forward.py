"""The balance rows of a roll-forward that a question names by its ends or by the closing date."""

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
