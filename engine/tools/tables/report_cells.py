"""One cell of a report table, read as reports write it, and the unit phrases around it.

Reports write ``$(20,597)`` for −20,597, ``(5.0%)`` for −5 %, ``—`` or ``-`` for nil,
``n/a`` for no value, and put the scale in a corner or header cell ("(In thousands)",
"$M", "€ million", "$'000"). The digits themselves are read by
``engine.grounding.figures.number_readings``, the one reading of written numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from engine.grounding.figures import number_readings

CellKind = Literal["number", "zero", "na", "empty", "text"]
Scale = Literal["", "thousand", "million", "billion", "percent"]

_DASHES = frozenset("-–—−‒―")
_NA = frozenset({"n/a", "na", "n.a.", "n.a", "nm", "n.m.", "n/m", "none", "*", "**", "nmf", "not meaningful"})
_NIL = frozenset({"nil", "—%", "-%", "–%"})
_CURRENCY_PREFIX = re.compile(
    r"^(?:US\$|USD|A\$|AU\$|C\$|CA\$|S\$|HK\$|NZ\$|R\$|RMB|CNY|EUR|GBP|CHF|JPY|INR|Rs\.?|[$€£¥₹])\s*", re.IGNORECASE
)
_CURRENCY_SUFFIX = re.compile(r"\s*(?:[$€£¥₹]|USD|EUR|GBP|CHF|RMB)$", re.IGNORECASE)
_FOOTNOTE = re.compile(  # "(a)", "[1]", "¹", "1.30 (1)", "1.73 (2), (3)"
    r"(?:\s*(?:\([a-z*]\)|\[\d{1,2}\]|[*†‡§¹²³⁴⁵⁶⁷⁸⁹⁰]+)|(?<=[\d%)])\s?\(\d{1,2}\)|(?<=\))\s*,\s*\(\d{1,2}\))+$"
)
_SUFFIX = re.compile(
    r"\s*(%|pts?\.?|pps?\.?|bps|basis points|x|times)$|(?<=\d)(st|nd|rd|th)$"
    r"|(?:(?<=\.\d)|(?<=\.\d\d)|(?<=\.\d\d\d))\s*(years?|months?|days?)$",
    re.IGNORECASE,
)  # "2.15 years": an assumptions table writes each row in its own unit ("1 year", "1-3 years" head columns)
_EN_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_FR_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?")
# Evidence that a table writes numbers the continental way: "1.234,5", or a comma before 1-2 decimals.
CONTINENTAL = re.compile(r"\d\.\d{3},\d|(?<![\d.,])\d+,\d{1,2}(?![\d,])")
_DIGITS = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)*|[.,]\d+")
_SIGNED = re.compile(r"[\d(.$€£¥₹]|[A-Z]{1,3}\$")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_SHORT_YEAR = re.compile(r"\b(?:FY|F|Q[1-4]\s?|H[12]\s?)'?(\d{2})\b", re.IGNORECASE)
_CURRENCIES = {"$": "$", "us$": "$", "usd": "$", "€": "€", "eur": "€", "£": "£", "gbp": "£", "¥": "¥", "jpy": "¥",
               "s$": "S$", "a$": "A$", "au$": "A$", "c$": "C$", "ca$": "C$", "hk$": "HK$", "nz$": "NZ$", "r$": "R$",
               "rmb": "RMB", "cny": "RMB", "chf": "CHF", "₹": "₹", "inr": "₹", "rs": "₹", "rs.": "₹"}  # fmt: skip

# Scale words in a corner, caption or header cell. Checked in this order: "$ in millions,
# except per share data" is millions; "(in thousands of $)" thousands.
_SCALE_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("billion", re.compile(r"\bbillions?\b|\bmilliards?\b|\bbn\b|(?:[$€£¥]|S\$|US\$)\s?b\b", re.IGNORECASE)),
    (
        "million",
        re.compile(r"\bmillions?\b|\bmn\b|\bmio\b|\bmil\b|\bmm\b|(?:[$€£¥]|S\$|US\$|RMB)\s?m\b|\bm(?:[$€£])", re.I),
    ),
    (
        "thousand",
        re.compile(r"\bthousands?\b|\bmilliers\b|'000s?\b|’000s?\b|\b000s\b|(?:[$€£¥]|S\$|US\$)\s?k\b|\(000\)", re.I),
    ),
)
_PERCENT_HEADER = re.compile(r"^\(?\s*(?:%|in %|percent(?:age)?s?|per cent)\s*\)?$", re.IGNORECASE)
_UNIT_ONLY = re.compile(
    r"^\(?\s*(?:in\s+)?(?:(?:[$€£¥]|S\$|US\$|RMB|usd|eur|gbp|dollars|euros)\s*)?(?:in\s+)?"
    r"(?:thousands?|millions?|billions?|mil|mio|mn|bn|m|k|b|'000s?|’000s?|000s|%|percent)?"
    r"(?:\s+(?:of\s+)?(?:[$€£¥]|S\$|US\$|RMB|u\.?s\.? dollars|dollars|euros|usd|eur|gbp))?\s*\)?$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell's reading: its value (None unless a number), what it is, and its marks."""

    value: float | None
    kind: CellKind
    unit: str = ""  # "%", "pts", "x" written after the number
    currency: str = ""  # "$", "€", "£", "S$" … written with it


