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
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

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


@dataclass(slots=True)
class Layout:
    """Every place of the evidence, and their values sorted for lookups."""

    places: list[Place] = field(default_factory=list)
    _keys: list[float] = field(default_factory=list)
    _order: list[Place] = field(default_factory=list)

    def __post_init__(self) -> None:
        pairs = [(abs(p.value), i) for i, p in enumerate(self.places)]
        pairs += [(abs(p.absolute), i) for i, p in enumerate(self.places) if p.scale != 1]
        pairs.sort()
        self._keys = [k for k, _ in pairs]
        self._order = [self.places[i] for _, i in pairs]

    def sentence_words(self, place: Place, texts: list[str]) -> frozenset[str]:
        """A sentence's content words, read when first asked (most sentences never are)."""
        if place.kind == "text" and not place.words:
            a, b = place.unit
            place.words = content_words(texts[place.evidence][a:b]) or frozenset({""})
        return place.words

    def near(self, value: float, tolerance: float) -> list[Place]:
        """Places whose magnitude, as written or scaled, is within ``tolerance`` of ``value``
        (signs are not compared: "a decrease of 12" is the -12 of a table)."""
        lo = bisect_left(self._keys, abs(value) - tolerance)
        hi = bisect_right(self._keys, abs(value) + tolerance, lo)
        return list(dict.fromkeys(self._order[lo : min(hi, lo + 64)]))


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


def _table_places(
    text: str, lines: list[tuple[int, int]], sep: str, pos: int, heading: str, row_base: int, original: str
) -> list[Place]:
    """The cells of one table run: header lines first (until a line with a number that is no
    year), then data rows."""
    texts = [text[s:e].strip() for s, e in lines]
    lead = all(t.startswith(sep) for t in texts)
    trail = all(t.endswith(sep) for t in texts)
    rows = [_split(text[s:e], sep, lead, trail) for s, e in lines]
    header_rows: list[list[str]] = []
    first = 0
    for first, row in enumerate(rows):
        if is_rule(text[lines[first][0] : lines[first][1]]):
            continue
        numeric = [c for c in row[1:] if _is_numeric_cell(c) and not YEAR_RE.fullmatch(c.strip())]
        if numeric and header_rows:
            break
        header_rows.append(row)
    else:
        first = len(rows)
    while len(header_rows) > 1 and header_rows[-1][0].strip() and not any(c.strip() for c in header_rows[-1][1:]):
        header_rows.pop()  # "Revenue:" over the first rows is a section of the body, not a header line
        first -= 1
    width = max(len(r) for r in rows)
    for row in header_rows[:-1]:  # a header cell merged over the columns to its right ("Year ended", "", "")
        named = [c.strip() for c in row if c.strip()]
        if len(set(named)) < len(named):  # "| % of | | % of": one label per column, not merged
            continue
        for i in range(2, len(row)):
            if not row[i].strip() and row[i - 1].strip():
                row[i] = row[i - 1]
    columns = [" ".join(r[i].strip() for r in header_rows if i < len(r) and r[i].strip()) for i in range(width)]
    column_words = [content_words(c) for c in columns]
    shorts = [_short(header_rows, i) for i in range(width)]
    column_years = [years_in(c) for c in columns]
    header_text = "\n".join(original[lines[i][0] : lines[i][1]].strip() for i in range(first))
    table_scale = scale_of(heading + "\n" + header_text)
    column_scales = [scale_of(c) if scale_of(c) != 1 else table_scale for c in columns]
    out: list[Place] = []
    section: frozenset[str] = frozenset()  # words of the last label row without figures ("Net loss per share:")
    for k in range(first, len(rows)):
        s, e = lines[k]
        if is_rule(text[s:e]):
            continue
        row = rows[k]
        if row and row[0].strip() and not any(_is_numeric_cell(c) or _is_zero(c) for c in row[1:]):
            section = content_words(row[0])
            continue
        offsets, cursor = [], s
        for cell in row:
            at = text.find(cell, cursor, e + 1) if cell else cursor
            offsets.append(at if at >= 0 else cursor)
            cursor = (at if at >= 0 else cursor) + len(cell)
        labels = [c.strip() for c in row if c.strip() and not _is_numeric_cell(c) and not _is_zero(c)]
        label = " ".join(labels)
        label_years = years_in(label)
        total = is_total_label(label) or (
            not label and k > first
        )  # a row of figures without a label sums the rows above
        label_words = content_words(label) if label else _TOTAL_WORDS
        row_words = label_words | section
        for i, cell in enumerate(row):
            if i and _is_zero(cell) and labels:  # "—" is zero in a report table
                column = columns[i] if i < len(columns) else ""
                out.append(
                    Place(
                        value=0.0,
                        scale=column_scales[i] if i < len(columns) else table_scale,
                        text=cell.strip(),
                        evidence=pos,
                        start=offsets[i],
                        end=offsets[i] + len(cell),
                        kind="cell",
                        label=label,
                        column=column,
                        years=(column_years[i] if i < len(columns) else frozenset()) or label_years,
                        words=row_words | (column_words[i] if i < len(columns) else frozenset()),
                        label_words=label_words,
                        short_column=shorts[i] if i < len(shorts) else "",
                        unit=(s, e),
                        header=header_text,
                        total=total,
                        row=row_base + k,
                    )  # fmt: skip
                )
                continue
            if not _is_numeric_cell(cell) or (YEAR_RE.fullmatch(cell.strip()) and i == 0):
                continue
            column = columns[i] if i < len(columns) else ""
            in_column = column_words[i] if i < len(columns) else frozenset()
            scale = column_scales[i] if i < len(columns) else table_scale
            for value, a, b, percent, own in _numbers(text, offsets[i], offsets[i] + len(cell)):
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
                        years=(column_years[i] if i < len(columns) else frozenset()) or label_years,
                        words=row_words | in_column,
                        label_words=label_words,
                        short_column=shorts[i] if i < len(shorts) else "",
                        unit=(s, e),
                        header=header_text,
                        total=total,
                        row=row_base + k,
                        percent=percent or "%" in column,
                    )
                )
    return out


