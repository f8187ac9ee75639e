"""The periods a table plan reads, and the ones it leaves out.

A question names its periods in words a table does not write as they are: "the percentage
change in inventory in 2014" is from 2013's column (``from_year_before``); "due after 2021" is
the Thereafter column, never 2021's (``year_after``, ``column_after``); a period the planned
cells do not hold is reported, so the answer says it is not verified (``period_unmet``); a
month written in a date ("to january 3, 2009") dates that end and filters no other cell.
"""

from __future__ import annotations

import re

from engine.grounding.answer_kinds import fold
from engine.grounding.dates import MONTHS
from engine.grounding.measure import CHANGE_NAMED
from engine.grounding.periods_due import AFTER_YEAR
from engine.grounding.report_table import COMPARISON_COLUMN
from engine.grounding.totals import is_balance_label, is_total_label
from engine.tools.tables.catalog import ColumnInfo, TableInfo
from engine.tools.tables.label_match import label_words
from engine.tools.tables.question_reading import Reading, quarters_in
from engine.tools.tables.table_shape import LATER, years_of

# "from 2006 to january 3, 2009": a month written in a date with its day and year dates that end, filters nothing
_DATED_MONTH = re.compile(r"\b([a-z]+) \d{1,2} ?,? ?(?:19|20)\d\d\b")


def period_unmet(
    reading: Reading, info: TableInfo, years_held: bool, cells: list[str] = (), question: str = ""
) -> bool:
    """Whether the question names a month, quarter or year the table cannot filter on (each cell's row or column may
    name the month; a month dated with its day and year only the cell of that date)."""
    named = [{MONTHS.get(w) for w in re.findall(r"[a-z]+", fold(c))} for c in cells]
    quarters = [set(quarters_in(fold(c))) for c in cells]  # "Fiscal Year Ended April 27, 2019: First Quarter"
    if reading.quarters and not (quarters and all(set(reading.quarters) <= q for q in quarters)):
        return True
    months = set(reading.months)  # each cell of a month asked, each month asked in a cell ("November 2018 and …")
    dated = {MONTHS.get(m) for m in _DATED_MONTH.findall(fold(question))}
    every = not months <= dated  # a month that filters is in every cell; a date's month in the one cell of its date
    if months and not (named and (all(n & months for n in named) or not every) and months <= set().union(*named)):
        return True
    held = years_held or all(y in info.source or y in info.caption or any(y in c for c in cells) for y in reading.years)
    return bool(reading.years) and not held


_TWO_NAMED = re.compile(r"\bbetween\b|\bversus\b|\bvs\b|\bcompared (?:to|with)\b(?! (?:19|20)\d\d)")


def from_year_before(
    question: str, op: str | None, rows: list[str], cols: list[ColumnInfo], info: TableInfo, labels: list[str]
) -> bool:
    """Whether a change asked of one year's cell of one row is from the year before's: not when
    the row states a change itself ("Net decrease in cash", "Revenue growth") or a column does
    ("% Change"), nor when the question compares two things ("the variation between A and B"),
    nor of a roll-forward, whose rows between its balances are the year's movements."""
    if op not in ("change", "decrease", "percent_change") or len(cols) != 1 or len(rows) != 1:
        return False
    if any(is_balance_label(label) for label in labels):
        return False
    if _TWO_NAMED.search(fold(question)):
        return False
    stated = label_words(rows[0]) & CHANGE_NAMED or any(COMPARISON_COLUMN.search(c.name) for c in info.columns)
    return not stated


def year_after(question: str) -> str | None:
    """The year the question asks what falls after ("what percentage of long-term debt is due after 2021": 2021)."""
    m = AFTER_YEAR.search(question)
    return m.group(1) if m else None


def column_after(year: str, numbers: list[ColumnInfo]) -> ColumnInfo | None:
    """The one column of what falls after ``year``: "Thereafter" when ``year`` is the last year
    the columns name, or "2022 and after" for the year after it; None when no column holds it."""
    dated = [int(y) for c in numbers for y in years_of(c.name)]
    later = []
    for c in numbers:
        if not LATER.search(fold(c.name)) or is_total_label(c.name):
            continue
        own = [int(y) for y in years_of(c.name)]
        if (own and min(own) == int(year) + 1) or (not own and dated and max(dated) == int(year)):
            later.append(c)
    return later[0] if len(later) == 1 else None
