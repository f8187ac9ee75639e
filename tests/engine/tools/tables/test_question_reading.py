"""What a question asks of a table, read from its words (English and French)."""

import pytest

from engine.grounding.compare import Condition
from engine.tools.tables.question_reading import read_question


@pytest.mark.parametrize(
    ("question", "operation"),
    [
        ("What was the change in Software revenue from 2018 to 2019?", "change"),
        ("What is the difference between the 2019 actual and the 2019 target?", "difference"),
        ("What is the difference in revenue between 2018 and 2019?", "difference"),  # a magnitude
        ("what was the spread between the high and low henry hub natural gas price in 2009?", "difference"),
        (
            "what was the percent of the increase in compensation cost recognized for rsus from 2008 to 2009",
            "percent_change",
        ),
        ("What is the change in revenue between 2018 and 2019?", "change"),  # later − earlier, signed
        ("What is the difference and increase in revenue between 2018 and 2019?", "change"),
        ("What was the percentage change in total pretax income between 2018 and 2019?", "percent_change"),
        ("Quelle est la variation en pourcentage du chiffre d'affaires ?", "percent_change"),
        ("What is the percentage difference between the first and fourth quarter?", "percent_change"),
        ("What is the average Deferred compensation for 2018 and 2019?", "mean"),
        ("What is the ratio of Software to Hardware revenue?", "ratio"),
        ("What percentage of 2019 revenue is the cost of revenue?", "share"),
        ("What proportion of the total cost does the acquisition cost form part of in 2019?", "share"),
        ("What is the proportion of finished goods over total inventories in 2019?", "ratio"),  # A over B, as named
        ("What portion of total purchase price is related to stock awards?", "share"),  # "related to": no "A to B"
        ("What portion of the total lease commitments are due in fiscal year of 2019?", "share"),
        ("How many % does provisions make up out of the total deferred tax assets?", "share"),
        ("How many years did Accounts receivable exceed $50,000 thousand?", "count_if"),
        ("How many expenses segments in 2019 were above $50 million?", "count_if"),  # rows counted, in one year
        ("Combien d'années le chiffre d'affaires a-t-il dépassé 100 ?", "count_if"),
        ("Which region had the lowest revenue in Q2 2025?", "min"),
        ("Quelle région a le chiffre d'affaires le plus bas ?", "min"),
        ("In which year was revenue the highest?", "max"),
        ("What was Software revenue in 2019?", "value"),
        ("Over how many years will the total cost be amortized?", None),
        ("When was the Lyon office opened?", None),
        ("Who heads the Fleet department?", None),
        ("What are the dates that shares were issued?", None),  # dates, not a sum of the shares
        ("What is the date where shares issued is the greatest?", None),
        ("Which date had the highest sales?", "max"),  # the winner names its date
        ("Which year had the lowest percentage difference in basic and diluted net earnings per share?", None),
        ("How much additional revenue was contributed by the new stores in 2019?", None),  # a sentence states it
        ("What was the additional paid-in capital in 2019?", "value"),
        ("What is the estimated percentual decrease in the HTM securities from 2017 to 2018?", "percent_change"),
        ("What percent higher is fair value than carrying value?", "percent_change"),
    ],
)
def test_the_operation_asked(question, operation):
    assert read_question(question).operation == operation


def test_periods_condition_and_dimension():
    reading = read_question("In how many years from FY2017 was Software revenue above 1,500 in Q2?")
    assert reading.condition == Condition(">", 1500.0) and reading.quarters == (2,)
    assert reading.years == ("2017",)
    assert read_question("Which region sold the least in March?").months == (3,)
    balance_dates = read_question("What is the change in land value between September 2018 and September 2019?")
    assert balance_dates.months == () and balance_dates.years == ("2018", "2019")  # each year's closing date
    assert read_question("What was revenue between March 2025 and June 2025?").months == (3, 6)
    balance_day = read_question("What is the change in Net Loss between December 31, 2018 and 2019?")
    assert balance_day.months == () and balance_day.years == ("2018", "2019")  # a balance date, no month filter
    day_first = read_question("How much was the total energy consumption (MWh) for year ended 31 December 2019?")
    assert day_first.months == () and day_first.years == ("2019",)  # "ended 31 December": the period, no month
    assert read_question("Quel produit s'est le moins vendu au deuxième trimestre ?").quarters == (2,)
    assert read_question("Which region sold the least in March?").dimension == "region"
    assert read_question("What region sold the least?").dimension == "region"
    assert read_question("What was the lowest revenue?").dimension is None
    what_the = "What is the component that contributes the most to total accrued expenses?"
    assert read_question(what_the).dimension == "component"  # named as "which component" names it
    assert read_question("What is the amount that contributes the most?").dimension is None
    largest = "What is the largest cost of revenue item in Adjusted Revenue?"
    assert read_question(largest).dimension == "item"  # the rows are compared, not the row "Adjusted Revenue"'s years
    assert read_question("What was the largest revenue in 2019?").dimension is None
    assert read_question("Quelle est la région la moins rentable ?").dimension is None
    assert read_question("Average revenue from 2017 to 2019?").years == ("2019", "2018", "2017")  # every year between
    assert read_question("Change in revenue from 2017 to 2019?").years == ("2017", "2019")  # the two ends
    each = read_question("What is the net income for fiscal years 2019 to 2017 respectively?")
    assert each.years == ("2019", "2018", "2017")  # each year of the span, in the order written
    assert read_question("What is the net income for 2019 and 2017 respectively?").years == ("2019", "2017")
    assert read_question("Total from January to June?").month_range
    assert read_question("Which month had the most deliveries in a single month?").single
    fy = read_question("What was the underlying EBITDA in FY19 and FY'18?")
    assert fy.years == ("2019", "2018") and "fy19" not in fy.subject  # a two-digit fiscal year is a year
    assert read_question("Which FY has a higher EBITDA?").operation == "max"
    assert read_question("What is the 2019 average free cash flow?").years == ("2019", "2018")  # with its opening