def read_cell(text: str | None, continental: bool = False) -> Cell:
    """The value of one cell: "$(20,597)" → −20597, "(5.0%)" → −5 (unit %), "—" → 0, "n/a" → no value.

    A lone separator before three digits ("48.105", "1,500") is read as the table's other
    cells write numbers: a decimal point and thousands commas unless ``continental``."""
    s = " ".join((text or "").split())
    if not s:
        return Cell(None, "empty")
    if s.lower() in _NA:
        return Cell(None, "na")
    if s.lower() in _NIL:
        return Cell(0.0, "zero")
    core = _FOOTNOTE.sub("", s) or s
    core, currency = _strip_currency(core)
    negative = False
    unit = ""
    for _ in range(3):  # "$ (3.5)", "(12.9)%", "(0.1) pts", "- 34.8", "(5.0%)" in any nesting
        core = core.strip()
        if core.startswith("(") and core.endswith(")"):
            inner = core[1:-1].strip()
            signed = inner[:1] in _DASHES and len(inner) > 1  # "(−152)": brackets round a signed figure
            core, negative = inner, negative if signed else not negative
            continue
        if core[:1] in _DASHES and _SIGNED.match(core[1:].lstrip()):
            core, negative = core[1:], not negative
            continue
        if core.startswith("+"):
            core = core[1:]
            continue
        match = _SUFFIX.search(core)
        if match and match.start() > 0 and not unit:
            unit = _unit_mark(match.group(1) or match.group(2) or match.group(3))
            core = core[: match.start()]
            continue
        stripped, more = _strip_currency(core)
        if more and not currency:
            core, currency = stripped, more
            continue
        break
    core = core.strip()
    if core and all(ch in _DASHES for ch in core):
        return Cell(0.0, "zero", unit, currency)
    if not _DIGITS.fullmatch(core):
        return Cell(None, "text")
    if not continental and (_EN_GROUPED.fullmatch(core) or core.count(",") == 0):
        readings = [(core.replace(",", ""), 0)]
    elif continental and (_FR_GROUPED.fullmatch(core) or core.count(".") == 0):
        readings = [(core.replace(".", "").replace(",", "."), 0)]
    else:
        readings = number_readings(core)
    try:
        value = float(readings[0][0])
    except (ValueError, IndexError):
        return Cell(None, "text")
    return Cell(-value if negative else value, "number", unit, currency)


def _strip_currency(text: str) -> tuple[str, str]:
    match = _CURRENCY_PREFIX.match(text)
    if match and match.end() < len(text):
        return text[match.end() :], _CURRENCIES.get(match.group(0).strip().lower(), match.group(0).strip())
    match = _CURRENCY_SUFFIX.search(text)
    if match and match.start() > 0:
        return text[: match.start()], _CURRENCIES.get(match.group(0).strip().lower(), match.group(0).strip())
    return text, ""


