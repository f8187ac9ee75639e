"""Which year a row is largest or smallest in: "In which year was the weighted average number
of shares largest?" is answered by the year of the row's extreme cell, not by any year the
evidence names."""

from __future__ import annotations

import re
from typing import Literal

from engine.grounding.answer_kinds import fold
from engine.grounding.layout import Place
from engine.grounding.scope import Scope

Extreme = Literal["max", "min"]
_THRESHOLD = re.compile(
    r"\b(?:than|exceed\w*|above|below|under|over|plus de|moins de)\b|(?<![\d(])-?\d[\d,.]*(?![\d)])"
)
_WHICH_YEAR = re.compile(r"\b(?:which|what) (?:fiscal )?year\b|\ben quelle annee\b|\bquelle annee\b")
_MAX = re.compile(
    r"\b(?:largest|larger|highest|higher|greatest|greater|biggest|bigger|maximum|most"
    r"|plus (?:elevee?s?|grande?s?|forte?s?|importante?s?))\b"
)
_MIN = re.compile(
    r"\b(?:smallest|smaller|lowest|lower|least|minimum"
    r"|plus (?:faibles?|bas|basses?|petits?|petites?)|moins (?:eleve|elevee|important|importante))\b"
)


def extreme_asked(question: str) -> Extreme | None:
    """ "max" for "in which year was X largest / larger", "min" for "smallest / lower"; else None."""
    text = fold(question)
    if not _WHICH_YEAR.search(text):
        return None
    if any(not re.fullmatch(r"(?:19|20)\d\d", m.group()) for m in _THRESHOLD.finditer(text)):
        return None  # "in which year was the net loss less than -10,000?": a threshold, not an extreme
    wants_max, wants_min = bool(_MAX.search(text)), bool(_MIN.search(text))
    if wants_max == wants_min:
        return None
    return "max" if wants_max else "min"


def extreme_cell(scope: Scope, extreme: Extreme) -> Place | None:
    """The cell of the row most about the question with the largest (smallest) value, over the
    row's one-year cells; None when the row has fewer than two years or two cells tie."""
    best = scope.best
    if best is None or best.kind != "cell" or not scope.subject_active:
        return None
    cells = [p for p in scope.strong if p.kind == "cell" and p.evidence == best.evidence and p.row == best.row]
    by_year: dict[str, Place] = {}
    for p in cells:
        if len(p.years) == 1:
            by_year.setdefault(next(iter(p.years)), p)
    if len(by_year) < 2:
        return None
    ranked = sorted(by_year.values(), key=lambda p: p.absolute, reverse=extreme == "max")
    if ranked[0].absolute == ranked[1].absolute:
        return None
    return ranked[0]
