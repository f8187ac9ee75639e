"""Whether a sentence of the documents states, with another figure, what a planned table
cell was taken for.

A small model's table computation is planned by the engine from the question's words, and a
row named by one of them ("Cost") can be taken for a subject the question names in full ("the
total unrecognized compensation cost related to non-vested awards"), which a sentence states
("… was $1.2 billion"). When one sentence of the evidence holds every word of the question's
subject, the planned cells' rows and columns hold fewer than half of them, and no such
sentence states the planned figure, the plan is not vouched for: ``review`` cautions the
answer with that sentence (``engine/react/verify.py``)."""

from __future__ import annotations

from typing import Any

from engine.grounding.answer_kinds import is_prose
from engine.grounding.dates import MONTHS
from engine.grounding.figures import extract_figures
from engine.grounding.layout import YEAR_RE
from engine.grounding.models import Evidence
from engine.grounding.quotes import words
from engine.grounding.units import bounded, evidence_units
from engine.tools.tables.question_reading import read_question

_MONTH_WORDS = frozenset(words(" ".join(MONTHS)))  # "at December 31, 2019" dates the figure; it names no subject
SUBJECT_LEAST = 3  # content words a subject needs before a sentence is said to restate it


def _numbers(text: str) -> set[str]:
    """The leading numbers of the amounts ``text`` states ("100 million" is 100), no date or year."""
    return {f.value.split(" ")[0] for f in extract_figures(text) if f.kind != "date" and not YEAR_RE.fullmatch(f.text)}


def sentence_against_plan(question: str, args: dict[str, Any], result: str, evidence: list[Evidence]) -> str | None:
    """The sentence (bounded) that restates the question's subject more fully than the planned
    cells name it and states another figure or none, or None when no sentence does, or one
    that does states the planned ``result``."""
    subject = read_question(question).subject - _MONTH_WORDS
    if len(subject) < SUBJECT_LEAST:
        return None
    named = words(" ".join(str(x) for x in [*args.get("rows", []), *args.get("columns", [])]))
    if 2 * len(subject & named) >= len(subject):
        return None  # the cells name half the subject or more: the plan read the question's own row
    planned = _numbers(result)
    against: str | None = None
    for ev in evidence:
        if ev.computed:
            continue
        for unit in evidence_units(ev):
            if "|" in unit.text or not is_prose(unit.text) or not subject <= words(unit.text):
                continue
            if planned & _numbers(unit.text):
                return None  # a sentence of the subject states the planned figure
            against = against or bounded(unit.text)
    return against
