"""Which rows of a report grid are Totals or subtotals, and the names of those written without a label.

A row is a Total or subtotal when ``engine.grounding.totals.is_total_label`` says so, when
it closes its section (the section's heading written again with figures), or when it has
no label and each of its figures is the sum of the rows above it since the last total (or
writes again the one row since it), or of every row above that is not a total (a grand
total under a subtotal). An unlabelled total inside a section is named "Total <section>",
and the section ends there; elsewhere it is named "Total".
"""

from __future__ import annotations

import re

from engine.grounding.totals import is_total_label

TOTAL_LABEL = "Total"


def _decimals(text: str) -> int:
    digits = re.sub(r"[^\d.]", "", text)
    return len(digits) - digits.rfind(".") - 1 if "." in digits else 0


def _sums(values: list[list[float | None]], texts: list[list[str]], row: int, parts: list[int]) -> bool:
    """Whether every figure of ``row`` is the sum of the rows ``parts`` (within rounding).
    ``values`` holds the additive columns only (not percentages)."""
    if len(parts) < 2:
        return False
    checked = 0
    for col, column in enumerate(values):
        value = column[row]
        if value is None:
            continue
        summed = [column[i] for i in parts if column[i] is not None]
        if not summed:
            return False
        tolerance = 0.5 * 10.0 ** -_decimals(texts[col][row]) * (len(summed) + 1) + 1e-9
        if abs(sum(summed) - value) > tolerance:
            return False
        checked += value != 0
    return checked > 0


def _repeats(values: list[list[float | None]], row: int) -> bool:
    """Whether ``row`` writes again every figure of the row above it (some not zero): under
    "Fixed assets:", "Investments | 1,216.0" and then the unlabelled "1,216.0", its total."""
    pairs = [(column[row - 1], column[row]) for column in values if column[row] is not None]
    return bool(pairs) and all(a == b for a, b in pairs) and any(b for _, b in pairs)


def totals(
    labels: list[str],
    numeric: list[list[float | None]],
    texts: list[list[str]],
    closing: list[bool],
    sections: list[str] | None = None,
) -> list[bool]:
    """Total rows: by their label, as the row that closes its section (``closing``), or,
    unlabelled, as the sum of the rows since the last total (or the one row since it, written
    again), of the rows of its section (``sections``: "Basic earnings per share (cents per
    share)" under rows of another section), or of every row above that is not a total (a
    grand total under a subtotal)."""
    marks: list[bool] = []
    since = 0
    for i, label in enumerate(labels):
        total = is_total_label(label) or closing[i]
        if not total and not label and numeric:
            parts = [j for j in range(i) if not marks[j]]
            own = [j for j in range(since, i) if sections and sections[i] and sections[j] == sections[i]]
            total = _sums(numeric, texts, i, list(range(since, i))) or _sums(numeric, texts, i, parts)
            total = total or (len(own) > 1 and _sums(numeric, texts, i, own))
            total = total or (since == i - 1 and _repeats(numeric, i))  # the total of a section of one row
        marks.append(total)
        if total:
            since = i + 1
    return marks


def unlabelled_totals(labels: list[str], marks: list[bool], sections: list[str]) -> tuple[list[str], list[str]]:
    """Unlabelled total rows named: inside a section, "Total <section>", and the section ends
    there (the rows below it are no longer its own: "Restructuring charges" under a subtotal
    of "Acquisition-related charges"); elsewhere "Total"."""
    labels, sections = list(labels), list(sections)
    for i, (mark, label) in enumerate(zip(marks, labels, strict=True)):
        if not mark or label:
            continue
        closed = sections[i]
        labels[i] = f"{TOTAL_LABEL} {closed}" if closed else TOTAL_LABEL
        j = i + 1
        while closed and j < len(sections) and sections[j] == closed:
            sections[j] = ""
            j += 1
    return labels, sections
