"""The balance rows of a roll-forward ("Beginning balance", movements, "Balance at December 31, 2010") that a
question names by its ends or by the closing date, rather than by a row's own words."""

from __future__ import annotations

import re

from engine.grounding.answer_kinds import fold
from engine.grounding.layout import YEAR_RE
from engine.grounding.totals import is_balance_label
from engine.tools.tables.label_match import label_words

_AT_END = re.compile(r"\b(?:at|from|to|as of|by) the (?P<end>end|close|beginning|start) of\b")
_MOVED = frozenset(label_words("decline declined drop dropped fall fell rise rose grew"))  # how, not what, it moved
_OPENING = re.compile(r"\b(?:beginning|opening|january 1|start)\b")


def balance_rows(
    question: str,
    labels: list[str],
    named: list[str],
    within_year: bool = False,
    subject: frozenset[str] = frozenset(),
    captioned: frozenset[str] = frozenset(),
) -> list[str]:
    """The rows ``named``, or else the balance rows of a roll-forward a question names by its ends
    ("the change in unrecognized tax benefits from the end of 2014 to the end of 2015": "Balance,
    December 31" in each year's column; "from the beginning to the end of 2015": the opening, then
    the closing balance). ``within_year``: a change asked in one year that names no row, or one
    that holds less than half its ``subject`` ("in 2010 what was the percentage change in the
    deferred policy acquisition costs": not the "Deferred Costs" of that year): the closing less
    the opening balance. A question that names no row but the table's own subject (``captioned``: the words of the
    text that introduces it, "the activity in our gross unrecognized tax benefits"), across years: the closing
    balance of each. The rows named when the table has no one opening and one closing balance."""
    partly = within_year and len(named) == 1 and not is_balance_label(named[0])
    balances = [r for r in labels if is_balance_label(r)]
    opening = [r for r in balances if _OPENING.search(fold(r))]
    closing = [r for r in balances if r not in opening]
    if len(named) == 1 and len(closing) == 1 and not is_balance_label(named[0]) and _dated(question, closing[0]):
        return closing  # "the gross carrying amount … at december 31, 2010": no movement of the year, its balance
    if named and not (partly and 2 * len(label_words(named[0]) & subject) < len(subject)):
        return named
    if len(opening) != 1 or len(closing) != 1:
        return named
    ends = {m.group("end") for m in _AT_END.finditer(fold(question))}
    if not named and not within_year and not ends and subject & captioned and not subject - captioned - _MOVED:
        return closing  # "the percentage decline in the gross unrecognized tax benefits from 2014 to 2015"
    if within_year and not ends:
        return [*closing, *opening]  # later − earlier
    return [*(opening if ends & {"beginning", "start"} else []), *(closing if ends & {"end", "close"} else [])] or named


_AT_DATE = re.compile(r"\b(?:at|as of|on) ((?:january|february|march|april|may|june|july|august|september|october|"
                      r"november|december) \d{1,2}\W+(?:19|20)\d\d)\b")  # fmt: skip


def _dated(question: str, closing: str) -> bool:
    """Whether the question asks a level at a date ("at december 31 , 2010") that the closing balance row writes, in
    a question of that one year."""
    asked = _AT_DATE.search(fold(question))
    if asked is None or len(set(YEAR_RE.findall(question))) != 1:
        return False
    return re.sub(r"\W", "", asked.group(1)) in re.sub(r"\W", "", fold(closing))
