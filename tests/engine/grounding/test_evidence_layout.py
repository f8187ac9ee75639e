"""The figures of a report's sentences and the years they are of (engine/grounding/evidence_layout.py)."""

import pytest

from engine.grounding.evidence_layout import sentence_places


@pytest.mark.parametrize(
    ("sentence", "years"),
    [
        ("Revenue was $5.7m, $3.8m and $3.1m in 2019, 2018 and 2017, respectively.", ["2019", "2018", "2017"]),
        ("In 2019 and 2018, the charge was $4.1 million and $2.0 million, respectively.", ["2019", "2018"]),
    ],
)
def test_respectively_gives_each_figure_its_own_year(sentence, years):
    places = sentence_places(sentence, 0, len(sentence), 0)
    assert [sorted(p.years) for p in places] == [[y] for y in years]


def test_figures_and_years_that_do_not_pair_keep_the_years_of_their_clause():
    sentence = "Revenue was $5.7m and $3.8m and $3.1m in 2019 and 2018, respectively."
    places = sentence_places(sentence, 0, len(sentence), 0)
    assert all(p.years == {"2019", "2018"} for p in places)
