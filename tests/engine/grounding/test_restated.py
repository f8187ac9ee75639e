"""Whether a quoted sentence restates the question it answers (engine/grounding/restated.py)."""

import pytest

from engine.grounding.restated import restates_question


@pytest.mark.parametrize(
    ("question", "sentence", "restated"),
    [
        (
            "How is basic net income per share computed?",
            "Basic net income per share is computed by dividing net income by the weighted-average number of "
            "common shares outstanding during the period.",
            True,
        ),
        (
            "What is warranty liability a component of?",
            "Changes in the Company's warranty liability, which is included as a component of accrued liabilities "
            "on the consolidated balance sheets, are set forth in the table below.",
            True,
        ),
        (  # the question's "caused" and "increase" stand nowhere: the closest sentence, not its answer
            "What caused the increase in capital expenditures related to wireless?",
            "Wireless capital expenditures were 1,320 million in 2019, compared with 1,086 million in 2018.",
            False,
        ),
        (  # a year asked that the sentence does not hold
            "What did the provisions relate to in 2019?",
            "In 2018 the provisions related to business in territories outside of the US.",
            False,
        ),
        ("What is the annual dividend paid provided for?", "Annual Dividends Paid and Proposed", False),  # a heading
        (  # a figure asked: a sentence is checked by its figures, not by its words
            "What was the research and development expense in 2019?",
            "The research and development expense was 6,577 in 2019, up from 6,332 in 2018.",
            False,
        ),
        (  # it adds nothing the question does not say
            "How is the fair value of derivatives determined?",
            "The fair value of derivatives is determined.",
            False,
        ),
        (  # a cause asked, named with its connective: the asking words "led to" are not looked for
            "What led to the increase in Depreciation and amortization expense?",
            "Depreciation and amortization expense increased approximately $8.8 million year over year, "
            "primarily due to additional amortization expense on newly acquired intangible assets.",
            True,
        ),
        (  # a cause asked, its asking word missing, and the sentence gives no cause
            "What drove the increase in Depreciation and amortization expense?",
            "Depreciation and amortization expense increased approximately $8.8 million year over year "
            "and stood at $46.2 million at the end of the year.",
            False,
        ),
        (  # a method asked, given with "based upon" instead of the asking word
            "How is the market value calculated?",
            "Market value is based upon an estimated average selling price reduced by estimated costs of disposal.",
            True,
        ),
        (  # a method asked, and the sentence gives none
            "How is the market value calculated?",
            "Market value fell during the year as selling prices declined in most regions.",
            False,
        ),
        (  # a cause given, but of another subject
            "What caused the decrease in selling expenses?",
            "Administrative expenses decreased by 4%, primarily due to lower headcount.",
            False,
        ),
    ],
)
def test_a_sentence_restates_the_question_only_with_every_word_asked_and_an_answer(question, sentence, restated):
    assert restates_question(question, sentence) is restated