def test_the_subject_leaves_out_what_is_asked():
    reading = read_question("What was the percentage change in Software revenue between 2018 and 2019?")
    assert reading.subject_text == "Software revenue"
    assert reading.percent


def test_the_absolute_percentage_change_is_a_change_and_a_reason_asks_no_figure():
    question = "What was the absolute percentage change in risk-free interest rate between 2018 and 2019?"
    assert read_question(question).operation == "change"
    assert read_question(question.replace("absolute ", "")).operation == "percent_change"
    assert read_question("What is the primary reason for operating income increase?").operation is None


def test_a_percentage_decline_is_a_percentage_change():
    reading = read_question("what was the percentage decline in the gross unrecognized tax benefits from 2014 to 2015")
    assert (reading.operation, reading.years) == ("percent_change", ("2014", "2015"))
    assert read_question("what was the decline in revenue from 2014 to 2015").operation != "percent_change"


@pytest.mark.parametrize(
    "question",
    [
        "what would the fair value of total securities available for sale be without the corporate stocks in 2012?",
        "Assuming a 10% increase, what would the revenue be in 2020?",
    ],
)
def test_a_hypothetical_asks_no_one_computation_of_cells(question):
    assert read_question(question).operation is None


def test_readings_of_finqa_wordings():
    roi = read_question("what is the return on investment for s&p500 from 2004 to 2006?")
    assert (roi.operation, roi.years) == ("percent_change", ("2004", "2006"))
    assert (
        read_question("what is the roi of an investment in loews common stock in 2011?").operation != "percent_change"
    )
    greater = (
        "the five year total return on ball corporation stock was how much greater than the same return on the s&p 500?"
    )
    assert read_question(greater).operation == "change"
    portion = read_question("what is portion of the total consideration transferred is dedicated to goodwill?")
    assert portion.operation == "share" and "portio" not in portion.subject
    # a span of maturity columns ("due in 5 years or below") is no one column: no plan
    assert read_question("What is the proportion of long-term debt payments due in 5 years or below?").operation is None
    assert read_question("What is the proportion of long-term debt payments due in 2021?").operation == "share"


def test_a_total_return_over_the_period_ended_a_year_is_the_percentage_change_from_its_base_year():
    question = "what was the percentage cumulative total shareholder return on disca common stock for the five year period ended december 31 , 2014?"
    reading = read_question(question)
    assert (reading.operation, reading.years) == ("percent_change", ("2009", "2014"))
    # the difference of two returns is no one computation of a row
    difference = "what was the difference in percentage cumulative total return for the five year period ended 2017 of citi and s&p?"
    assert read_question(difference).operation == "difference"
    # "the cumulative return", "the percentage return", "for the five years ended": the same span
    for question in (
        "what was the percentage cumulative return for lkq corporation for the five years ended 12/31/2016?",
        "what was the percentage return for pmi common stock for the five years ended 2016?",
    ):
        reading = read_question(question)
        assert (reading.operation, reading.years) == ("percent_change", ("2011", "2016")), question
    five = "what was the percentage cumulative 5-year total stockholder return for cadence design systems inc . for the period ending 12/29/2018?"
    reading = read_question(five)
    assert (reading.operation, reading.years) == ("percent_change", ("2013", "2018"))
    rate = read_question("what is the rate of return of an investment in s&p500 inc from 2001 to 2005?")
    assert (rate.operation, rate.years) == ("percent_change", ("2001", "2005"))
    # a return over a span that ends at a date
    roi = read_question("what is the roi of an investment in advance auto parts from 2006 to january 3 , 2009?")
    assert (roi.operation, roi.years) == ("percent_change", ("2006", "2009"))
