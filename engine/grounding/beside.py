"""What an answer writes beside one of its figures: the clause around it, its years and
words, its scale word ("8 thousand"), percentage points; and whether a figure is a year."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from engine.grounding.figures import Found, scale_factor
from engine.grounding.layout import content_words, years_in
from engine.grounding.places import Layout

_SCALE_WORD = re.compile(r"(?i)[a-z]+$")
POINTS = re.compile(r"\s?(?:pts?|points?|pp|percentage points?|points? de pourcentage)\b", re.IGNORECASE)
CLAUSE_END = re.compile(r"[.;!?\n]\s|\n")


def year_of(item: Found) -> str:
    """The year a figure writes: "2019", or "FY19" and "FY2019" (read as 2019)."""
    return item.value if item.text[:2].upper() == "FY" else item.text


def is_year(item: Found, years: frozenset[str], layout: Layout) -> bool:
    """A bare four-digit figure that the question or the evidence uses as a period ("in 2019", "FY19")."""
    year = year_of(item)
    if item.kind != "number" or not re.fullmatch(r"(?:19|20)\d\d", year):
        return False
    return year in years or layout.has_year(year)


class Beside:
    """The years and words the answer writes in the clause of a figure, read when first asked."""

    def __init__(self, answer: str, cuts: list[tuple[int, int]], item: Found) -> None:
        self.answer, self.cuts, self.item = answer, cuts, item
        word = _SCALE_WORD.search(item.text)
        self.scale = scale_factor(word.group()) if word else 1  # the scale word the answer writes
        self._years: frozenset[str] | None = None
        self._words: frozenset[str] | None = None

    def points(self) -> bool:
        """The answer writes the figure in percentage points: "0.3 pts", "1.2 points", "0.5 pp"."""
        return bool(POINTS.match(self.answer, self.item.end))

    def clause(self) -> str:
        i = bisect_right(self.cuts, (self.item.start, self.item.start)) - 1
        start = self.cuts[i][1] if i >= 0 else 0
        j = bisect_left(self.cuts, (self.item.end, self.item.end))
        end = self.cuts[j][0] if j < len(self.cuts) else len(self.answer)
        return self.answer[start:end]

    def years(self) -> frozenset[str]:
        if self._years is None:
            self._years = years_in(self.clause())
        return self._years

    def words(self) -> frozenset[str]:
        if self._words is None:
            self._words = content_words(self.clause())
        return self._words
