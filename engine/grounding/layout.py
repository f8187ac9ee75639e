"""Where each figure of the evidence sits: a table cell (its row label, column header,
period and scale) or a sentence (its words and the years it names).

The answer check asks two things of a figure: is it about the question's subject and
period, and what can be computed from the figures that are. Both need the figure's
place, not only its value. Tables arrive as text (pipe, tab, semicolon or CSV rows under
a header, possibly after a heading line such as ``sum of revenue in sales:``); the rows
of a header that spans several lines ("| 2019 | 2018" over "| $M | $M") are joined per
column. Negatives in parentheses ("(3.1)") or with a minus sign keep their sign.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from engine.grounding.dates import MONTH_BEFORE_RE
from engine.grounding.evidence_index import cells as csv_cells
from engine.grounding.figures import scale_factor, scan_numbers
from engine.grounding.quotes import words
from engine.grounding.totals import is_total_label
from engine.grounding.units import blocks, delimiter_of, is_rule, sentence_spans

YEAR_RE = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?![\d.,]?\d)")
# Scale words of a table's heading, header or corner cell: "(In thousands)", "$'000", "$M", "in millions".
_SCALE_WORDS = (
    (10**9, re.compile(r"(?i)\bin\s+billions\b|\bbillions\s+of\b|[$€£]\s?(?:bn|b)\b|\ben\s+milliards\b|\bmds?\s*€")),
    (10**6, re.compile(r"(?i)\bin\s+millions\b|\bmillions\s+of\b|[$€£]\s?(?:m|mn|mm)\b|\ben\s+millions\b|\bm€")),
    (10**3, re.compile(r"(?i)\bin\s+thousands\b|\bthousands\s+of\b|[$€£]?\s?'000s?\b|\(000s?\)|\ben\s+milliers\b|k€")),
)
_DASHES = "-−–"
_SPLIT_YEAR_RE = re.compile(r"(?<![\d.,])((?:19|20)\d\d)[/-](\d\d)(?![\d.,]?\d)")
_TOTAL_WORDS = frozenset({"total"})
_CLAUSE_RE = re.compile(r"[;()]")
_DIGIT = re.compile(r"\d")
SECTION_REACH = 40  # a section row ("Revenue:") names the rows below it up to this far
_SCALE_WORD = re.compile(r"(?i)[a-z]+$")


@dataclass(slots=True, eq=False)
class Place:
    """One number of the evidence and what it is about."""

    value: float  # signed, as written (no scale applied)
    scale: int  # the table's or the sentence's scale word: 1, 1_000, 1_000_000, 10**9
    text: str  # the number as written, sign and parentheses kept: "(3.1)", "1,950"
    evidence: int  # position in the evidence list
    start: int
    end: int
    kind: str  # "cell", "text" or "result" (a one-line computed result)
    label: str = ""  # a cell's row label; a sentence: ""
    column: str = ""  # a cell's column header
    years: frozenset[str] = frozenset()  # the period: a cell's column (or row) year, a sentence's years
    words: frozenset[str] = frozenset()  # content words of the label and column (a sentence's: see Layout.words)
    label_words: frozenset[str] = frozenset()  # a cell's row label words alone
    short_column: str = ""  # the column's last header line
    unit: tuple[int, int] = (0, 0)  # span of the row or sentence in the evidence text
    header: str = ""  # a cell's header line(s), for quoting the row
    total: bool = False  # a cell of a Total or subtotal row
    row: int = -1  # a cell's row number in its evidence (cells of one row share it)
    percent: bool = False

    @property
    def absolute(self) -> float:
        return self.value * self.scale

    def where(self) -> str:
        """A cell as "Software, 2019"; a sentence by its years."""
        if self.kind == "cell":
            return ", ".join(p for p in (self.label, self.column_name()) if p)
        return ", ".join(sorted(self.years))

    def column_name(self) -> str:
        """The column as a reader names it: its last header line ("2019" under "Year ended
        December 31,"), with the column's year when that line lacks it."""
        short = self.short_column or self.column
        if self.years and not years_in(short):
            short = " ".join(p for p in (short, ", ".join(sorted(self.years))) if p)
        return short


def years_in(text: str) -> frozenset[str]:
    """The years a text names; a fiscal year "2018/19" or "2018-19" names both."""
    years = set(YEAR_RE.findall(text))
    if "/" in text or "-" in text:
        for first, second in _SPLIT_YEAR_RE.findall(text):
            years.add(first)
            years.add(first[:2] + second)
    return frozenset(years)


def content_words(text: str) -> frozenset[str]:
    """Stemmed content words without numbers."""
    return frozenset(w for w in words(text) if not any(c.isdigit() for c in w))  # "fy2019" is a period


def scale_of(text: str) -> int:
    for scale, pattern in _SCALE_WORDS:
        if pattern.search(text):
            return scale
    return 1


def _signed(text: str, start: int, end: int, value: float) -> tuple[float, int, int]:
    """The value with its sign: "(3.1)" and "-3.1" are negative. Returns the widened span."""
    lo = start
    while lo > 0 and text[lo - 1] in " $€£\u00a0":
        lo -= 1
    if lo > 0 and text[lo - 1] in _DASHES and (lo < 2 or not text[lo - 2].isalnum()):
        return -value, lo - 1, end
    if lo > 0 and text[lo - 1] == "(":
        hi = end
        while hi < len(text) and text[hi] in " %\u00a0":
            hi += 1
        if hi < len(text) and text[hi] == ")":
            return -value, lo - 1, hi + 1
    return value, start, end


def _numbers(text: str, start: int, end: int) -> list[tuple[float, int, int, bool, int]]:
    """(signed value, start, end, percent, scale) of each number in ``text[start:end]``: the
    primary reading only, with the scale word written next to it ("$0.5 million")."""
    piece = text[start:end]
    out = []
    seen: set[tuple[int, int]] = set()
    for value, a, b, percent in scan_numbers(piece):
        if (a, b) in seen:
            continue
        seen.add((a, b))
        written = piece[a:b]
        word = _SCALE_WORD.search(written) if any(c.isalpha() for c in written) else None
        scale = scale_factor(word.group()) if word else 1
        signed, lo, hi = _signed(text, start + a, start + b, value)
        out.append((signed, lo, hi, percent, scale))
    return out


def _is_zero(cell: str) -> bool:
    return cell.strip(" $€£\u00a0") in ("—", "–", "-", "−")


def _is_numeric_cell(cell: str) -> bool:
    stripped = cell.strip(" $€£%()\u00a0+-−–")
    return bool(stripped) and bool(re.fullmatch(r"[\d.,\s\u00a0\u202f]+", stripped))


def _split(line: str, sep: str, lead: bool, trail: bool) -> list[str]:
    """The cells of a line; ``lead``/``trail``: every line of the table opens/closes with the
    delimiter (markdown), so the empty cell outside it is no column."""
    parts = line.split(sep)
    if lead and parts and not parts[0].strip():
        parts = parts[1:]
    if trail and parts and not parts[-1].strip():
        parts = parts[:-1]
    return parts


def _table_runs(text: str, lines: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """(first line, last line + 1, delimiter) of each run of at least two lines with the same
    number of delimiters (markdown rule lines inside a run are kept)."""
    runs = []
    i = 0
    while i < len(lines):
        line = text[lines[i][0] : lines[i][1]]
        sep = delimiter_of(line)
        if sep is None:
            i += 1
            continue
        count = line.count(sep)
        j = i + 1
        while j < len(lines):
            other = text[lines[j][0] : lines[j][1]]
            if not (is_rule(other) or other.count(sep) == count):
                break
            j += 1
        if j - i >= 2:
            runs.append((i, j, sep))
            i = j
        else:
            i += 1
    return runs


def _short(header_rows: list[list[str]], i: int) -> str:
    """A column's name for people: its lowest header line that names a year, else its lowest."""
    named = [r[i].strip() for r in header_rows if i < len(r) and r[i].strip()]
    dated = [c for c in named if years_in(c)]
    return (dated or named or [""])[-1]


def _is_section(row: list[str]) -> bool:
    """A label over the rows below it, with no figure of its own ("Net loss per share:")."""
    return bool(row) and bool(row[0].strip()) and not any(_is_numeric_cell(c) or _is_zero(c) for c in row[1:])


class _Table:
    """One table run of an evidence: its header read once, its rows read when asked."""

    def __init__(
        self, text: str, original: str, lines: list[tuple[int, int]], sep: str, heading: str, number: int
    ) -> None:
        self.text, self.lines, self.sep, self.number = text, lines, sep, number
        stripped = [text[s:e].strip() for s, e in lines]
        self.lead = all(t.startswith(sep) for t in stripped)
        self.trail = all(t.endswith(sep) for t in stripped)
        header_rows: list[list[str]] = []
        first = 0
        for first, (s, e) in enumerate(lines):
            if is_rule(text[s:e]):
                continue
            row = self.cells(first)
            numeric = [c for c in row[1:] if _is_numeric_cell(c) and not YEAR_RE.fullmatch(c.strip())]
            if numeric and header_rows:
                break
            header_rows.append(row)
        else:
            first = len(lines)
        while len(header_rows) > 1 and header_rows[-1][0].strip() and not any(c.strip() for c in header_rows[-1][1:]):
            header_rows.pop()  # "Revenue:" over the first rows is a section of the body, not a header line
            first -= 1
        self.first = first
        width = max((len(self.cells(k)) for k in range(min(len(lines), first + 8))), default=0)
        for row in header_rows[:-1]:  # a header cell merged over the columns to its right ("Year ended", "", "")
            named = [c.strip() for c in row if c.strip()]
            if len(set(named)) < len(named):  # "| % of | | % of": one label per column, not merged
                continue
            for i in range(2, len(row)):
                if not row[i].strip() and row[i - 1].strip():
                    row[i] = row[i - 1]
        self.columns = [
            " ".join(r[i].strip() for r in header_rows if i < len(r) and r[i].strip()) for i in range(width)
        ]
        self.column_words = [content_words(c) for c in self.columns]
        self.column_years = [years_in(c) for c in self.columns]
        self.shorts = [_short(header_rows, i) for i in range(width)]
        self.header = "\n".join(original[lines[i][0] : lines[i][1]].strip() for i in range(first))
        scale = scale_of(heading + "\n" + self.header)
        self.scales = [scale_of(c) if scale_of(c) != 1 else scale for c in self.columns]

    def cells(self, k: int) -> list[str]:
        s, e = self.lines[k]
        return _split(self.text[s:e], self.sep, self.lead, self.trail)

    def body(self) -> range:
        return range(self.first, len(self.lines))

    def section(self, k: int) -> frozenset[str]:
        """The words of the nearest section row above row ``k`` (looked for ``SECTION_REACH`` rows up)."""
        text = self.text
        for j in range(k - 1, max(self.first, k - SECTION_REACH) - 1, -1):
            s, e = self.lines[j]
            cut = text.find(self.sep, s + 1, e)
            if cut >= 0 and _DIGIT.search(text, cut, e):
                continue  # a row with figures: no section (the common case, told without splitting)
            row = self.cells(j)
            if _is_section(row):
                return content_words(row[0])
        return frozenset()

    def row(self, pos: int, k: int) -> list[Place]:
        """The places of body row ``k``."""
        s, e = self.lines[k]
        text = self.text
        if k < self.first or is_rule(text[s:e]):
            return []
        row = self.cells(k)
        if _is_section(row):
            return []
        offsets, cursor = [], s
        for cell in row:
            at = text.find(cell, cursor, e + 1) if cell else cursor
            offsets.append(at if at >= 0 else cursor)
            cursor = (at if at >= 0 else cursor) + len(cell)
        labels = [c.strip() for c in row if c.strip() and not _is_numeric_cell(c) and not _is_zero(c)]
        label = " ".join(labels)
        label_years = years_in(label)
        total = is_total_label(label) or not label  # a row of figures without a label sums the rows above
        label_words = content_words(label) if label else _TOTAL_WORDS
        row_words = label_words | self.section(k)
        out: list[Place] = []
        width = len(self.columns)
        for i, cell in enumerate(row):
            zero = bool(i and labels and _is_zero(cell))  # "—" is zero in a report table
            if not zero and (not _is_numeric_cell(cell) or (i == 0 and YEAR_RE.fullmatch(cell.strip()))):
                continue
            column = self.columns[i] if i < width else ""
            scale = self.scales[i] if i < width else 1
            if zero:
                numbers = [(0.0, offsets[i], offsets[i] + len(cell), False, 1)]
            else:
                numbers = _numbers(text, offsets[i], offsets[i] + len(cell))
            for value, a, b, percent, own in numbers:
                out.append(
                    Place(
                        value=value,
                        scale=own if own != 1 else scale,
                        text=text[a:b].strip(),
                        evidence=pos,
                        start=a,
                        end=b,
                        kind="cell",
                        label=label,
                        column=column,
                        years=(self.column_years[i] if i < width else frozenset()) or label_years,
                        words=row_words | (self.column_words[i] if i < width else frozenset()),
                        label_words=label_words,
                        short_column=self.shorts[i] if i < width else "",
                        unit=(s, e),
                        header=self.header,
                        total=total,
                        row=self.number * 100_000 + k,
                        percent=percent or "%" in column,
                    )  # fmt: skip
                )
        return out


def sentence_places(text: str, a: int, b: int, pos: int) -> list[Place]:
    """The figures of the sentence ``text[a:b]``, each dated by the years of its clause."""
    sentence = text[a:b]
    if not _DIGIT.search(sentence):
        return []
    years = years_in(sentence)
    cuts = [a, *(a + m.start() for m in _CLAUSE_RE.finditer(sentence)), b]
    out = []
    for value, lo, hi, percent, scale in _numbers(text, a, b):
        if not percent and (text[lo:hi].strip() in years or MONTH_BEFORE_RE.search(text, max(a, lo - 12), lo)):
            continue  # a year, or the day of a date ("December 31"), is the sentence's period, not a figure
        if (fiscal := _SPLIT_YEAR_RE.search(text, max(a, lo - 5), hi)) and fiscal.start() < lo:
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
    return out


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
        self.tables: list[_Table] = []
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
        for block in blocks(self.text):
            cursor, heading = 0, ""
            for i, j, sep in _table_runs(self.text, block):
                if cursor < i:
                    self.segments.append((block[cursor][0], block[i - 1][1]))
                    heading = self.text[block[cursor][0] : block[i - 1][1]]
                table = _Table(self.text, self.original, block[i:j], sep, heading, len(self.tables))
                self._lines += [(s, len(self.tables), k) for k, (s, _) in enumerate(table.lines)]
                self.tables.append(table)
                cursor = j
            if cursor < len(block):
                self.segments.append((block[cursor][0], block[-1][1]))
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
            for v, a, b, p, sc in _numbers(text, 0, len(text))
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

    def _unit(self, key: tuple[int, int], build) -> list[Place]:  # type: ignore[no-untyped-def]
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

    def table_rows(self, t: int) -> list[Place]:
        table = self.tables[t]
        return [p for k in table.body() for p in self._unit((t, k), lambda k=k: table.row(self.pos, k))]

    def unlabelled_rows(self) -> list[Place]:
        """The cells of the rows of figures without a label: totals, which no word names."""
        out: list[Place] = []
        for t, table in enumerate(self.tables):
            for k in table.body():
                cells = table.cells(k)
                if cells and not cells[0].strip() and any(_is_numeric_cell(c) for c in cells[1:]):
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
