"""What an answer's own lists say of themselves. A count stated with the items it counted
("3 (Group operating profit, Group cash generation, Group ROCE)") must be the number of
items listed ("3 (2019, 2018)" counts two; only for a question that asks how many). A list
of figures ("2019; 2018") names each once: "2018; 2018" repeats one, where another was due.
A question that asks for its items "respectively" wants a figure for each: one alone answers
part of it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.grounding.answer_kinds import fold
from engine.grounding.clauses import is_year
from engine.grounding.figures import Found, extract_figures
from engine.grounding.layout import RESPECTIVELY

_COUNT = re.compile(r"(?<![\w.,$€£-])(\d{1,3})\s*\(([^()\n]{1,600})\)")
_HOW_MANY = re.compile(r"\b(?:how many|combien|number of|nombre d[e'])")  # "how many years" counts years too
_SEPARATOR = re.compile(r"\s*(?:[,;]|\band\b|\bet\b)\s*")
_LIST_SEPARATOR = re.compile(r"\s*[,;]\s*")
_CELL_PIECES = 6  # commas one row label may hold: bounds the joins tried against the evidence
_THRESHOLD = re.compile(
    r"(?:\b(?:above|below|over|under|than|exceed(?:ed|s|ing)?|least|most|de|dessus|sous|depasse)|[<>≤≥])\s*[$€£]?\s*$"
)  # "1 of 2 columns above 200 (2019)": 200 is the condition's threshold, no count


@dataclass(slots=True, frozen=True)
class StatedCount:
    span: tuple[int, int]  # of the count's digits in the answer
    count: int
    items: tuple[str, ...]

    @property
    def holds(self) -> bool:
        return self.count == len(self.items)


def stated_counts(answer: str, question: str, evidence: str = "") -> list[StatedCount]:
    """Every "N (item, item, …)" of an answer to a "how many" question. An item the
    ``evidence`` names whole ("Notes payable and long-term debt") is one item, "and" or not."""
    if not _HOW_MANY.search(fold(question)):
        return []
    held = " ".join(evidence.lower().split())
    cells = {" ".join(c.lower().split()) for line in evidence.splitlines() if "|" in line for c in line.split("|")}
    out = []
    for m in _COUNT.finditer(answer):
        if _THRESHOLD.search(fold(answer[max(0, m.start() - 24) : m.start()])):
            continue
        items = tuple(i for i in _items(m.group(2).strip(), held, cells) if i)
        if items:
            out.append(StatedCount(m.span(1), int(m.group(1)), items))
    return out


def _items(listed: str, held: str, cells: set[str]) -> list[str]:
    """The items of a list; a row label with commas in it ("Property, plant and equipment,
    principally due to …") is one item when the evidence holds it as a whole table cell."""
    pieces = _LIST_SEPARATOR.split(listed)
    out: list[str] = []
    i = 0
    while i < len(pieces):
        cell = next(
            (
                j
                for j in range(min(len(pieces), i + _CELL_PIECES), i + 1, -1)
                if " ".join(", ".join(pieces[i:j]).lower().split()) in cells
            ),
            None,
        )
        if cell is not None:
            out.append(", ".join(pieces[i:cell]))
            i = cell
            continue
        piece = pieces[i]
        whole = " ".join(piece.lower().split())
        out += [piece] if whole and len(whole.split()) > 1 and whole in held else _SEPARATOR.split(piece)
        i += 1
    return out


_PERIOD_ITEM = re.compile(r"(?:fy\s?|fiscal (?:year )?)?(?:19|20)\d\d(?:\s?[/-]\s?(?:19|20)?\d\d)?")
_BARE_FIGURE = re.compile(r"[$€£]?\s?[-−(]?\d[\d,.]*\)?\s?(?:%|percent|thousand|million|billion|bn|m|k)?")


def repeated_items(answer: str, per_year: bool = True) -> list[tuple[int, int]]:
    """Spans of the items of a one-line list ("2018; 2018; 2017", "Level 2; Level 2") that repeat
    an earlier one. Two cells may hold one value ("3%; 3%": the actual and the constant change),
    so a bare figure repeated counts only for a list of the years asked (``per_year``: "in 2019
    and 2018"), where one value twice is rare and a misread likely."""
    if "\n" in answer.strip() or ";" not in answer:
        return []
    seen: set[str] = set()
    out = []
    pos = 0
    for part in answer.split(";"):
        item = part.strip()
        start = pos + part.find(item) if item else pos
        pos += len(part) + 1
        if not item or not any(c.isdigit() for c in item):
            continue
        key = " ".join(item.lower().split())
        if not per_year and _BARE_FIGURE.fullmatch(key) and not _PERIOD_ITEM.fullmatch(key):
            continue
        if key in seen:
            out.append((start, start + len(item)))
        seen.add(key)
    return out


# "during FY 2018 and FY 2018", "from fiscal year 2017 to 2017": one year as both ends of a pair
_YEAR_PAIR = re.compile(
    r"(?i)\b((?:19|20)\d\d)\s+(?:and|to|&|vs\.?|versus|compared (?:to|with))\s+(?:(?:fiscal|financial) (?:year )?|FY\s?)?(\1)\b"
)


def one_year_twice(answer: str, lowered: list[str]) -> list[tuple[int, int]]:
    """Spans of the second year of a pair that names one year twice ("FY 2018 and FY 2018"),
    unless the evidence (``lowered``: its texts lower-cased) writes that very pair."""
    out = []
    for match in _YEAR_PAIR.finditer(answer):
        phrase = " ".join(match.group(0).lower().split())
        if not any(phrase in " ".join(text.split()) for text in lowered):
            out.append(match.span(2))
    return out


def lone_figure(answered: list[Found], question: str) -> int | None:
    """The start of the one figure of an answer (``answered``: its figures) when ``question`` asks
    for several in order ("… to fund its pension and postretirement plans, respectively?":
    "$10.8 million" alone answers one of the two); years and figures the question writes do not count."""
    if not RESPECTIVELY.search(question):
        return None
    asked = {f.value for f in extract_figures(question)}
    own = [f for f in answered if not is_year(f) and f.value not in asked]
    return own[0].start if len(own) == 1 else None
