"""Evidence cut into quotable units: sentences, list items, table rows (with their header).

Units keep their span in the evidence text, so a figure found at an offset maps back to
the sentence or row that holds it. A computed result is one unit stated with its
expression ("17 * 23 = 391").
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterator

from engine.grounding.answer_kinds import years_in_order
from engine.grounding.evidence_index import without_engine_notes
from engine.grounding.models import Evidence, Unit

MAX_QUOTE_CHARS = 300
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*•+]|\d{1,3}[.)])[ \t]+\S")
_HEADING = re.compile(r"[ \t]*#{1,6}[ \t]")
_MD_RULE = re.compile(r"[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
# a sentence's end, also before a bullet written inline ("… in Phone cost of revenue. • Research and development …")
_SENTENCE_END = re.compile(r"[.!?…]+[\"'»”)\]]*(?=\s+(?:[•▪]\s*)?[\"'«“(\[]?[A-ZÀ-ÖØ-Þ0-9])")
_NEWLINE = re.compile("\n")
_ABBREVIATIONS = frozenset("e.g i.e p pp cf etc vs no nr fig dr mr mrs ms st m mme env art ch sect approx".split())


def expression(ev: Evidence) -> str:
    """The tool input as the expression it computes: ``{"expression": "17 * 23"}`` → ``17 * 23``;
    empty when the input is structured data rather than one expression."""
    text = ev.input.strip()
    if not text.startswith(("{", "[")):
        return text
    try:
        data = json.loads(text)
    except ValueError:
        return text
    if isinstance(data, dict) and len(data) == 1:
        (value,) = data.values()
        return value.strip() if isinstance(value, str) else ""
    return ""


def computed_unit(ev: Evidence, text: str) -> Unit | None:
    """A one-line computed result as ``input = output``; None when the output is a longer text."""
    result = text.strip()
    if not result or "\n" in result or len(result) > MAX_QUOTE_CHARS:
        return None
    expr = expression(ev)
    shown = f"{expr} = {result}" if expr and expr != result and len(expr) <= 200 else result
    return Unit(text=shown, evidence=ev.n, tool=ev.tool, source=ev.source, location=ev.location,
                start=0, end=len(text), computed=True, rank=ev.rank)  # fmt: skip


def _lines(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for line in text.split("\n"):
        yield start, start + len(line)
        start += len(line) + 1


def _delimiter(line: str) -> str | None:
    for sep in ("\t", "|", ";", ","):
        if line.count(sep) >= 1 and not (sep == "," and (", " in line or re.search(r"\d,\d", line))):
            return sep
    return None


def _blocks(text: str) -> Iterator[list[tuple[int, int]]]:
    """Runs of non-blank lines."""
    block: list[tuple[int, int]] = []
    for start, end in _lines(text):
        if text[start:end].strip():
            block.append((start, end))
        elif block:
            yield block
            block = []
    if block:
        yield block


def _is_table(text: str, block: list[tuple[int, int]]) -> bool:
    if len(block) < 2:
        return False
    first = text[block[0][0] : block[0][1]]
    sep = _delimiter(first)
    if sep is None:
        return False
    counts = {text[s:e].count(sep) for s, e in block if not _MD_RULE.match(text[s:e])}
    return len(counts) == 1


def _is_boundary(text: str, match: re.Match[str]) -> bool:
    """A sentence end, not the dot of an abbreviation ("e.g.", "p. 3") or an initial."""
    cut = match.start()
    token = text[text.rfind(" ", max(0, cut - 40), cut) + 1 : cut].lstrip("(\"'«")
    return not (token.lower() in _ABBREVIATIONS or (len(token) == 1 and token.isalpha()))


def _sentences(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    cursor = start
    for match in _SENTENCE_END.finditer(text, start, end):
        if _is_boundary(text, match):
            yield cursor, match.end()
            cursor = match.end()
    yield cursor, end


def _block_spans(text: str, block: list[tuple[int, int]]) -> Iterator[tuple[int, int, str, str]]:
    """(start, end, header, period) of each unit of one block of lines; header is set for
    table rows, period for a sentence that names no year of its own (``_periods``)."""
    if _is_table(text, block):
        header = text[block[0][0] : block[0][1]].strip()
        for s, e in block[1:]:
            if not _MD_RULE.match(text[s:e]):
                yield s, e, header, ""
        return
    para: list[tuple[int, int]] = []
    for s, e in block:
        line = text[s:e]
        if _HEADING.match(line):
            yield from _paragraph(text, para)
            para = []
        elif _LIST_ITEM.match(line):
            yield from _paragraph(text, para)
            para = []
            yield s, e, "", ""
        else:
            para.append((s, e))
    yield from _paragraph(text, para)


def _paragraph(text: str, lines: list[tuple[int, int]]) -> Iterator[tuple[int, int, str, str]]:
    if lines:
        yield from _periods(text, list(_sentences(text, lines[0][0], lines[-1][1])))


def _periods(text: str, sentences: list[tuple[int, int]]) -> Iterator[tuple[int, int, str, str]]:
    """Each sentence of a paragraph with the period it is about when it names none: the
    first year of the nearest sentence before it that names one. "Fiscal year 2025 closed
    with revenue of 48.2 million euros, up 7.4% on 2024. Gross margin was 38.6%." states
    the margin of 2025, though its sentence alone names no year."""
    period = ""
    for start, end in sentences:
        own = years_in_order(text[start:end]) if any(c.isdigit() for c in text[start:end]) else []
        yield start, end, "", "" if own else period
        period = own[0] if own else period


def _unit(ev: Evidence, text: str, start: int, end: int, header: str, period: str = "") -> Unit | None:
    body = " ".join(text[start:end].split())
    if not body or not any(c.isalnum() for c in body):
        return None
    if not header and len(body.split()) < 4 and body[-1] not in ".!?:;…" and not _LIST_ITEM.match(body):
        return None  # a title or a fragment, not a statement worth quoting
    shown = f"{header}\n{text[start:end].strip()}" if header else body
    return Unit(text=shown, evidence=ev.n, tool=ev.tool, source=ev.source, location=ev.location,
                start=start, end=end, computed=ev.computed, rank=ev.rank, period=period)  # fmt: skip


def evidence_units(ev: Evidence, text: str | None = None) -> list[Unit]:
    """The units of one evidence; ``text`` is its text with cut notes already blanked."""
    text = without_engine_notes(ev.text) if text is None else text
    if ev.computed and (unit := computed_unit(ev, text)) is not None:
        return [unit]
    return [unit for span in unit_spans(text, located(ev.location)[1]) if (unit := _unit(ev, text, *span))]


# A line over a part of a report comparing two periods: "Fiscal Year 2018 Compared with Fiscal Year 2017"
PERIOD_HEADING = re.compile(
    r"(?i)[#\s]*(?:[a-z]+\s+|\d\d?,\s+){0,5}?((?:19|20)\d\d)\s+(?:compared\s+(?:with|to)|versus|vs\.?)\s+"
    r"(?:[a-z]+\s+|\d\d?,\s+){0,5}?(?:19|20)\d\d\s*:?"
)


def located(location: str | None) -> tuple[str, str]:
    """(``location`` with a comparison of two periods read as its first period, that period):
    "top > Fiscal Year 2018 Compared with Fiscal Year 2017" is "top > 2018", about 2018."""
    head, _, last = (location or "").rpartition(" > ")
    found = PERIOD_HEADING.fullmatch(last.strip())
    if found is None:
        return location or "", ""
    return f"{head} > {found.group(1)}" if head else found.group(1), found.group(1)


def unit_spans(text: str, heading: str = "") -> list[tuple[int, int, str, str]]:
    """(start, end, header, period) of every unit of a document text, in order. A sentence that
    names no year, under a line comparing two periods ("Fiscal Year 2018 Compared with Fiscal
    Year 2017"), or in a part of the document so headed (``heading``), is about that line's first
    period until the next such line, when its own paragraph names none: "Research and development
    expenses increased $1.7 billion" there is 2018's."""
    out: list[tuple[int, int, str, str]] = []
    for block in _blocks(text):
        if len(block) == 1 and (found := PERIOD_HEADING.fullmatch(text[block[0][0] : block[0][1]].strip())):
            heading = found.group(1)
        for s, e, header, period in _block_spans(text, block):
            bare = heading and not header and not period and not years_in_order(text[s:e])
            out.append((s, e, header, heading if bare else period))
    return out


def block_bounds(text: str) -> list[tuple[int, int]]:
    """(start, end) of each block of non-blank lines, in order."""
    return [(lines[0][0], lines[-1][1]) for lines in _blocks(text)]


def table_header(text: str, block: tuple[int, int]) -> str | None:
    """The header line when the block is a table (CSV, TSV, markdown), else None."""
    lines = list(_lines_between(text, *block))
    return text[lines[0][0] : lines[0][1]].strip() if _is_table(text, lines) else None


def _lines_between(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    while start <= end:
        stop = text.find("\n", start, end)
        stop = end if stop < 0 else stop
        yield start, stop
        start = stop + 1


def newlines(text: str) -> list[int]:
    """Offsets of every line break: with them, finding a line is a bisect, whatever its length."""
    return [m.start() for m in _NEWLINE.finditer(text)]


def span_at(
    text: str, offset: int, block: tuple[int, int], header: str | None, breaks: list[int] | None = None
) -> tuple[int, int, str] | None:
    """(start, end, header) of the unit holding ``offset`` in ``block`` (``header`` from
    ``table_header``, ``breaks`` from ``newlines``), reading only around the offset: the
    same units ``split_units`` gives, at a cost that does not grow with the evidence."""
    lo, hi = block
    breaks = newlines(text) if breaks is None else breaks

    def line(i: int) -> tuple[int, int]:
        start = breaks[i - 1] + 1 if i > 0 else 0
        return max(lo, start), min(hi, breaks[i] if i < len(breaks) else len(text))

    index = bisect_left(breaks, offset)
    line_start, line_end = line(index)
    # Patterns read the text in place (``match(text, pos, endpos)``): a huge line is never copied.
    if header is not None:
        is_rule = _MD_RULE.match(text, line_start, line_end)
        return None if line_start == lo or is_rule else (line_start, line_end, header)
    if _HEADING.match(text, line_start, line_end):
        return None
    if _LIST_ITEM.match(text, line_start, line_end):
        return line_start, line_end, ""
    start, end = line_start, line_end  # the paragraph: neighbour lines that are no heading or list item
    up, down = index, index
    while up > 0 and start > lo and start > offset - 2 * MAX_QUOTE_CHARS:
        up -= 1
        prev_start, prev_end = line(up)
        if _HEADING.match(text, prev_start, prev_end) or _LIST_ITEM.match(text, prev_start, prev_end):
            break
        start = prev_start
    while down < len(breaks) and end < hi and end < offset + 2 * MAX_QUOTE_CHARS:
        down += 1
        next_start, next_end = line(down)
        if _HEADING.match(text, next_start, next_end) or _LIST_ITEM.match(text, next_start, next_end):
            break
        end = next_end
    first = start
    for match in _SENTENCE_END.finditer(text, max(start, offset - 2 * MAX_QUOTE_CHARS), min(end, offset + 2)):
        if match.end() <= offset and _is_boundary(text, match):
            first = match.end()
    for match in _SENTENCE_END.finditer(text, offset, min(end, offset + 2 * MAX_QUOTE_CHARS)):
        if _is_boundary(text, match):
            return first, match.end(), ""
    return first, end, ""


def split_units(evidence: list[Evidence]) -> list[Unit]:
    """The sentences, list items and table rows (header kept) of every evidence, in order."""
    return [unit for ev in evidence for unit in evidence_units(ev)]


def bounded(text: str, focus: int = 0, limit: int = MAX_QUOTE_CHARS) -> str:
    """``text`` cut to ``limit`` characters around ``focus``, with … where it was cut."""
    if len(text) <= limit:
        return text
    start = max(0, min(focus - limit // 2, len(text) - limit))
    piece = text[start : start + limit].strip()
    return ("…" if start > 0 else "") + piece + ("…" if start + limit < len(text) else "")


def window(text: str, lo: int, hi: int, focus: int, limit: int = MAX_QUOTE_CHARS) -> str:
    """``text[lo:hi]`` on one line, cut to about ``limit`` characters around ``focus``
    (only that window is read, so a huge unit costs no more than a short one)."""
    start = max(lo, focus - limit // 2)
    end = min(hi, start + limit)
    start = max(lo, end - limit)
    piece = " ".join(text[start:end].split())
    return ("…" if start > lo else "") + piece + ("…" if end < hi else "")


def blocks(text: str) -> list[list[tuple[int, int]]]:
    """The (start, end) of each line, per run of non-blank lines."""
    return list(_blocks(text))


def delimiter_of(line: str) -> str | None:
    """The cell delimiter of a table line (tab, pipe, semicolon, comma), or None."""
    return _delimiter(line)


def is_rule(line: str) -> bool:
    """Whether a line is a markdown table rule ("|---|---|")."""
    return bool(_MD_RULE.match(line))


def sentence_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The sentences of ``text[start:end]``, as spans."""
    return list(_sentences(text, start, end))


# a year, words without a figure, or a balance date ("September 30,", "31 March 2019")
_HEAD_CELL = re.compile(r"(?:19|20)\d\d|[^\d]*|(?:[A-Za-z]+ \d{1,2}|\d{1,2} [A-Za-z]+),?(?: (?:19|20)\d\d)?")


def is_head_row(text: str) -> bool:
    """Whether a table unit's row is a line of its head read as a row ("|  | 2019 | 2018 |",
    "|  | September 30, |"): no label, and no figure but years. Its cells answer nothing."""
    row = text.rsplit("\n", 1)[-1].strip()
    if "|" not in row:
        return False
    cells = [c.strip() for c in row.strip("|").split("|")]
    return len(cells) > 1 and not cells[0] and all(_HEAD_CELL.fullmatch(c) for c in cells[1:])
