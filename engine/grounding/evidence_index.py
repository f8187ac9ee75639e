"""Every value the run's evidence holds, indexed once, looked up per figure.

Numbers sit in one sorted array, so a figure and its rounding tolerance is one
``bisect`` (an answer's ``33.33%`` finds ``33.3333``; ``391.0`` finds ``391``). Dates,
and small numbers written as words, are indexed only when an answer has a figure that
needs them. The engine's own cut note (``[… 1298 more characters cut]``) is blanked out
first: its number is no evidence.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.grounding.dates import DATE_RE, date_keys, day_of_date, find_dates, month_of, partial_keys
from engine.grounding.figures import NUMBER_WORDS, Found, scan_numbers
from engine.grounding.models import Evidence

CUT_NOTE_RE = re.compile(r"\[(?:…|\.\.\.) ?\d[\d,.\u202f\u00a0 ]* more characters cut\]")
SEARCH_HEADER_RE = re.compile(r"(?m)^\[\d+\] source: [^\n]*· score [\d.]+[ \t]*$|^Cite the sources you use[^\n]*$")
_MONEY_NEAR = re.compile(r"[$€£¥]|\b(?:thousand|million|billion|bn|mn)s?\b", re.IGNORECASE)  # around a number
_CELL_COMMA = re.compile(r",(?!\d{3}(?:\D|$))[^\s,]")  # a comma that delimits cells, not thousands
# Entries of the sorted number array: (value, evidence position, start, end, kind, in_input).
_Entry = tuple[float, int, int, int, str, bool]
T = TypeVar("T")


def without_engine_notes(text: str) -> str:
    """The text with what the engine itself wrote blanked out (same length, so offsets
    still hold): cut notes ("[… 1298 more characters cut]") and search-result headers
    ("[1] source: a.md · Travel · score 0.71"). Their numbers are no evidence."""
    if "more characters cut" in text:
        text = CUT_NOTE_RE.sub(lambda m: " " * len(m.group()), text)
    if "· score " in text or "Cite the sources" in text:
        text = SEARCH_HEADER_RE.sub(lambda m: " " * len(m.group()), text)
    return text


def cells(text: str) -> str:
    """CSV-like lines with their delimiting commas as tabs, so ``Q1,France,1303,37.3`` reads
    as four cells while ``1,250,000`` stays one number. Same length as ``text``."""
    if text.count(",") < 2:
        return text
    lines = text.split("\n")
    changed = False
    for i, line in enumerate(lines):
        if line.count(",") >= 2 and _CELL_COMMA.search(line):
            lines[i] = line.replace(",", "\t")
            changed = True
    return "\n".join(lines) if changed else text


ROUNDING_SHARE = 0.05  # a figure rounded from another is within 5% of it ("13.5%" for 13.48%)


def rounding_tolerance(value: float, tolerance: float) -> float:
    """How far a figure written ``value`` (half a unit of its last digit: ``tolerance``) may be
    from the one it rounds: within that half unit and within 5% of it ("$1" is no rounding of "$0.8 million")."""
    return min(tolerance, max(ROUNDING_SHARE * abs(value), 1e-9 * max(1.0, abs(value))))


@dataclass(slots=True)
class Hit:
    """Where a figure's value was found: evidence position in the list, span, and how."""

    evidence: int  # position in the evidence list
    start: int
    end: int
    kind: str
    in_input: bool = False
    exact: bool = True


