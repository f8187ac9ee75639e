"""Which value column a question names: by words, or by meaning when its subject is near a name."""

from engine.tools.tables.catalog import ColumnInfo
from engine.tools.tables.column_match import value_column


class Near:
    """Every name as near the subject as the model allows: only the rules decide."""

    def scores(self, text: str, labels: list[str]) -> list[float]:
        return [0.9] * len(labels)


def columns(*names: str) -> list[ColumnInfo]:
    return [ColumnInfo(name=n, sql_type="DOUBLE") for n in names]


def test_a_name_sharing_one_subject_word_but_lacking_another_is_not_matched_by_meaning():
    """FinQA: "interest income" is no "10% Increase in Interest Rates" column of a rate-sensitivity table."""
    question = "what is the percentage change in interest income from 2014 to 2015?"
    found = value_column(
        question, "interest income", columns("10% Increasein Interest Rates", "10% Decreasein Interest Rates"), Near()
    )
    assert found is None


def test_a_name_of_other_words_is_still_matched_by_meaning():
    found = value_column("what was the revenue in 2015?", "revenue", columns("Net sales"), Near())
    assert found is not None and found.name == "Net sales"


def test_a_period_shared_with_the_name_is_no_subject_word():
    """ "the percentage of EBITDA during F19": the "F19 · 53 WEEKS" column, near by meaning."""
    found = value_column(
        "What is the share of EBITDA during F19?",
        "during F19",
        columns("F19 · 53 WEEKS", "CHANGE · NORMALISED"),
        Near(),
    )
    assert found is not None and found.name == "F19 · 53 WEEKS"
