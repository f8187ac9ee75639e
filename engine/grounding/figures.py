"""Figures in text: numbers, percentages, amounts, dates and durations, in EN and FR formats.

One compiled pattern finds every figure in one pass. Each figure carries its numeric
readings (an ambiguous ``1,500`` reads as 1500 and 1.5; ``03/12/2025`` as two dates) so
the matcher can try each one against the evidence. What is not a figure is found first
from cheap anchors and skipped: URLs, file names (``sales_2025.csv``), footnote marks
(``[1]``, ``⁽¹⁾``) and list markers at a line start (``1.``). Signs are not part of a
figure: "-3.2%" is checked as 3.2%.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from decimal import Decimal

from engine.grounding.dates import DATE_PATTERN, DATE_RE, MONTH_BEFORE_RE, date_keys

# Numbers written as words, EN and FR. "one", "un" and "une" are left out: as articles they
# are everywhere, so they would "support" any 1. (answer_kinds adds them where a time word follows.)
NUMBER_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8,
    "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "twenty": 20, "vingt": 20, "thirty": 30, "trente": 30,
    "hundred": 100, "cent": 100, "thousand": 1000, "mille": 1000,
}  # fmt: skip
_SP = "[ \u00a0\u202f]"  # space, no-break space, narrow no-break space
_NUM = (
    r"(?P<num>\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?"  # 20 000 / 20 000,5
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?"  # 1,250.50
    r"|\d{1,3}(?:\.\d{3})+(?:,\d+)?"  # 1.250,50 / 20.000
    r"|\d+(?:[.,]\d+)?"  # 1250.5 / 4,7
    r")(?![.,]?\d)"
)
_CODES = (
    "EUR|USD|GBP|CHF|RMB|CNY|HKD|JPY|INR|SGD|AUD|CAD|NZD|SEK|NOK|DKK|ZAR|KRW|TWD|MYR|BRL|MXN"  # ISO codes reports write
)
_PREFIX = rf"(?:(?P<pre>[€$£]|(?:{_CODES})(?=[ \u00a0\u202f]?\d))[ \u00a0\u202f]?)?"
_SCALE = (
    rf"(?:{_SP}?(?=[mMbBkKtT])(?P<scale>(?i:milliards?|millions?|billions?|thousands?|mille|bn|mds?)(?![^\W\d_])"
    r"|(?:k|K|M)(?![^\W\d_])))?"
)
_PERCENT = rf"(?P<pct>{_SP}?%|{_SP}(?i:per{_SP}?cent|pour{_SP}?cent|percent)(?![^\W\d_]))"
_CURRENCY = (
    rf"(?P<cur>{_SP}?(?:€|\$|£)|{_SP}(?:d['’]{_SP}?|de{_SP})?"
    r"(?i:euros?|eur|usd|gbp|chf|dollars?|pounds?|livres?)(?![^\W\d_]))"
)
_DURATION = (
    rf"(?P<dur>{_SP}?(?i:business{_SP}days?|working{_SP}days?|jours?{_SP}ouvrés|days?|jours?|weeks?|semaines?"
    r"|months?|mois|years?|ans?|années?|hours?|heures?|hrs?|h|minutes?|mins?|mn|seconds?|secondes?|secs?)"
    r"(?![^\W\d_]))"
)
_MARK_RE = re.compile(r"\[\^?\d+\]|⁽[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾|https?://\S+")  # footnote marks, URLs
# A citation in brackets: "[policy.md, p. 3]", "(source: policy.md, section 2)". Its page or
# section numbers belong to the reference, not to the answer's figures.
_CITATION_RE = re.compile(r"\[([^\[\]\n]{1,200})\]|\(((?i:sources?|src)\s?:[^()\n]{1,200})\)")
_LIST_MARKER_RE = re.compile(r"[ \t]*\d{1,2}[.)][ \t]")
_EXTENSION_RE = re.compile(r"\.(?i:md|txt|pdf|html?|csv|tsv|json|xml|ya?ml|docx?|xlsx?|pptx?)(?!\w)")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./\\-")
_FIGURE = rf"(?P<fig>(?<!\d,){_PREFIX}{_NUM}{_SCALE}(?:{_PERCENT}|{_CURRENCY}|{_DURATION})?)"
# Tried only where a word starts with a digit or a currency; dates led by a month name
# ("March 12, 2025") are found from their number, looking back for the month.
FIGURE_RE = re.compile(rf"(?=[\d€$£]|(?:{_CODES})[ \u00a0\u202f]?\d)(?<![\w.])(?:{DATE_PATTERN}|{_FIGURE})")
# The evidence needs values only: numbers (with scale, and % for ranking) and where numeric
# dates are; dates naming a month are looked up apart. (?=\d) first makes the scan twice as fast.
EVIDENCE_NUMBER_RE = re.compile(
    r"(?=\d)(?:(?<![\w.])|(?<=(?<![\w.])[A-Z]{3}))(?:(?P<nd>\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}|\d{4}-\d{2})(?![\w-])"
    rf"|(?<!\d,){_NUM}{_SCALE}(?P<pct>{_SP}?%)?)"
)
_DATE_PARTS = re.compile(r"\d+")

_SCALES = {"k": 1_000, "thousand": 1_000, "mille": 1_000, "m": 1_000_000, "million": 1_000_000, "bn": 10**9}
_SCALES |= {"billion": 10**9, "milliard": 10**9, "md": 10**9}
_CURRENCIES = {"€": "EUR", "$": "USD", "£": "GBP", "eur": "EUR", "euro": "EUR", "usd": "USD", "dollar": "USD"}
_CURRENCIES |= {code.lower(): code for code in _CODES.split("|") if code.lower() not in _CURRENCIES}
_CURRENCIES |= {"gbp": "GBP", "pound": "GBP", "livre": "GBP", "chf": "CHF"}
_DURATIONS = {"day": "day", "jour": "day", "week": "week", "semaine": "week", "month": "month", "moi": "month"}
_DURATIONS |= {"year": "year", "an": "year", "anné": "year", "hour": "hour", "heure": "hour", "hr": "hour"}
_DURATIONS |= {"h": "hour", "minute": "minute", "min": "minute", "mn": "minute", "second": "second"}
_DURATIONS |= {"seconde": "second", "sec": "second"}
_SPACES = str.maketrans("", "", " \u00a0\u202f")


@dataclass(slots=True)
class Reading:
    """One way to read a figure: its value, and half a unit of its last written digit."""

    value: float
    tolerance: float


@dataclass(slots=True)
class Found:
    """A figure found in a text, with every reading the matcher should try."""

    text: str
    start: int
    end: int
    kind: str
    value: str  # normalised primary reading
    readings: list[Reading]
    dates: list[str]  # date keys, primary first (dates only)
    unit: str = ""  # "%", a currency code, a duration unit


def fmt(value: Decimal) -> str:
    """A decimal without exponent or trailing zeros: 1250.50 → "1250.5", 2E+4 → "20000"."""
    text = f"{value:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def number_readings(raw: str) -> list[tuple[str, int]]:
    """The values a written number can mean, primary first, as plain decimal strings with
    their decimal count. Three digits after a lone separator read as thousands first
    (``1,500`` → "1500") and as a decimal second ("1.500"); any other shape has one reading."""
    if raw.isdigit():
        return [(raw, 0)]
    text = raw.translate(_SPACES)
    if len(text) != len(raw):  # space-grouped thousands: a separator left is the decimal mark
        return [_plain(text.replace(",", "."))]
    commas, dots = text.count(","), text.count(".")
    if commas and dots:  # both: the last one is the decimal mark
        if text.rfind(",") > text.rfind("."):
            return [_plain(text.replace(".", "").replace(",", "."))]
        return [_plain(text.replace(",", ""))]
    sep = "," if commas else "."
    groups = text.split(sep)
    if all(len(g) == 3 for g in groups[1:]):  # thousands grouping
        whole = (text.replace(sep, ""), 0)
        return [whole, _plain(text.replace(sep, "."))] if len(groups) == 2 else [whole]
    return [_plain(text.replace(sep, "."))]


def _plain(text: str) -> tuple[str, int]:
    dot = text.find(".")
    return text, 0 if dot < 0 else len(text) - dot - 1


def _unit(table: dict[str, str], word: str) -> str:
    word = word.strip(" \u00a0\u202f").lower().replace("’", "'")
    for cut in ("d'", "de "):
        if word.startswith(cut):
            word = word[len(cut) :].strip()
    if "ouvr" in word or word.startswith(("business", "working")):
        return "business day"
    word = word.split()[0] if word.split() else word
    return table.get(word) or table.get(word.rstrip("s")) or table.get(word.rstrip("s").rstrip("e"), word)


def _scale(word: str | None) -> int:
    if not word:
        return 1
    word = word.lower()
    return _SCALES.get(word) or _SCALES.get(word.rstrip("s"), 1)


def scale_factor(word: str | None) -> int:
    """The factor of a scale word: "million" → 1_000_000, "k" → 1_000; 1 for anything else."""
    return _scale(word)


def _figure(match: re.Match[str], text: str) -> Found:
    groups = match.groupdict()
    readings = number_readings(groups["num"])
    scale = _scale(groups["scale"])
    kind, unit = "number", ""
    if groups["pct"]:
        kind, unit = "percent", "%"
    elif groups["cur"] or groups["pre"]:
        kind, unit = "amount", _unit(_CURRENCIES, groups["pre"] or groups["cur"])
    elif groups["dur"]:
        kind, unit = "duration", _unit(_DURATIONS, groups["dur"])
    primary = fmt(Decimal(readings[0][0]) * scale)
    value = {"percent": f"{primary}%", "amount": f"{primary} {unit}", "duration": f"{primary} {unit}"}
    out = []
    for number, decimals in readings:
        half = 0.5 * 10.0**-decimals * (1 + 1e-9)
        out.append(Reading(float(number) * scale, half * scale))
        if scale != 1:  # "48.2" next to "million" written elsewhere
            out.append(Reading(float(number), half))
    start, end = match.span("fig")
    return Found(text[start:end], start, end, kind, value.get(kind, primary), out, [], unit)


def _date(match: re.Match[str], text: str) -> Found | None:
    keys = date_keys(match)
    if not keys:
        return None
    start, end = match.span()
    return Found(text[start:end], start, end, "date", keys[0], [], keys)


def file_names(text: str) -> list[tuple[int, int]]:
    """Spans of file names (``sales_2025.csv``, ``travel/policy.md``): found from their extension."""
    spans = []
    for match in _EXTENSION_RE.finditer(text):
        start = match.start()
        while start > 0 and text[start - 1] in _NAME_CHARS:
            start -= 1
        if start < match.start() and (text[start].isalnum() or text[start] in "_./\\"):
            spans.append((start, match.end()))
    return spans


# A fiscal year over two calendar years written short: "2018/19", "2018-19" (the layout reads its years too).
SPLIT_YEAR_RE = re.compile(r"(?<![\d.,])((?:19|20)\d\d)[/-](\d\d)(?![\d.,]?\d)")


def inside(spans: list[tuple[int, int]], pos: int) -> bool:
    """Whether ``pos`` falls in one of ``spans`` (sorted, non-overlapping): one bisect."""
    i = bisect_right(spans, (pos, float("inf"))) - 1
    return i >= 0 and spans[i][0] <= pos < spans[i][1]


def not_figure_spans(text: str) -> list[tuple[int, int]]:
    """Spans holding no figure of their own: footnote marks, URLs, file names, list markers,
    the end of a fiscal year ("2018/19").

    Each is found from a cheap anchor (a literal, a line start, an extension) rather
    than tried at every position."""
    spans = [m.span() for m in _MARK_RE.finditer(text)] if "[" in text or "⁽" in text or "://" in text else []
    spans += file_names(text)
    if "[" in text or "(" in text:
        for match in _CITATION_RE.finditer(text):
            if match.group(2) or _EXTENSION_RE.search(match.group(1)):
                spans.append(match.span())
    if "/" in text or "-" in text:  # "2018/19": the 19 is the fiscal year's end, not a figure
        spans += [m.span(2) for m in SPLIT_YEAR_RE.finditer(text)]
    offset = 0
    for line in text.split("\n"):
        marker = _LIST_MARKER_RE.match(line)
        if marker:
            spans.append((offset, offset + marker.end()))
        offset += len(line) + 1
    return merge_spans(spans)


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans sorted, overlapping ones merged: ready for ``inside``."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def extract_figures(text: str) -> list[Found]:
    """Every figure of an answer, in order, without list markers, marks, URLs and file names."""
    skip = not_figure_spans(text)
    found: list[Found] = []
    covered = 0
    for match in FIGURE_RE.finditer(text):
        start = match.start()
        if start < covered or (skip and inside(skip, start)):
            continue
        item = _figure(match, text) if match.group("fig") else _date(match, text)
        if match.group("fig") and (month := MONTH_BEFORE_RE.search(text, max(0, start - 16), start)):
            date = DATE_RE.match(text, month.start())
            if date and date.end() > start and (as_date := _date(date, text)):
                item, covered = as_date, date.end()
        if item is not None:
            found.append(item)
    if "FY" in text or "fy" in text:
        found = _with_fiscal_years(text, found)
    return found


_FISCAL_YEAR = re.compile(r"\b(?i:FY)'?[ \u00a0]?(?P<year>(?:19|20)?\d\d)(?![\d.,]?\d)")


def _with_fiscal_years(text: str, found: list[Found]) -> list[Found]:
    """ "FY19" and "FY2019" are the year 2019 (a number figure written as its fiscal year)."""
    out = list(found)
    for m in _FISCAL_YEAR.finditer(text):
        if any(f.start < m.end() and m.start() < f.end for f in found):
            continue  # "FY 2019": the figure 2019 is already there
        year = m.group("year")
        year = year if len(year) == 4 else "20" + year
        out.append(Found(m.group(), m.start(), m.end(), "number", year, [Reading(float(year), 0.5)], []))
    return sorted(out, key=lambda f: f.start)


# What comes before a list's item number: a line's start ("2. Retirement …", "- 3."), or the colon that opens the list
# ("as follows: consulting services: 1."), whose first item it is
_ITEM_BEFORE = re.compile(r"(?:^|\n)[ \t]*(?:[-*•][ \t]*)?$")
_FIRST_ITEM = re.compile(r":[ \t]*$")


def list_item_number(text: str, start: int, end: int, num: str) -> bool:
    """Whether the number is a list's item number ("1." of "services, as follows: 1."), which states no figure."""
    if (
        len(num) > 2
        or not num.isdigit()
        or text[end : end + 1] != "."
        or text[end + 1 : end + 2] not in ("", " ", "\n")
    ):
        return False
    before = max(0, start - 40)
    return bool(_ITEM_BEFORE.search(text, before, start) or num == "1" and _FIRST_ITEM.search(text, before, start))


