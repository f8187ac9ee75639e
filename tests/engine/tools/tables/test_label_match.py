"""Rows named by a question and the direction it asks of them (engine/tools/tables/label_match.py)."""

import pytest

from engine.grounding.stems import words
from engine.tools.tables.catalog import TableCatalog
from engine.tools.tables.cell_statement import asked_direction
from engine.tools.tables.label_match import Semantic, _sequence, label_words, longest_run, named_rows
from engine.tools.tables.question_reading import read_question


@pytest.mark.parametrize(
    ("question", "rows", "direction"),
    [
        ("What was the net loss in 2016?", ["Net income (loss)"], "loss"),
        ("What was the income tax benefit in 2019?", ["Income tax (benefit) expense"], "benefit"),
        ("What was the net income in 2016?", ["Net income (loss)"], None),  # the row's own direction
        ("What was the net income or loss in 2016?", ["Net income (loss)"], None),  # both asked
        ("What was the net loss in 2016?", ["Net loss"], None),  # no either-way row
        ("What was the decrease in cash?", ["Net increase (decrease) in cash"], "decrease"),
    ],
)
def test_the_direction_a_question_asks_of_an_either_way_row(question, rows, direction):
    assert asked_direction(question, rows) == direction


@pytest.mark.parametrize(
    ("label", "question", "run"),
    [
        ("Net deferred tax assets", "What is the total net deferred taxes between 2018 to 2019?", 3),
        ("Total deferred tax assets", "What is the total net deferred taxes between 2018 to 2019?", 2),
        ("Revenue(1)", "What was revenue in 2019?", 1),  # the footnote mark is no word
        ("Goodwill", "What was revenue in 2019?", 0),
    ],
)
def test_how_many_of_a_labels_words_a_question_writes_in_a_row(label, question, run):
    assert longest_run(label, _sequence(question)) == run


def test_of_two_rows_sharing_as_many_words_the_one_named_in_a_row_is_taken():
    labels = ["Total deferred tax assets", "Net deferred tax assets"]
    question = "What is the total net deferred taxes between 2018 to 2019?"
    reading = read_question(question)
    asked = words(question) - {"2018", "2019"}
    assert named_rows(question, asked, reading, labels, Semantic(TableCatalog.from_paths([]), None)) == [
        "Net deferred tax assets"
    ]


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        (
            "What is the total deferred revenue at the end of the period?",
            ["Deferred revenue (current)", "Deferred revenue (non-current)"],
        ),  # a total of the parts the question does not name
        ("What is the current deferred revenue at the end of the period?", ["Deferred revenue (current)"]),
    ],
)
def test_a_total_of_an_item_written_in_parts_adds_the_parts(question, rows):
    labels = ["Accounts receivable", "Deferred revenue (current)", "Deferred revenue (non-current)"]
    reading = read_question(question)
    asked = words(question)
    assert named_rows(question, asked, reading, labels, Semantic(TableCatalog.from_paths([]), None)) == rows


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        (
            "What is the nominal difference for basic earnings per share (cents per share) between 2018 and 2019?",
            ["Total Basic earnings per share (cents per share) (1)"],
        ),  # the remark in brackets names the section's total, not the share count of the same name
        (
            "What is the nominal difference for basic earnings per share between 2018 and 2019?",
            ["Basic earnings per share"],
        ),
        # a remark no label writes restricts nothing
        (
            "What is the difference for basic earnings per share (as reported) between 2018 and 2019?",
            ["Basic earnings per share"],
        ),
    ],
)
def test_a_remark_the_question_writes_in_brackets_keeps_the_rows_that_write_it(question, rows):
    labels = [
        "Basic earnings per share",
        "Diluted earnings per share (2)",
        "Basic earnings per share (cents per share) (1): Continuing operations",
        "Total Basic earnings per share (cents per share) (1)",
    ]
    reading = read_question(question)
    asked = words(question) - {"2018", "2019"}
    assert named_rows(question, asked, reading, labels, Semantic(TableCatalog.from_paths([]), None)) == rows