def _text_places(text: str, start: int, end: int, pos: int) -> list[Place]:
    out = []
    for a, b in sentence_spans(text, start, end):
        sentence = text[a:b]
        if not any(c.isdigit() for c in sentence):
            continue
        years = years_in(sentence)
        cuts = [a, *(a + m.start() for m in _CLAUSE_RE.finditer(sentence)), b]
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


def evidence_places(pos: int, text: str, computed: bool) -> list[Place]:
    """The places of one evidence text (engine notes already blanked)."""
    stripped = text.strip()
    if computed and stripped and "\n" not in stripped and len(stripped) < 300:
        return [
            Place(
                value=v,
                scale=sc,
                text=text[a:b].strip(),
                evidence=pos,
                start=a,
                end=b,
                kind="result",
                unit=(0, len(text)),
                percent=p,
            )  # fmt: skip
            for v, a, b, p, sc in _numbers(text, 0, len(text))
        ]
    original = text
    if text.count(",") >= 2:
        text = csv_cells(text)  # CSV rows read as cells; same length, so offsets hold
    out: list[Place] = []
    row_base = 0
    for block in blocks(text):
        runs = _table_runs(text, block)
        cursor = 0
        heading = ""
        for i, j, sep in runs:
            if cursor < i:
                out += _text_places(text, block[cursor][0], block[i - 1][1], pos)
                heading = text[block[cursor][0] : block[i - 1][1]]
            out += _table_places(text, block[i:j], sep, pos, heading, row_base, original)
            row_base += j - i
            cursor = j
        if cursor < len(block):
            out += _text_places(text, block[cursor][0], block[-1][1], pos)
    return out


def build_layout(texts: list[str], computed: list[bool]) -> Layout:
    places = [p for pos, text in enumerate(texts) for p in evidence_places(pos, text, computed[pos])]
    return Layout(places)
