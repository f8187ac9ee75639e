"""The periods a plan reads: what falls after a year, and a month written in a date."""

from engine.tools.tables.catalog import ColumnInfo
from engine.tools.tables.plan_periods import column_after, year_after


def columns(*names: str) -> list[ColumnInfo]:
    return [ColumnInfo(name=n, sql_type="DOUBLE") for n in names]


def test_what_falls_after_the_last_year_is_the_one_later_column():
    numbers = columns("2017", "2018", "2021", "Thereafter", "Total")
    assert year_after("What percentage of long-term debt is due after 2021?") == "2021"
    assert column_after("2021", numbers).name == "Thereafter"
    assert column_after("2018", numbers) is None  # 2021 and Thereafter: no one column
    assert column_after("2021", columns("2021", "2022 and after")).name == "2022 and after"
    assert year_after("What was the revenue in 2021?") is None