def test_one_word_in_brackets_is_a_direction_and_restricts_nothing():
    question = "What was the operating income (loss) in 2019?"
    labels = ["Operating income", "Net income (loss)"]
    reading = read_question(question)
    asked = words(question) - {"2019"}
    assert named_rows(question, asked, reading, labels, Semantic(TableCatalog.from_paths([]), None)) == [
        "Operating income"
    ]


def test_a_label_inside_another_is_named_too_when_the_question_writes_it_apart():
    labels = ["Net bookings", "In-game net bookings"]
    semantic = Semantic(TableCatalog.from_paths([]), None)
    question = "What was the sum of net bookings and in-game net bookings in 2019?"
    rows = named_rows(question, words(question) - {"2019"}, read_question(question), labels, semantic)
    assert rows == ["Net bookings", "In-game net bookings"]
    question = "What was the change in in-game net bookings from 2018 to 2019?"  # written once, inside the other
    rows = named_rows(question, words(question) - {"2018", "2019"}, read_question(question), labels, semantic)
    assert rows == ["In-game net bookings"]


def test_a_row_that_defines_its_short_name_is_named_whole_by_it():
    labels = ["Apple Inc. (“Apple”)", "Huawei Technologies Co., Ltd. (“Huawei”)", "Other"]
    question = "What was the revenue from Huawei in 2019?"
    reading = read_question(question)
    rows = named_rows(
        question, words(question) - {"2019"}, reading, labels, Semantic(TableCatalog.from_paths([]), None)
    )
    assert rows == ["Huawei Technologies Co., Ltd. (“Huawei”)"]


def test_a_row_and_its_own_percentage_row_are_one_row_unless_a_percentage_is_asked():
    labels = ["Cost of net revenue", "Cost of net revenue: % of net revenue", "Gross profit"]
    semantic = Semantic(TableCatalog.from_paths([]), None)
    question = "What is the average Cost of net revenue for 2019 and 2018?"
    rows = named_rows(question, words(question) - {"2019", "2018"}, read_question(question), labels, semantic)
    assert rows == ["Cost of net revenue"]


@pytest.mark.parametrize(
    ("question", "rows"),
    [
        ("What were the non-current liabilities in 2019?", ["Non-current liabilities"]),
        ("What were the current liabilities in 2019?", ["Current liabilities"]),
        ("What were the forfeited non-vested shares in 2019?", ["Forfeited"]),  # not the "vested" of "non-vested"
        ("What was the domestic-federal tax credit in 2019?", ["Domestic–federal tax credit"]),
    ],
)
def test_a_label_standing_in_a_question_only_inside_a_hyphenated_word_is_not_named(question, rows):
    labels = ["Current liabilities", "Non-current liabilities", "Domestic–federal tax credit", "Vested", "Forfeited"]
    semantic = Semantic(TableCatalog.from_paths([]), None)
    assert named_rows(question, words(question) - {"2019"}, read_question(question), labels, semantic) == rows


def test_a_label_written_in_a_row_is_named_over_a_longer_one_whose_words_are_only_scattered():
    labels = ["Net interest revenue", "Revenues, net of interest expense", "Total operating expenses"]
    question = "What percent of net interest revenue were total operating expenses in 2009?"
    semantic = Semantic(TableCatalog.from_paths([]), None)
    rows = named_rows(question, words(question) - {"2009"}, read_question(question), labels, semantic)
    assert rows == ["Net interest revenue", "Total operating expenses"]


def test_the_inline_markup_of_a_label_is_no_word_of_it():
    """A table converted from HTML keeps "<sup>(2)</sup>" and "<i>…</i>" in its labels: the rows are still named whole."""
    labels = [
        "WTI crude oil<i>(Dollars per barrel)</i>",
        "Western Canadian Select<i>(Dollars per barrel)</i><sup>(a)</sup>",
        "AECO natural gas sales index<i>(Canadian dollars per gigajoule)</i><sup>(b)</sup>",
    ]
    question = "What is the difference between the high WTI crude oil and Western Canadian Select prices?"
    reading = read_question(question)
    assert named_rows(question, words(question), reading, labels, Semantic(TableCatalog.from_paths([]), None)) == [
        labels[0],
        labels[1],
    ]
    assert label_words("Guaranty fund contributions<sup>(2)</sup>") == words("guaranty fund contributions")