def _unit_mark(mark: str) -> str:
    mark = mark.lower().rstrip(".")
    if mark == "%":
        return "%"
    if mark in ("x", "times"):
        return "x"
    if mark in ("st", "nd", "rd", "th"):
        return "th"
    for period in ("year", "month", "day"):
        if mark.startswith(period):
            return f"{period}s"
    return "bps" if mark in ("bps", "basis points") else "pts"


def scale_in(text: str) -> Scale:
    """The scale a header, corner or caption cell states ("(In thousands)" → thousand, "$M" → million)."""
    if not text:
        return ""
    for scale, pattern in _SCALE_WORDS:
        if pattern.search(text):
            return scale  # type: ignore[return-value]
    return "percent" if _PERCENT_HEADER.match(text.strip()) else ""


_PARENTHESES = re.compile(r"\(([^()]{1,120})\)")
_SCALE_STATED = re.compile(  # "amounts in thousands", "dollars in millions", "en milliers d'euros"
    r"\b(?:in|en)\s+(?:(?:[$€£¥]|S\$|US\$|u\.?s\.? dollars?|dollars?|euros?)\s*)?"
    r"(?:thousands?|millions?|billions?|milliers|milliards?|'000s?|’000s?|000s)\b",
    re.IGNORECASE,
)


def lead_unit(text: str) -> str:
    """The unit statement of the sentence that introduces a table, the last one it makes:
    "… are as follows (amounts in thousands, except percentages):" → "amounts in thousands,
    except percentages". Only a parenthesised unit counts, or "in thousands" said outright
    ("Dollars in millions"): "revenue rose by $3 million" states a figure, not a unit."""
    stated = [g for g in _PARENTHESES.findall(text) if is_unit_only(g) or _SCALE_STATED.search(g)]
    if not stated:
        stated = [m.group(0) for m in _SCALE_STATED.finditer(text)]
    stated = [g for g in stated if not _COUNTED.match(g)]  # "(shares in thousands, …)": the share counts' unit only
    return stated[-1] if stated else ""


_COUNTED = re.compile(r"(?i)\s*(?:number of |weighted average )?(?:shares?|units?|employees|options|rsus?)\s+in\b")


def counted_unit(text: str) -> bool:
    """Whether the sentence introducing a table states a unit for its share counts only ("(shares in
    thousands, except per share data)"): those rows are in it, the amounts are not."""
    return any(_COUNTED.match(g) for g in _PARENTHESES.findall(text))


def currency_in(text: str) -> str:
    """The currency a unit phrase names ("$'000" → "$", "€ million" → "€", "S$ Mil" → "S$")."""
    folded = text.lower()
    for word, symbol in (("s$", "S$"), ("us$", "$"), ("hk$", "HK$"), ("a$", "A$"), ("rmb", "RMB"), ("$", "$")):
        if word in folded:
            return symbol
    for word, symbol in (("€", "€"), ("eur", "€"), ("£", "£"), ("gbp", "£"), ("¥", "¥"), ("dollar", "$")):
        if word in folded:
            return symbol
    return ""


def is_unit_only(text: str) -> bool:
    """Whether a header cell says only a unit ("$M", "£m", "(in millions)", "%", "$'000")."""
    s = " ".join(text.split())
    return bool(s) and bool(_UNIT_ONLY.fullmatch(s)) and any(ch not in "() " for ch in s)


def periods_in(text: str) -> list[str]:
    """The years a header names: "2019" → ["2019"], "FY19" → ["2019"], "2017/2018" → both."""
    years = _YEAR.findall(text)
    if years:
        return years
    return ["20" + m for m in _SHORT_YEAR.findall(text)]


def is_period_header(text: str) -> bool:
    """A header cell that names a period rather than a value: "2019", "FY18", "May 26, 2019",
    "2019 (1)", "2019 %" (the percentages of 2019)."""
    s = text.strip()
    if re.fullmatch(r"(?:19|20)\d{2}(?:\s?%)?", _FOOTNOTE.sub("", s) or s):
        return True
    return bool(periods_in(s)) and read_cell(s).kind != "number"
