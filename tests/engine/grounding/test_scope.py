"""The period a question's scope covers: the years it names, its ranges, and the base year of a return's span."""

from engine.grounding import Evidence, check_answer
from engine.grounding.scope import asked_years, periods_ended

GRAPH = """Comparison of five-year cumulative total return
| item | December 31, 2009 | December 31, 2012 | December 31, 2014 |
| --- | --- | --- | --- |
| DISCA | 100 | 170.12 | 224.65 |
| S&P 500 | 100 | 128.21 | 204.63 |"""
RETURN = "what was the percentage cumulative total shareholder return on disca common stock for the five year period ended december 31 , 2014?"


def test_a_return_over_the_n_year_period_ended_a_year_starts_at_its_base_year():
    assert periods_ended(RETURN) == [("2009", "2014")]
    assert periods_ended("the 3-year period ending 2019") == [("2016", "2019")]
    assert asked_years(RETURN) == {"2009", "2014"}
    # a sum over "the three year period ended 2019" is of its years, not of the year before them
    assert asked_years("what was the total revenue for the three year period ended 2019?") == {"2019"}
    assert asked_years("what was the change in revenue from 2017 to 2019?") == {"2017", "2018", "2019"}


def test_the_return_computed_from_the_base_year_is_vouched_and_a_wrong_one_is_not():
    doc = [Evidence(n=1, tool="search_documents", text=GRAPH, source="report.md")]
    assert check_answer("124.65% = (224.65 − 100) / 100", RETURN, doc).grounding == "verified"
    assert check_answer("139.6%", RETURN, doc).unsupported == ["139.6%"]
