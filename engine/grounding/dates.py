"""Dates in EN and FR: ISO, "12 March 2025", "12 mars 2025", "March 12, 2025", "03/12/2025".

A date becomes keys: "2025-03-12" for a full date, "2025-03" for a month, "--03-12"
for a day without a year. A numeric date that reads both ways (03/12/2025) has both
keys, the day-first reading first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

MONTHS = {
    "january": 1, "jan": 1, "janvier": 1, "janv": 1,
    "february": 2, "feb": 2, "février": 2, "fevrier": 2, "févr": 2, "fevr": 2,
    "march": 3, "mar": 3, "mars": 3,
    "april": 4, "apr": 4, "avril": 4, "avr": 4,
    "may": 5, "mai": 5,
    "june": 6, "jun": 6, "juin": 6,
    "july": 7, "jul": 7, "juillet": 7, "juil": 7,
    "august": 8, "aug": 8, "août": 8, "aout": 8,
    "september": 9, "sept": 9, "sep": 9, "septembre": 9,
    "october": 10, "oct": 10, "octobre": 10,
    "november": 11, "nov": 11, "novembre": 11,
    "december": 12, "dec": 12, "décembre": 12, "decembre": 12, "déc": 12,
}  # fmt: skip
# Without a year only full names count, and not "may" ("3 may be" is no date).
FULL_MONTHS_EN = "january february march april june july august september october november december".split()
FULL_MONTHS_FR = (
    "janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre décembre decembre".split()
)
_FULL = FULL_MONTHS_EN + FULL_MONTHS_FR


def _alternation(names: list[str]) -> str:
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


_MON = rf"(?i:{_alternation(list(MONTHS))})(?![^\W\d_])\.?"
_MON_FULL = rf"(?i:{_alternation(_FULL)})(?![^\W\d_])"
_SP = "[ \u00a0\u202f·]+"  # "·" joins the lines of a header spread over two rows: "December 31, · 2019"
_ORD = r"(?i:er|st|nd|rd|th)?"

_MONTH_LED = "(?=[JFMASONDjfmasond])"
# Callers put one word-start lookbehind in front of the whole pattern.
DATE_PATTERN = (
    r"(?P<iso>(?P<iso_y>\d{4})-(?P<iso_m>\d{1,2})-(?P<iso_d>\d{1,2})(?![\w-]))"
    rf"|(?P<dmy>(?P<dmy_d>\d{{1,2}}){_ORD}{_SP}(?P<dmy_m>{_MON}),?{_SP}(?P<dmy_y>\d{{4}})(?!\d))"
    rf"|(?P<dm>(?P<dm_d>\d{{1,2}}){_ORD}{_SP}(?P<dm_m>{_MON_FULL}))"
    r"|(?P<nd>(?P<nd_a>\d{1,2})[/.-](?P<nd_b>\d{1,2})[/.-](?P<nd_y>\d{4})(?!\d))"
    r"|(?P<ym>(?P<ym_y>\d{4})-(?P<ym_m>0[1-9]|1[0-2])(?![\d-]))"
    rf"|{_MONTH_LED}(?P<mdy>(?P<mdy_m>{_MON}){_SP}(?P<mdy_d>\d{{1,2}}){_ORD},?{_SP}(?P<mdy_y>\d{{4}})(?!\d))"
    rf"|{_MONTH_LED}(?P<my>(?P<my_m>{_MON}){_SP}(?P<my_y>\d{{4}})(?!\d))"
)
DATE_RE = re.compile(rf"(?<![\w.])(?:{DATE_PATTERN})")
# A month name just before a number: "March 12, 2025" and "mars 2025" start there.
MONTH_BEFORE_RE = re.compile(rf"(?<![\w.])(?:{_MON}){_SP}$")


def _month(word: str) -> int:
    return MONTHS.get(word.lower().rstrip("."), 0)


def _full(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def date_keys(match: re.Match[str]) -> list[str]:
    """The keys of a matched date, primary first; empty when it is no real date."""
    g = match.groupdict()
    if g["iso"]:
        key = _full(int(g["iso_y"]), int(g["iso_m"]), int(g["iso_d"]))
        return [key] if key else []
    if g["dmy"]:
        key = _full(int(g["dmy_y"]), _month(g["dmy_m"]), int(g["dmy_d"]))
        return [key] if key else []
    if g["mdy"]:
        key = _full(int(g["mdy_y"]), _month(g["mdy_m"]), int(g["mdy_d"]))
        return [key] if key else []
    if g["my"]:
        return [f"{int(g['my_y']):04d}-{_month(g['my_m']):02d}"]
    if g["dm"]:
        day, month = int(g["dm_d"]), _month(g["dm_m"])
        return [f"--{month:02d}-{day:02d}"] if _full(2024, month, day) else []
    if g["nd"]:
        a, b, year = int(g["nd_a"]), int(g["nd_b"]), int(g["nd_y"])
        keys = [k for k in (_full(year, b, a), _full(year, a, b)) if k]
        return list(dict.fromkeys(keys))
    if g["ym"]:
        return [f"{g['ym_y']}-{g['ym_m']}"]
    return []


def partial_keys(key: str) -> list[str]:
    """A full date also holds its month and its day-in-year: "2025-03-12" → "2025-03", "--03-12"."""
    if len(key) == 10 and not key.startswith("--"):
        return [key[:7], "--" + key[5:]]
    return []


def _names(months: frozenset[int]) -> list[str]:
    return [name for name, number in MONTHS.items() if number in months]


_DAY_BEFORE = re.compile(rf"(?<![\w.])(\d{{1,2}}){_ORD}{_SP}$")
_YEAR_AFTER = re.compile(rf"\.?,?{_SP}(\d{{4}})(?!\d)")
_DAY_YEAR_AFTER = re.compile(rf"\.?{_SP}(\d{{1,2}}){_ORD},?{_SP}(\d{{4}})(?!\d)")
_FULL_SET = frozenset(_FULL)


def find_dates(text: str, months: frozenset[int], lowered: str | None = None) -> Iterator[tuple[list[str], int, int]]:
    """(keys, start, end) of the dates in ``text`` that name one of ``months`` ("12 March
    2025", "March 12, 2025", "mars 2025", "1er janvier"). Month names are found by plain
    string search in ``lowered`` text, then the day and year around them are read."""
    if not months:
        return
    lowered = text.lower() if lowered is None else lowered
    for name in _names(months):
        month = MONTHS[name]
        at = lowered.find(name)
        while at >= 0:
            end = at + len(name)
            if not (at and lowered[at - 1].isalpha()) and not (end < len(lowered) and lowered[end].isalpha()):
                found = _around(text, at, end, month, name in _FULL_SET)
                if found:
                    yield found
            at = lowered.find(name, end)


def _around(text: str, at: int, end: int, month: int, full_name: bool) -> tuple[list[str], int, int] | None:
    before = _DAY_BEFORE.search(text, max(0, at - 8), at)
    if before:
        day = int(before.group(1))
        year = _YEAR_AFTER.match(text, end)
        if year:
            key = _full(int(year.group(1)), month, day)
            return ([key], before.start(), year.end()) if key else None
        if full_name and _full(2024, month, day):
            return [f"--{month:02d}-{day:02d}"], before.start(), end
        return None
    day_year = _DAY_YEAR_AFTER.match(text, end)
    if day_year:
        key = _full(int(day_year.group(2)), month, int(day_year.group(1)))
        return ([key], at, day_year.end()) if key else None
    year = _YEAR_AFTER.match(text, end)
    if year:
        return [f"{int(year.group(1)):04d}-{month:02d}"], at, year.end()
    return None


def month_of(key: str) -> int:
    """The month of a date key ("2025-03-12", "2025-03", "--03-12"), 0 when it has none."""
    part = key[2:4] if key.startswith("--") else key[5:7]
    return int(part) if part.isdigit() else 0


def day_of_date(text: str, start: int) -> bool:
    """Whether the number at ``start`` is the day of a date: "September 29", "31 December 2019"."""
    if MONTH_BEFORE_RE.search(text, max(0, start - 16), start):
        return True
    date = DATE_RE.match(text, start)
    return date is not None and bool(date.group("dmy") or date.group("dm"))