class EvidenceIndex:
    """The values of a run's evidence, queried per figure.

    Built from a list, or grown with ``add`` as each Observation arrives, so that checking
    the answer only looks values up. Dates and number words are indexed on first need."""

    def __init__(self, evidence: Sequence[Evidence] = ()) -> None:
        self.evidence: list[Evidence] = []
        self.texts: list[str] = []
        self._entries: list[_Entry] = []
        self._values: list[float] = []
        self._sorted = True
        self._numeric_dates: list[tuple[int, bool, int, int]] = []  # (position, in input, span)
        self._reset_lazy()
        for ev in evidence:
            self.add(ev)

    def add(self, ev: Evidence) -> None:
        """Index one more piece of evidence (its numbers now; its dates when a figure needs them)."""
        pos = len(self.evidence)
        self.evidence.append(ev)
        self.texts.append(without_engine_notes(ev.text))
        self._add_numbers(pos, cells(self.texts[pos]), ev.computed, False, self._entries)
        if ev.computed and ev.input:
            self._add_numbers(pos, ev.input, True, True, self._entries)
        self._sorted = False
        self._reset_lazy()

    def _reset_lazy(self) -> None:
        self._dates: dict[str, list[Hit]] = {}
        self._months_done: set[int] = set()
        self._numeric_dates_done = False
        self._lowered: list[str] | None = None
        self._memo: dict[str, object] = {}

    def result_line(self, pos: int) -> bool:
        """Whether evidence ``pos`` is a one-line computed result ("412 = 1,950 − 1,538: …"): it names nothing of
        the documents."""
        return self.evidence[pos].computed and "\n" not in self.texts[pos].strip()

    def memo(self, key: str, build: Callable[[EvidenceIndex], T]) -> T:
        """``build(self)``, computed once until the evidence grows (e.g. where each figure sits)."""
        if key not in self._memo:
            self._memo[key] = build(self)
        return self._memo[key]  # type: ignore[return-value]

    def _ensure_sorted(self) -> None:
        if not self._sorted:
            self._entries.sort()
            self._values = [e[0] for e in self._entries]
            self._sorted = True

    @classmethod
    def of_text(cls, text: str) -> EvidenceIndex:
        return cls([Evidence(n=0, tool="question", text=text)] if text else [])

    def around(self, value: float, tolerance: float, limit: int = 64, kind: str = "") -> list[tuple[int, int]]:
        """(evidence position, start) of the numbers within ``tolerance`` of ``value``, signs
        aside, a tool's input left out, the closest values first: where a figure (of ``kind``)
        may be stated."""
        self._ensure_sorted()
        centre = abs(value)
        tolerance = rounding_tolerance(centre, tolerance)
        lo = bisect_left(self._values, centre - tolerance)
        hi = bisect_right(self._values, centre + tolerance, lo)
        entries = [e for e in self._entries[lo : min(hi, lo + limit)] if not e[5] and self._may_be(e, kind)]
        near = sorted((abs(e[0] - centre), e[1], e[2]) for e in entries)
        return list(dict.fromkeys((pos, start) for _, pos, start in near))

    def find(self, figure: Found) -> Hit | None:
        """The best place holding ``figure``: an exact value before a rounded one, the same
        kind before another, a tool's output before its input, earlier evidence first."""
        if figure.dates:
            return self._find_date(figure.dates)
        self._ensure_sorted()
        for reading in figure.readings:
            value = reading.value
            if not math.isfinite(value):  # a number too long for a float matches nothing
                continue
            tiny = 1e-9 * max(1.0, abs(value))
            for margin, exact in ((tiny, True), (rounding_tolerance(value, reading.tolerance), False)):  # exact first
                lo = bisect_left(self._values, value - margin)
                hi = bisect_right(self._values, value + margin, lo)
                entries = [e for e in self._entries[lo : min(hi, lo + 32)] if self._may_be(e, figure.kind)]
                if entries:
                    return self._best(entries, figure.kind, exact)
        return self._find_word(figure)

    def _may_be(self, entry: _Entry, kind: str) -> bool:
        """Whether an evidence number may be a figure of ``kind``: a percentage is never an
        amount of money ("1.8%" is not "$1,788 million" read as 1.788)."""
        if kind != "percent" or entry[4] == "percent":
            return True
        text = self.texts[entry[1]]
        return not _MONEY_NEAR.search(text[max(0, entry[2] - 2) : entry[3] + 1])

    @staticmethod
    def _best(entries: list[_Entry], kind: str, exact: bool) -> Hit:
        """The same kind before another, a tool's output before its input, earlier evidence first."""
        best = min(entries, key=lambda e: (e[4] != kind, e[5], e[1]))
        return Hit(best[1], best[2], best[3], best[4], best[5], exact)

    def lowered(self) -> list[str]:
        if self._lowered is None:
            self._lowered = [low if len(low := t.lower()) == len(t) else t for t in self.texts]
        return self._lowered

    def _find_date(self, keys: list[str]) -> Hit | None:
        months = frozenset(m for m in map(month_of, keys) if m) - self._months_done
        if months or not self._numeric_dates_done:
            self._index_dates(months)
        for key in keys:
            hits = self._dates.get(key)
            if hits:
                return min(hits, key=lambda h: (h.in_input, h.evidence))
        return None

    def _index_dates(self, months: frozenset[int]) -> None:
        """Index the numeric dates (once) and the dates naming ``months`` (once per month)."""
        found: list[tuple[int, bool, list[str], int, int]] = []
        if not self._numeric_dates_done:
            for pos, in_input, start, end in self._numeric_dates:
                text = self.evidence[pos].input if in_input else self.texts[pos]
                match = DATE_RE.match(text, start)
                if match and (keys := date_keys(match)):
                    found.append((pos, in_input, keys, start, end))
        if months:
            lowered = self.lowered()
            for pos, ev in enumerate(self.evidence):
                found += [(pos, False, *date) for date in find_dates(self.texts[pos], months, lowered[pos])]
                if ev.computed and ev.input:
                    found += [(pos, True, *date) for date in find_dates(ev.input, months)]
        for pos, in_input, keys, start, end in found:
            for key in dict.fromkeys(k for full in keys for k in (full, *partial_keys(full))):
                self._dates.setdefault(key, []).append(Hit(pos, start, end, "date", in_input))
        self._numeric_dates_done = True
        self._months_done |= months

    def _add_numbers(self, pos: int, text: str, computed: bool, in_input: bool, entries: list[_Entry]) -> None:
        dates: list[tuple[int, int]] = []
        for value, start, end, percent in scan_numbers(text, dates):
            if not math.isfinite(value):
                continue
            kind = "percent" if percent else "number"
            entries.append((value, pos, start, end, kind, in_input))
            if computed and 0 < value <= 1 and not percent:  # a computed ratio is a percentage
                entries.append((value * 100, pos, start, end, "percent", in_input))
        self._numeric_dates += [(pos, in_input, start, end) for start, end in dates]

    def _find_word(self, figure: Found) -> Hit | None:
        """Small numbers written as words in the evidence ("three days", "trois jours")."""
        wanted = {r.value for r in figure.readings}
        names = [w for w, v in NUMBER_WORDS.items() if v in wanted]
        if not names or not self.evidence:
            return None
        for pos, text in enumerate(self.lowered()):
            for name in names:
                at = text.find(name)
                while at >= 0:
                    end = at + len(name)
                    if not (at and text[at - 1].isalpha()) and not (end < len(text) and text[end].isalpha()):
                        return Hit(pos, at, end, figure.kind, False, True)
                    at = text.find(name, end)
        return None


def held(index: EvidenceIndex, hit: Hit | None) -> bool:
    """Whether the index's hit is a figure of the evidence, not the day of a date ("September 29")."""
    if hit is None:
        return False
    if hit.in_input or hit.kind == "date":
        return True
    return not day_of_date(index.texts[hit.evidence], hit.start)
