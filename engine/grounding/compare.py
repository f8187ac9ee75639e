"""Which year a row is largest or smallest in, or meets a condition in: "In which year was the
weighted average number of shares largest?" is answered by the year of the row's extreme
cell, "In which year was the AMT credit less than 10?" by a year whose cell is below 10, not
by any year the evidence names."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from engine.grounding.answer_kinds import fold, is_prose
from engine.grounding.layout import YEAR_RE, Place, content_words, period_pairs, years_in
from engine.grounding.models import Evidence
from engine.grounding.scope import Scope
from engine.grounding.units import evidence_units

Extreme = Literal["max", "min"]
Comparison = Literal[">", "<"]
_CONDITION = re.compile(
    r"\b(?P<word>exceed(?:ed|s|ing)?|above|over|more than|greater than|higher than|at least|below|under|less than|"
    r"lower than|fewer than|superieure?s? a|au-dessus de|au dessus de|plus de|depasse\w*|inferieure?s? a|"
    r"au-dessous de|en dessous de|moins de)\s*(?:[$€£]\s*)?(?P<number>-?\d[\d,.\s]*\d|\d)"
    r"(?:\s*(?P<scale>thousands?|millions?|billions?|milliers|milliards?|bn|m|k)\b)?"
)
SCALES = MappingProxyType({"thousand": 10**3, "million": 10**6, "billion": 10**9})  # a table's scale words
_SCALE_WORDS = (("milliard", 10**9), ("milli", 10**3), ("k", 10**3), ("m", 10**6), ("bn", 10**9))  # "milliers", "5m"
# "Over 2 months overdue", "more than 60 days": an age band a row is named for, no threshold of figures
_AGE_BAND = re.compile(
    r"\b(?:over|above|under|below|more than|less than|within)\s+\d+\s+(?:days?|weeks?|months?|years?)\b"
)
_BELOW = re.compile(r"below|under|less|lower|fewer|inferieur|dessous|moins")


@dataclass(frozen=True)
class Condition:
    comparison: Comparison
    threshold: float
    scale: int = 1  # the scale word written after it ("$50 million": 10**6), 1 when none is

    def in_scale(self, table_scale: str) -> dict[str, object]:
        """The condition as compute_table takes it, its threshold in a table's unit: "$50 million"
        over a table in thousands is 50,000; as written when either says no scale (the question
        then uses the table's unit)."""
        unit = SCALES.get(table_scale, 1)
        threshold = self.threshold * self.scale / unit if self.scale > 1 and unit > 1 else self.threshold
        return {"comparison": self.comparison, "threshold": threshold}


def _number(text: str) -> float | None:
    digits = re.sub(r"[\s,]", "", text)
    try:
        return float(digits)
    except ValueError:
        return None


_SIGN = re.compile(r"\b(?:(?P<neg>negative|negatif)|positive|positif)\b")  # accent-folded text


def condition_in(text: str) -> Condition | None:
    """ "exceed $200 million" → (>, 200, 10**6): the scale word is kept apart, and
    ``Condition.in_scale`` gives the threshold in a table's unit. "negative" is below 0,
    "positive" above."""
    match = _CONDITION.search(_AGE_BAND.sub(" ", text))
    if match is None and (sign := _SIGN.search(text)):
        return Condition("<" if sign.group("neg") else ">", 0.0)
    if match is None or (threshold := _number(match.group("number"))) is None:
        return None
    word = (match.group("scale") or "").rstrip("s")
    scale = SCALES.get(word) or next((v for k, v in _SCALE_WORDS if word.startswith(k) and word), 1)
    return Condition("<" if _BELOW.search(match.group("word")) else ">", threshold, scale)


_THRESHOLD = re.compile(
    r"\b(?:than|exceed\w*|above|below|under|over|plus de|moins de)\b"
    r"|(?<!\bage )(?<!\baged )(?<!\bnote )(?<!\blevel )(?<!\btier )(?<!\bscope )(?<!\bphase )(?<!\bclass )(?<!\bstage )"
    r"(?<![\d(])-?\d[\d,.]*(?![\d)])"
)  # a number of a name ("life expectancy at age 65", "Note 12", "Level 2", "Scope 1") is no threshold
_WHICH_YEAR = re.compile(
    r"\b(?:which|what) (?:of the )?(?:(?:fiscal )?years?|fy|financial years?)\b|\ben quelles? annees?\b|\bquelles? annees?\b"
)
_MAX = re.compile(
    r"\b(?:largest|larger|highest|higher|greatest|greater|biggest|bigger|maximum|most|longest|longer"
    r"|plus (?:elevee?s?|grande?s?|forte?s?|importante?s?))\b"
)
_MIN = re.compile(
    r"\b(?:smallest|smaller|lowest|lower|least|minimum|shortest|shorter"
    r"|plus (?:faibles?|bas|basses?|petits?|petites?)|moins (?:eleve|elevee|important|importante))\b"
)


def extreme_asked(question: str) -> Extreme | None:
    """ "max" for "in which year was X largest / larger", "min" for "smallest / lower"; else None."""
    text = fold(question)
    if not _WHICH_YEAR.search(text):
        return None
    text = _AGE_BAND.sub(" ", text)
    if any(not re.fullmatch(r"(?:19|20)\d\d", m.group().rstrip(",.")) for m in _THRESHOLD.finditer(text)):
        return None  # "in which year was the net loss less than -10,000?": a threshold, not an extreme
    wants_max, wants_min = bool(_MAX.search(text)), bool(_MIN.search(text))
    if wants_max == wants_min:
        return None
    return "max" if wants_max else "min"


def condition_asked(question: str) -> Condition | None:
    """ "In which year was X less than 10?": the condition the year must meet; else None."""
    text = fold(question)
    return condition_in(text) if _WHICH_YEAR.search(text) else None


def row_by_year(scope: Scope) -> dict[str, Place] | None:
    """The cells of one period of the row most about the question, by period ("2019", or
    "2018/2019" for a fiscal year over two); None when it has fewer than two periods. When
    the best row has none (a copy of the table read as plain CSV, its dates a row of
    text), the same row elsewhere in the evidence is read."""
    best = scope.best
    if best is None or best.kind != "cell" or not scope.subject_active:
        return None
    same = [p for p in scope.strong if p.kind == "cell" and p.label_words == best.label_words and p is not best]
    same.sort(key=lambda p: p.column != best.column)  # a copy is read in the best cell's column, not the row's last
    others: dict[tuple[int, int], Place] = {}
    for p in same:
        if (p.evidence, p.row) != (best.evidence, best.row):
            others.setdefault((p.evidence, p.row), p)
    anchors = [best, *others.values()]
    return next((by_year for a in anchors if (by_year := _periods(scope, a)) is not None), None)


def _periods(scope: Scope, anchor: Place) -> dict[str, Place] | None:
    cells = [p for p in scope.strong if p.kind == "cell" and p.evidence == anchor.evidence and p.row == anchor.row]
    if len({p.years for p in cells}) < 2:  # one date per block of rows ("June 30, 2019" over its rows)
        cells = [
            p for p in scope.strong
            if p.kind == "cell" and p.evidence == anchor.evidence and (p.label, p.column) == (anchor.label, anchor.column)
        ]  # fmt: skip
    by_year: dict[str, Place] = {}
    for p in cells:
        if p.percent != anchor.percent:
            continue  # a "% Change" column beside the amounts is no period of the row
        if (
            len(p.years) == 1 or len(p.years) == 2 and period_pairs(p.column)
        ):  # "2019", "2018/2019" (not "2019 vs 2018")
            by_year.setdefault("/".join(sorted(p.years)), p)
    return by_year if len(by_year) >= 2 else None


def meets(place: Place, condition: Condition) -> bool:
    return place.value > condition.threshold if condition.comparison == ">" else place.value < condition.threshold


_OUTGOING = re.compile(r"\b(?:loss|losses|deficits?|expenses?|costs?|outflows?|pertes?|deficits?|charges?|couts?)\b")


def by_magnitude(question: str) -> bool:
    """ "Which year had a greater loss?": a loss written negative ("(1,204)") is larger the more negative it is."""
    return bool(_OUTGOING.search(fold(question)))


def extreme_cell(scope: Scope, extreme: Extreme, magnitude: bool = False) -> Place | None:
    """The cell of the row most about the question with the largest (smallest) value, over the
    row's one-year cells; None when the row has fewer than two years or two cells tie. With
    ``magnitude`` (a loss or a cost asked) and every cell negative, the size of the figure counts."""
    by_year = row_by_year(scope)
    if by_year is None:
        return None
    size = magnitude and all(p.value < 0 for p in by_year.values())
    ranked = sorted(by_year.values(), key=lambda p: abs(p.absolute) if size else p.absolute, reverse=extreme == "max")
    if abs(ranked[0].absolute) == abs(ranked[1].absolute) if size else ranked[0].absolute == ranked[1].absolute:
        return None
    return ranked[0]


def year_stated(terms: Mapping[str, float], evidence: Sequence[Evidence], year: str) -> bool | None:
    """Whether the sentences most about the question's ``terms`` (weighted words; two at least)
    state ``year``; None when no sentence is about them. A "when" answered by a year found in
    another sentence ("IMFT sales … for 2019, 2018, and 2017") is no answer."""
    best, about = 0.0, []
    for ev in evidence:
        if ev.computed:
            continue
        for unit in evidence_units(ev):
            if "|" in unit.text or not is_prose(unit.text):
                continue
            cover = sum(w for t, w in terms.items() if t in content_words(fold(unit.text)))
            if cover > best:
                best, about = cover, [unit.text]
            elif cover == best and cover:
                about.append(unit.text)
    if best < max(2.0, 0.5 * sum(terms.values())):
        return None
    return any(year in years_in(text) for text in about)


_WHEN = re.compile(r"\s*(?:when|(?:in|during) (?:which|what) (?:fiscal )?(?:year|period)|quand|en quelle annee)\b")


def when_asked(question: str, answer: str) -> bool:
    """ "When did …?" answered by one year (not the years a table is for: "2017; 2018; 2019")."""
    return bool(_WHEN.match(fold(question))) and len(YEAR_RE.findall(answer)) == 1
