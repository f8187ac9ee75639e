"""A change, percentage change, average or sum over years one sentence states "respectively":
computed by the engine, written with its derivation, and vouched for by the check."""

from engine.grounding.models import Quote
from engine.react.fact_answer import fact_line
from engine.react.sentence_computation import sentence_computation
from tests.engine.react.test_verify import small_engine
from tests.helpers import run

CASH = (
    "Cash flows from operations were $1,925 million, $1,131 million and $1,165 million in 2016, 2015 "
    "and 2014 respectively."
)


def quote(text: str, close: bool = True) -> Quote:
    return Quote(text=text, evidence=0, source="report.md", location="top", score=1.0, preface="", close=close)


def computed(question: str, text: str = CASH) -> str | None:
    fact = sentence_computation(question, quote(text), "en")
    return None if fact is None else f"{fact.candidates[0].text} = {fact.candidates[0].label}"


def test_a_percentage_change_between_two_years_of_a_sentence_is_computed_later_over_earlier():
    stated = computed("What was the percentage change in cash flows from operations from 2014 to 2015?")
    assert stated is not None and stated.startswith("-2.92% = (1,131 − 1,165) / 1,165 × 100")
    assert "2014 to 2015" in stated and "report.md" in stated


def test_an_average_and_a_sum_take_every_year_named_in_their_scale():
    assert computed("What was the average cash flows from operations from 2014 to 2016?").startswith(
        "1,407 million = (1,925 + 1,131 + 1,165) / 3"
    )
    assert computed("What were the total cash flows from operations in 2015 and 2016?").startswith(
        "3,056 million = 1,925 + 1,131"
    )


def test_a_ratio_of_two_years_is_of_the_years_in_the_order_the_question_names_them():
    loss = (
        "The changes in fair value for the years ended December 31, 2008 and 2007 due to instrument-specific credit "
        "risk totaled to a loss of $38 million and $188 million, respectively."
    )
    question = "What was the ratio of the total loss due to instrument-specific credit risk for {} to {}?"
    assert computed(question.format(2008, 2007), loss).startswith("0.2 = 38 / 188")
    assert computed(question.format(2007, 2008), loss).startswith("4.95 = 188 / 38")


def test_no_computation_when_the_sentence_cannot_give_one_figure_of_one_kind_for_each_year():
    assert computed("What were cash flows from operations in 2015?") is None  # a value: stated, not computed
    assert computed("What was the change in cash flows from operations from 2013 to 2015?") is None  # no 2013
    mixed = "Margins were 12% and $40 million in 2015 and 2014, respectively."
    assert computed("What was the change in margins from 2014 to 2015?", mixed) is None
    twice = "Sales were $5 million in 2015, $6 million in 2015 and $7 million in 2014."
    assert computed("What was the change in sales from 2014 to 2015?", twice) is None
    scales = "Sales were $1.6 billion and $900 million in 2015 and 2014, respectively."
    assert computed("What was the change in sales from 2014 to 2015?", scales) is None  # one scale word for all
    assert computed("What was the change in sales from 2014 to 2015?", scales.replace("billion", "bn").replace(
        "$900 million", "$0.9bn")) is not None  # fmt: skip


def test_a_fiscal_year_end_the_sentence_does_not_name_is_not_computed():
    """ "From july 2, 2005 to july 1, 2006": the sentence's "2006, 2005" may be fiscal years ending elsewhere."""
    rent = "Rental expense was $100,690,000, $92,710,000 and $86,842,000 in fiscal 2006, 2005 and 2004, respectively."
    assert (
        computed("What was the percentage change in rental expense from july 2 , 2005 to july 1 , 2006?", rent) is None
    )
    assert computed("What was the change in rental expense from december 31, 2005 to december 31, 2006?", rent)


def test_a_computation_from_a_passage_far_from_the_question_is_not_sure():
    question = "What was the percentage change in cash flows from operations from 2014 to 2015?"
    line, _, _ = fact_line(question, quote(CASH, close=False), "en")
    assert line.startswith("Not sure: -2.92%")
    sure, _, _ = fact_line(question, quote(CASH), "en")
    assert sure.startswith("-2.92%")


def test_the_check_vouches_for_the_computed_answer_that_replaces_a_small_models_wrong_one():
    engine = small_engine(["Thought: done\nAnswer: 3%"], CASH)
    run(engine, "What was the percentage change in cash flows from operations from 2014 to 2015?")
    answer = engine.result.answer
    assert answer.startswith("-2.92% = (1,131 − 1,165) / 1,165 × 100"), answer
    assert not engine.result.grounding.unsupported
    assert not any(c.kind in ("unsure", "several") for c in engine.result.cautions)


def test_a_change_during_one_year_is_from_the_year_before():
    fair = (
        "ACE Tempest Life Re owned financial market instruments as part of the hedging strategy with a fair value "
        "of $21 million and $47 million at December 31, 2010, and 2009, respectively."
    )
    stated = computed("what is the change in fair value of financial market instruments during 2010?", fair)
    assert stated is not None and stated.startswith("-26 million = 21 − 47")
    assert computed("what is the change in fair value of financial market instruments during 2011?", fair) is None


PIPELINES = (
    "We also own 176 miles of private crude oil pipelines and 850 miles of private refined products pipelines, "
    "and we lease 217 miles of common carrier refined product pipelines."
)


def test_a_sum_of_the_items_a_sentence_states_once_each_is_computed_and_vouched():
    question = "what was total miles of private crude oil pipelines and private refined products pipelines?"
    stated = computed(question, PIPELINES)
    assert stated is not None and stated.startswith("1,026 = 176 + 850: sum of miles of private crude oil pipelines")
    engine = small_engine(["Thought: done\nAnswer: 176 miles"], PIPELINES)
    run(engine, question)
    assert engine.result.answer.startswith("1,026 = 176 + 850"), engine.result.answer
    assert not engine.result.grounding.unsupported
    assert not any(c.kind in ("unsure", "several") for c in engine.result.cautions)


def test_no_sum_when_an_item_is_stated_by_no_figure_or_by_two():
    # "refined products pipelines" is private (850) and common carrier (217): not sure which
    assert (
        computed("what was total miles of private crude oil pipelines and refined products pipelines?", PIPELINES)
        is None
    )
    assert computed("what was total miles of private crude oil pipelines and gas pipelines?", PIPELINES) is None
    assert computed("what was the total of private crude oil pipelines?", PIPELINES) is None  # one item: no sum
