"""Where each figure of the evidence sits: a table cell (its row label, column header,
period and scale) or a sentence (its words and the years it names).

The answer check asks two things of a figure: is it about the question's subject and
period, and what can be computed from the figures that are. Both need the figure's
place, not only its value. This module holds the ``Place`` and how a number is read
(its sign: "(3.1)" and "-3.1" are negative; its scale word); ``report_table`` reads
tables, ``evidence_layout`` one evidence text, ``places`` the run's evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.grounding.figures import SPLIT_YEAR_RE, scale_factor, scan_numbers
from engine.grounding.stems import words

YEAR_RE = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?![\d.,]?\d)")
# A year whose digits a PDF extraction set apart ("2 0 1 8" in a header cell): no prose writes a year so
SPACED_YEAR_RE = re.compile(r"(?<![\d.,])(1 9|2 0) (\d) (\d)(?![\d.,]?\d)")
RESPECTIVELY = re.compile(r"(?i)\brespectively\b|\brespectivement\b")  # figures paired in order with the periods listed
# Scale words of a table's heading, header or corner cell: "(In thousands)", "$'000", "$M", "in millions".
_SCALE_WORDS = (
    (10**9, re.compile(r"(?i)\bin\s+billions\b|\bbillions\s+of\b|[$€£]\s?(?:bn|b)\b|\ben\s+milliards\b|\bmds?\s*€")),
    (10**6, re.compile(r"(?i)\bin\s+millions\b|\bmillions\s+of\b|[$€£]\s?(?:m|mn|mm)\b|\ben\s+millions\b|\bm€")),
    (
        10**3,
        re.compile(
            r"(?i)\bin\s+thousands\b|\bthousands\s+of\b|[$€£]?\s?['’]000s?\b|\((?:in\s+)?000['’]?s?\)|\ben\s+milliers\b|k€"
        ),
    ),
)
_DASHES = "-−–"
DIGIT_RE = re.compile(r"\d")
FISCAL_SHORT_RE = re.compile(r"\b(?i:FY)'?(\d\d)(?=\d?\b)(?![.,]\d)")  # "FY19", "FY'19", "FY181" (footnote 1)
# A period over two calendar years: "2017/2018", "2017/18", "2018-19".
PERIOD_PAIR_RE = re.compile(r"(?<![\d.,])((?:19|20)\d\d)[/-]((?:19|20)\d\d|\d\d)(?![\d.,]?\d)")


def period_pairs(text: str) -> dict[int, tuple[str, str]]:
    """The two-year periods a text writes, by the offset of each of their years: "2017/18" → (2017, 2018)."""
    out: dict[int, tuple[str, str]] = {}
    if "/" not in text and "-" not in text:
        return out
    for m in PERIOD_PAIR_RE.finditer(text):
        first, second = m.group(1), m.group(2)
        pair = (first, second if len(second) == 4 else first[:2] + second)
        out[m.start(1)] = out[m.start(2)] = pair
    return out


def pairs_named(texts: Iterable[str]) -> frozenset[tuple[str, str]]:
    """The two-year periods ``texts`` write ("2017/2018"), each once."""
    return frozenset(pair for text in texts for pair in period_pairs(text).values())


def pairs_as_end_years(text: str) -> str:
    """``text`` with each fiscal year written over two calendar years ("2018/2019",
    "2018/19", "2018-19") as its last year, the year it is named by ("fiscal 2019"), so that
    a question's "2018/2019 from 2017/2018" finds the columns "2018/2019" and "2017/2018".
    A range of full years with a hyphen ("2017-2019") is left as it is."""

    def ended(m: re.Match[str]) -> str:
        first, second = m.group(1), m.group(2)
        last = second if len(second) == 4 else first[:2] + second
        consecutive = int(last) == int(first) + 1
        written_as_pair = "/" in m.group(0) or len(second) == 2
        return last if consecutive and written_as_pair else m.group(0)

    return PERIOD_PAIR_RE.sub(ended, text) if "/" in text or "-" in text else text


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
    label_years: frozenset[str] = frozenset()  # the years a cell's row label writes ("Jun-2018")
    short_column: str = ""  # the column's last header line
    unit: tuple[int, int] = (0, 0)  # span of the row or sentence in the evidence text
    header: str = ""  # a cell's header line(s), for quoting the row
    total: bool = False  # a cell of a Total or subtotal row
    row: int = -1  # a cell's row number in its evidence (cells of one row share it)
    percent: bool = False

    @property
    def absolute(self) -> float:
        return self.value * self.scale

    def plain(self, text: str) -> bool:
        """Whether the figure is written bare in ``text`` (its evidence): no currency sign before it, no scale
        word, no percent sign ("1,583,616", not "$14.8 million")."""
        before = text[max(0, self.start - 3) : self.start].rstrip(" (\u00a0-")
        return self.scale == 1 and not self.percent and not before.endswith(("$", "€", "£"))

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


_YEARS_UNSPACED = re.compile(r"(?<![\d.,])(?:19|20)\d\d(?:,(?:19|20)\d\d)+(?![\d.,]?\d)")


def spaced_years(text: str) -> str:
    """``text`` with years listed without a space ("for 2017,2018 and 2019") spaced, so each
    reads as a year: "2017,2018" is no number (a thousands group has three digits)."""
    return _YEARS_UNSPACED.sub(lambda m: m.group(0).replace(",", ", "), text)


def years_in(text: str) -> frozenset[str]:
    """The years a text names; a fiscal year "2018/19" or "2018-19" names both, "FY19" names 2019,
    "2 0 1 8" (a PDF's spaced digits) names 2018."""
    years = set(YEAR_RE.findall(text))
    years.update(m.group(1).replace(" ", "") + m.group(2) + m.group(3) for m in SPACED_YEAR_RE.finditer(text))
    if "FY" in text or "fy" in text:
        years.update("20" + short for short in FISCAL_SHORT_RE.findall(text))
    if "/" in text or "-" in text:
        for first, second in SPLIT_YEAR_RE.findall(text):
            years.add(first)
            years.add(first[:2] + second)
    return frozenset(years)


_NUMBERED = re.compile(r"(?i)\b(scope|level|tier|phase|class|stage|series|grade)\s+(\d{1,2})\b")


def content_words(text: str) -> frozenset[str]:
    """Stemmed content words without numbers, and a name's number with its word ("Scope 1":
    "scop#1", so that Scope 1 and Scope 2 are told apart)."""
    plain = frozenset(w for w in words(text) if not any(c.isdigit() for c in w))  # "fy2019" is a period
    named = {f"{next(iter(words(m.group(1))), '')}#{m.group(2)}" for m in _NUMBERED.finditer(text)}
    return plain | named if named else plain


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


def numbers_in(text: str, start: int, end: int) -> list[tuple[float, int, int, bool, int]]:
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
