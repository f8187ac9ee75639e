"""The span of years a column of payments due covers ("Up to 1 year", "1 to 3 years", "More
than 5 years"), and the span a question asks ("between 1 to 3 years", "within 5 years").

A contractual-obligations table splits each row by when it falls due. A question about "the
obligations due within 5 years" asks the columns that end by the fifth year added up; one
about "between 1 to 3 years" asks that column alone. The years written in these names are
bounds, not periods, so the year and word matching elsewhere cannot tell the columns apart."""

from __future__ import annotations

import math
import re
from types import MappingProxyType

from engine.grounding.answer_kinds import fold

Span = tuple[float, float]

_N = r"(\d+(?:\.\d+)?|one|two|three|four|five|ten)"
_WORDS = MappingProxyType({"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10})
_YEARS = r"\s*(?:years?|yrs?)\b"
_BETWEEN = re.compile(rf"(?:between\s+)?{_N}\s*(?:to|-|–|and)\s*{_N}{_YEARS}")
_UP_TO = re.compile(rf"\b(?:up to|less than|within|under|no more than|not more than|in less than)\s+{_N}{_YEARS}")
_OR_LESS = re.compile(rf"{_N}{_YEARS}\s+or\s+less\b")
_BEYOND = re.compile(rf"\b(?:more than|over|after|beyond|greater than|later than)\s+{_N}{_YEARS}")
_OR_MORE = re.compile(rf"{_N}{_YEARS}\s+(?:or more|and (?:over|beyond|thereafter))\b")
# "due after 2021", "beyond fiscal 2024": what falls after a year, which that year's own column or row does not hold
AFTER_YEAR = re.compile(r"(?i)\b(?:after|beyond|later than|subsequent to)\s+(?:fiscal\s+|fy\s?)?((?:19|20)\d\d)\b")


def _value(text: str) -> float:
    return float(_WORDS[text]) if text in _WORDS else float(text)


def span_due(text: str) -> Span | None:
    """The span of years ``text`` names, or None: "1 to 3 years" (1, 3), "Up to 1 year" (0, 1),
    "More than 5 years" (5, inf); a year ("2019") or a duration alone ("5 years") names none."""
    folded = fold(text)
    if m := _BETWEEN.search(folded):
        return _value(m.group(1)), _value(m.group(2))
    if m := _UP_TO.search(folded) or _OR_LESS.search(folded):
        return 0.0, _value(m.group(1))
    if m := _BEYOND.search(folded) or _OR_MORE.search(folded):
        return _value(m.group(1)), math.inf
    return None


def spans_due(text: str) -> list[Span]:
    """Every span of years ``text`` names, in its order ("less than one year and between 2-5 years": two)."""
    folded = fold(text)
    found = [(m.start(), (_value(m.group(1)), _value(m.group(2)))) for m in _BETWEEN.finditer(folded)]
    found += [(m.start(), (0.0, _value(m.group(1)))) for p in (_UP_TO, _OR_LESS) for m in p.finditer(folded)]
    found += [(m.start(), (_value(m.group(1)), math.inf)) for p in (_BEYOND, _OR_MORE) for m in p.finditer(folded)]
    return [span for _, span in sorted(found)]


def within(part: Span, whole: Span) -> bool:
    """Whether the span ``part`` lies inside ``whole`` (its columns add up to the whole)."""
    return whole[0] <= part[0] and part[1] <= whole[1]
