"""One evidence text read lazily: its tables (``report_table``) and the sentences of its
paragraphs, each figure dated by the years of its clause."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import replace

from engine.grounding.dates import MONTH_BEFORE_RE
from engine.grounding.evidence_index import cells as csv_cells
from engine.grounding.layout import DIGIT_RE, RESPECTIVELY, SPLIT_YEAR_RE, YEAR_RE, Place, numbers_in, years_in
from engine.grounding.report_table import Table, is_numeric_cell, table_runs
from engine.grounding.units import blocks, sentence_spans

TITLE_MAX_CHARS = 120  # a line this short just above a table is its title ("25. Deferred income")
_CLAUSE_RE = re.compile(r"[;()]")


def sentence_places(text: str, a: int, b: int, pos: int) -> list[Place]:
    """The figures of the sentence ``text[a:b]``, each dated by the years of its clause."""
    sentence = text[a:b]
    if not DIGIT_RE.search(sentence):
        return []
    years = years_in(sentence)
    cuts = [a, *(a + m.start() for m in _CLAUSE_RE.finditer(sentence)), b]
    out = []
    for value, lo, hi, percent, scale in numbers_in(text, a, b):
        if not percent and (text[lo:hi].strip() in years or MONTH_BEFORE_RE.search(text, max(a, lo - 12), lo)):
            continue  # a year, or the day of a date ("December 31"), is the sentence's period, not a figure
        if (fiscal := SPLIT_YEAR_RE.search(text, max(a, lo - 5), hi)) and fiscal.start() < lo:
            continue  # the "18" of "2017/18"
        out.append(
            Place(
                value=value,
                scale=scale,
                text=text[lo:hi].strip(),
                evidence=pos,
                start=lo,
                end=hi,
                kind="text",
                years=_clause_years(text, cuts, lo, years),
                unit=(a, b),
                percent=percent,
            )  # fmt: skip
        )
    return _respectively(text, a, b, out)


def _respectively(text: str, a: int, b: int, out: list[Place]) -> list[Place]:
    """ "a gain of $1.2 million and $1.3 million in 2018 and 2017, respectively": each figure
    dated by its own year, so $1.3 million is no figure of 2018."""
    if len(out) < 2 or not RESPECTIVELY.search(text, a, b):
        return out
    listed = list(YEAR_RE.finditer(text, a, b))
    after = [m.group(0) for m in listed if m.start() >= out[-1].end]
    before = [m.group(0) for m in listed if m.end() <= out[0].start]
    years = after if len(after) == len(out) else before if len(before) == len(out) else []
    if not years:
        return out
    return [replace(place, years=frozenset({year})) for place, year in zip(out, years, strict=True)]


def _clause_years(text: str, cuts: list[int], at: int, sentence: frozenset[str]) -> frozenset[str]:
    """The years of the clause holding offset ``at`` ("(2017/18: €16 million)"): a sentence that
    names last year beside this year's figure does not date this year's figure."""
    if not sentence:
        return sentence
    i = bisect_right(cuts, at) - 1
    lo, hi = cuts[max(i, 0)], cuts[min(i + 1, len(cuts) - 1)]
    return years_in(text[lo:hi])


class EvidenceLayout:
    """The tables and paragraphs of one evidence text, read lazily: a row or a sentence is
    parsed when a lookup reaches it, so checking an answer against a long observation costs
    what the answer's figures and the question's words touch, not the whole text."""

    def __init__(self, pos: int, text: str, computed: bool) -> None:
        self.pos = pos
        self.original = text
        stripped = text.strip()
        self.result = computed and bool(stripped) and "\n" not in stripped and len(stripped) < 300
        one_line = "\n" not in text.strip()
        self.text = csv_cells(text) if not one_line and text.count(",") >= 2 else text  # same length: offsets hold
        self._rows: dict[tuple[int, int], list[Place]] = {}
        self._sentences: dict[int, list[tuple[int, int]]] = {}
        self._units: dict[tuple[int, int], list[Place]] = {}
        self.tables: list[Table] = []
        self.segments: list[tuple[int, int]] = []  # spans of text outside tables
        self._lines: list[tuple[int, int, int]] = []  # (line start, table index, row) of every table line
        self._line_starts: list[int] = []
        self._segment_starts: list[int] = []
        if self.result:
            return
        if one_line:  # as most passages: one paragraph, no table
            lo = len(text) - len(text.lstrip())
            self.segments = [(lo, len(text.rstrip()))] if text.strip() else []
            self._segment_starts = [a for a, _ in self.segments]
            return
        before: tuple[int, int] | None = None  # the last line of the block above
        for block in blocks(self.text):
            cursor, heading = 0, ""
            for i, j, sep in table_runs(self.text, block):
                if cursor < i:
                    self.segments.append((block[cursor][0], block[i - 1][1]))
                    heading = self.text[block[cursor][0] : block[i - 1][1]]
                line = block[i - 1] if cursor < i else before if i == 0 else None
                title = line if line is not None and line[1] - line[0] <= TITLE_MAX_CHARS else None
                table = Table(self.text, self.original, block[i:j], sep, heading, len(self.tables), title)
                self._lines += [(s, len(self.tables), k) for k, (s, _) in enumerate(table.lines)]
                self.tables.append(table)
                cursor = j
            if cursor < len(block):
                self.segments.append((block[cursor][0], block[-1][1]))
            before = block[-1] if cursor < len(block) else None
        self._line_starts = [start for start, _, _ in self._lines]
        self._segment_starts = [a for a, _ in self.segments]

    def results(self) -> list[Place]:
        text = self.text
        return [
            Place(
                value=v,
                scale=sc,
                text=text[a:b].strip(),
                evidence=self.pos,
                start=a,
                end=b,
                kind="result",
                unit=(0, len(text)),
                percent=p,
            )  # fmt: skip
            for v, a, b, p, sc in numbers_in(text, 0, len(text))
        ]

    def unit_at(self, offset: int) -> list[Place]:
        """The places of the row or sentence that holds ``offset``."""
        if self.result:
            return self._unit((-1, 0), self.results)
        row = self.row_at(offset)
        if row is not None:
            return self.row_places(*row)
        if self.header_table(offset) is not None:
            return []
        span = self.sentence_at(offset)
        if span is None:
            return []
        a, b = span
        return self._unit((-2, a), lambda: sentence_places(self.text, a, b, self.pos))

    def row_at(self, offset: int) -> tuple[int, int] | None:
        """(table, row) of the body row that holds ``offset``, if any."""
        i = bisect_right(self._line_starts, offset) - 1
        if i < 0:
            return None
        _, t, k = self._lines[i]
        table = self.tables[t]
        return (t, k) if k >= table.first and offset <= table.lines[k][1] else None

    def label_letters(self, t: int, k: int) -> int:
        """How many letters the row's first cell holds (its label, for ranking rows on their text)."""
        cells = self.tables[t].cells(k)
        return sum(c.isalpha() for c in cells[0]) if cells else 0

    def row_places(self, t: int, k: int) -> list[Place]:
        table = self.tables[t]
        return self._unit((t, k), lambda: table.row(self.pos, k))

    def sentence_at(self, offset: int) -> tuple[int, int] | None:
        """The span of the sentence (outside tables) that holds ``offset``."""
        j = bisect_right(self._segment_starts, offset) - 1
        if j < 0 or offset > self.segments[j][1]:
            return None
        spans = self._sentences.get(j)
        if spans is None:
            spans = self._sentences[j] = sentence_spans(self.text, *self.segments[j])
        n = bisect_right(spans, (offset, len(self.text) + 1)) - 1
        return spans[n] if n >= 0 else None

    def sentence(self, a: int, b: int) -> list[Place]:
        """The places of the sentence ``text[a:b]`` (a span from ``sentence_at``)."""
        return self._unit((-2, a), lambda: sentence_places(self.text, a, b, self.pos))

    def _unit(self, key: tuple[int, int], build: Callable[[], list[Place]]) -> list[Place]:
        if key not in self._units:
            self._units[key] = build()
        return self._units[key]

    def header_table(self, offset: int) -> int | None:
        """The table whose header holds ``offset``, if any."""
        i = bisect_right(self._line_starts, offset) - 1
        if i < 0:
            return None
        _, t, k = self._lines[i]
        table = self.tables[t]
        return t if k < table.first and offset <= table.lines[k][1] else None

    def title_table(self, offset: int) -> int | None:
        """The table whose title (the short line just above it) holds ``offset``, if any."""
        return next(
            (t for t, table in enumerate(self.tables) if table.title and table.title[0] <= offset < table.title[1]),
            None,
        )

    def table_rows(self, t: int) -> list[Place]:
        table = self.tables[t]
        return [p for k in table.body() for p in self._unit((t, k), lambda k=k: table.row(self.pos, k))]

    def unlabelled_rows(self, only: int | None = None) -> list[Place]:
        """The cells of the rows of figures without a label: totals, which no word of theirs
        names (of table ``only`` when given)."""
        out: list[Place] = []
        for t, table in enumerate(self.tables):
            if only is not None and t != only:
                continue
            for k in table.body():
                cells = table.cells(k)
                if cells and not cells[0].strip() and any(is_numeric_cell(c) for c in cells[1:]):
                    out += self._unit((t, k), lambda table=table, k=k: table.row(self.pos, k))
        return out

    def places(self) -> list[Place]:
        """Every place (rows and sentences in order)."""
        if self.result:
            return self.unit_at(0)
        out: list[Place] = []
        for t, table in enumerate(self.tables):
            for k in table.body():
                out += self._unit((t, k), lambda table=table, k=k: table.row(self.pos, k))
        for j, (a, b) in enumerate(self.segments):
            for s, e in self._sentences.setdefault(j, sentence_spans(self.text, a, b)):
                out += self._unit((-2, s), lambda s=s, e=e: sentence_places(self.text, s, e, self.pos))
        return sorted(out, key=lambda p: p.start)


def evidence_places(pos: int, text: str, computed: bool) -> list[Place]:
    """Every place of one evidence text (engine notes already blanked)."""
    return EvidenceLayout(pos, text, computed).places()