def scan_numbers(text: str, dates: list[tuple[int, int]] | None = None) -> list[tuple[float, int, int, bool]]:
    """(value, start, end, is_percent) of every number reading in an evidence text; a scaled
    number ("48.2 million") gives its scaled and its written value. Numeric dates give their
    parts as numbers, and their spans are appended to ``dates``. A list's item numbers are none."""
    out = []
    for match in EVIDENCE_NUMBER_RE.finditer(text):
        num, scale_word, pct, date = match.group("num", "scale", "pct", "nd")
        start, end = match.span()
        if date is not None:
            out.extend((float(part), start, end, False) for part in _DATE_PARTS.findall(date))
            if dates is not None:
                dates.append((start, end))
            continue
        percent = pct is not None
        if list_item_number(text, start, end, num):
            continue
        if scale_word is None:  # the common cases, kept cheap: 1303, 37.3
            if num.isdigit():
                out.append((float(num), start, end, percent))
                continue
            dot = num.find(".")
            if dot > 0 and len(num) - dot != 4 and num[:dot].isdigit() and num[dot + 1 :].isdigit():
                out.append((float(num), start, end, percent))
                continue
        scale = _scale(scale_word)
        for number, _ in number_readings(num):
            out.append((float(number), start, end, percent))
            if scale != 1:
                out.append((float(number) * scale, start, end, percent))
    return out
