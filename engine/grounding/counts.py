"""A count an answer states with the items it counted: "3 (Group operating profit, Group cash
generation, Group ROCE)". The count must be the number of items listed; "3 (2019, 2018)"
counts two. Only for a question that asks how many."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.grounding.answer_kinds import fold

_COUNT = re.compile(r"(?<![\w.,$€£-])(\d{1,3})\s*\(([^()\n]{1,600})\)")
_HOW_MANY = re.compile(r"\b(?:how many|combien|number of|nombre d[e'])")  # "how many years" counts years too
_SEPARATOR = re.compile(r"\s*(?:[,;]|\band\b|\bet\b)\s*")


@dataclass(slots=True, frozen=True)
class StatedCount:
    span: tuple[int, int]  # of the count's digits in the answer
    count: int
    items: tuple[str, ...]

    @property
    def holds(self) -> bool:
        return self.count == len(self.items)


def stated_counts(answer: str, question: str) -> list[StatedCount]:
    """Every "N (item, item, …)" of an answer to a "how many" question."""
    if not _HOW_MANY.search(fold(question)):
        return []
    out = []
    for m in _COUNT.finditer(answer):
        items = tuple(i for i in _SEPARATOR.split(m.group(2).strip()) if i)
        if items:
            out.append(StatedCount(m.span(1), int(m.group(1)), items))
    return out
