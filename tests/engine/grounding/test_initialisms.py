"""The initialisms a question names, and whether a sentence names them."""

import pytest

from engine.grounding.initialisms import initialisms, initialisms_asked, names


def test_initialisms_are_read_with_or_without_their_dots():
    assert initialisms("the Company's U.K. facility, its US one and AOCI") == {"UK", "US", "AOCI"}
    assert initialisms("its U.S deferred tax assets, U.S.A. and J.P. Morgan") == {"US", "USA", "JP"}  # last dot dropped
    assert initialisms("Research and Development, R&D, FY2019, Q1 and a Total") == frozenset()


@pytest.mark.parametrize(
    ("sentence", "short", "named"),
    [
        ("Amounts capitalized for the U.K. facility were $31.2 million.", "UK", True),
        ("Amounts capitalized for the UK facility were $31.2 million.", "UK", True),
        ("Property in the United Kingdom was $17.4 million.", "UK", True),  # spelled out
        ("Changes in accumulated other comprehensive income were small.", "AOCI", True),
        ("Amounts capitalized for the U.S. facility were $39.4 million.", "UK", False),
        ("A unique key was issued.", "UK", False),  # the letters, not as initials of consecutive words
    ],
)
def test_a_sentence_names_an_initialism_written_or_spelled_out(sentence, short, named):
    assert names(sentence, short) == named


def test_only_the_initialisms_some_evidence_names_are_asked():
    texts = ["The U.S. facility cost $41.8 million.", "The U.K. facility cost $31.2 million."]
    assert initialisms_asked("What did the U.K. facility cost?", texts) == {"UK"}
    assert initialisms_asked("What did the EMEA facility cost?", texts) == frozenset()  # no evidence writes it
    defined = "What is the Share Incentive Plan ('SIP')?"  # spelled out in the question: its words name it
    assert initialisms_asked(defined, ["Under the SIP, staff buy shares.", "Staff may invest up to 1,800."]) == set()
