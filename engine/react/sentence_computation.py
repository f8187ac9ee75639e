"""A computation over the figures one sentence states for each year ("cash flows from
operations were $1,925 million, $1,131 million and $1,165 million in 2016, 2015 and 2014
respectively" for "the percentage change from 2014 to 2015"): a small model's answer
from a passage, planned by the engine as it plans one from a table row.

It is made only when the question asks a change, a percentage change, a ratio (of the
years in the order it names them), an average or a sum over the years it names (a change
during one year is from the year before, as a table plan reads it) and the sentence pins
exactly one figure to each of them, all of one kind and scale; or a sum of the items it
names, each of which the sentence states once ("176 miles of private crude oil pipelines
and 850 miles of private refined products pipelines" for "the total miles of private crude
oil pipelines and private refined products pipelines"). The result is written as
``compute_table`` writes one (the same statements), with its derivation and the sentence it
comes from, so the check traces it like any derived figure.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from engine.errors import ToolError
from engine.grounding.compare import SCALES
from engine.grounding.dates import FULL_MONTHS_EN
from engine.grounding.facts import Candidate, Fact, sentence_fact
from engine.grounding.figures import EVIDENCE_NUMBER_RE, extract_figures, scale_factor
from engine.grounding.models import Quote
from engine.grounding.stems import words
from engine.tools.tables.catalog import ColumnInfo, TableInfo
from engine.tools.tables.cell_statement import Cell, cells_statement
from engine.tools.tables.compute_tool import ComputeArgs
from engine.tools.tables.messages import statements
from engine.tools.tables.question_reading import read_question

_OF_YEARS = frozenset({"change", "decrease", "percent_change", "ratio", "mean", "sum"})
_OF_TWO = frozenset({"change", "decrease", "percent_change", "ratio"})
_SCALE_WORDS = MappingProxyType({factor: word for word, factor in SCALES.items()})  # 10**6: "million"
# "from july 2, 2005 to july 1, 2006": the ends of fiscal years, which a sentence's "2006, 2005" may not be
_DAY_OF_YEAR = re.compile(rf"(?i)\b({'|'.join(FULL_MONTHS_EN)})\s+(\d{{1,2}})\s*,?\s*(?:19|20)\d\d\b")


def _scale(figure: str) -> int:
    """The factor of the scale word a figure is written with: "$1,925 million" is in millions."""
    found = EVIDENCE_NUMBER_RE.search(figure)
    return scale_factor(found.group("scale")) if found else 1


def year_computation(question: str, quote: Quote, language: str) -> Fact | None:
    """The computed fact (its one candidate: the result, labelled by its derivation), or
    None when the question asks no computation over years or the sentence does not give
    one figure of one kind for each year it names."""
    if quote.computed or "|" in quote.text:
        return None
    days = {(m.group(1).lower(), int(m.group(2))) for m in _DAY_OF_YEAR.finditer(question)} - {("december", 31)}
    if days:
        return None  # the years of the sentence may be fiscal years that end elsewhere
    reading = read_question(question)
    years = reading.years
    asked = question
    if reading.operation in ("change", "percent_change") and len(years) == 1:
        years = (years[0], str(int(years[0]) - 1))  # "the change during 2010": from the year before, as of a table
        asked = f"{question} ({years[1]})"  # the sentence's figure of the year before is asked too, not left out
    if reading.operation not in _OF_YEARS or len(years) < 2 or reading.operation in _OF_TWO and len(years) != 2:
        return None
    stated = sentence_fact(asked, quote.text, None)
    of_year: dict[str, Candidate] = {}
    for candidate in stated.candidates:
        named = [y for y in years if y in candidate.label]
        if len(named) == 1:
            if named[0] in of_year:
                return None  # two figures for one year: not sure which
            of_year[named[0]] = candidate
    if len(of_year) != len(years):
        return None
    # the later year first: a change is later − earlier; a ratio is of the years in the question's order ("of 2008 to 2007")
    ordered = list(years) if reading.operation == "ratio" else sorted(years, reverse=True)
    found = [extract_figures(of_year[y].figure) for y in ordered]
    if not all(len(f) == 1 for f in found):
        return None
    figures = [f[0] for f in found]
    units, scales = {f.unit for f in figures}, {_scale(of_year[y].text) for y in ordered}
    if len(units) != 1 or len(scales) != 1:
        return None  # "$12 million" and "8%": no one computation of both
    unit, scale = units.pop(), scales.pop()
    label = " ".join(w for w in reading.subject_text.split() if w.lower() not in FULL_MONTHS_EN) or question
    cells = [
        Cell(row=label, column=y, value=f.readings[0].value / scale, unit="%" if unit == "%" else "")
        for y, f in zip(ordered, figures, strict=True)
    ]
    info = TableInfo(name="", source=quote.source, columns=(), rows=1, data=None, scale=_SCALE_WORDS.get(scale, ""))
    args = ComputeArgs(operation=reading.operation, rows=[label], columns=list(ordered))
    try:
        statement, result = cells_statement(
            args, info, cells, ColumnInfo(name="", sql_type="VARCHAR"), statements(language)
        )
    except ToolError:
        return None  # a percentage change from zero
    shown, _, expression = statement.partition(" = ")
    return Fact(candidates=[Candidate(text=shown, figure=result, label=expression)], computed=True)


# "what was the total miles of A and B?", "the combined A and B in 2019": the items named after the sum's word
_ITEMS_SUMMED = re.compile(
    r"(?i)\b(?:total|sum of|combined)\s+(?:of\s+)?(?:the\s+)?(.+?)\s*(?:\bin (?:19|20)\d\d\b|[?.]|$)"
)
_NEXT_FIGURE = re.compile(r"(?i)\d|\band\b|[,;:()]")  # an item's words end at the next figure, "and" or clause mark


def items_computation(question: str, quote: Quote, language: str) -> Fact | None:
    """The sum of the items the question names ("A and B"), when the sentence states exactly one
    figure followed by each item's every word, all of one unit and scale; else None."""
    reading = read_question(question)
    if quote.computed or "|" in quote.text or reading.operation != "sum":
        return None
    summed = _ITEMS_SUMMED.search(question)
    parts = [p.strip() for p in re.split(r"\s+and\s+|,\s*", summed.group(1))] if summed else []
    if len(parts) < 2 or len(parts) > 5 or not all(words(p) for p in parts):
        return None
    text = quote.text
    found = [f for f in extract_figures(text) if f.kind != "date" and f.unit != "%"]
    after = [words(_NEXT_FIGURE.split(text[f.end :], maxsplit=1)[0]) for f in found]
    # the first item's words hold the measure ("miles of private crude oil pipelines"): each later item
    # inherits it, as the question writes the measure once
    measure = words(parts[0].split(" of ", 1)[0]) if " of " in parts[0] else set()
    picked: list[int] = []
    for part in parts:
        need = words(part) | measure
        matching = [j for j, w in enumerate(after) if need <= w]
        if len(matching) != 1 or matching[0] in picked:
            return None  # an item stated twice, or by no figure: not sure which
        picked.append(matching[0])
    figures = [found[j] for j in picked]
    if len({f.unit for f in figures}) != 1 or len({_scale(text[f.start :]) for f in figures}) != 1:
        return None
    scale = _scale(text[figures[0].start :])
    where = ", ".join(reading.years) or quote.location or quote.source  # the cells' "column"
    cells = [
        Cell(row=part, column=where, value=f.readings[0].value / scale, unit="")
        for part, f in zip(parts, figures, strict=True)
    ]
    info = TableInfo(name="", source=quote.source, columns=(), rows=1, data=None, scale=_SCALE_WORDS.get(scale, ""))
    args = ComputeArgs(operation="sum", rows=parts, columns=[where])
    statement, result = cells_statement(
        args, info, cells, ColumnInfo(name="", sql_type="VARCHAR"), statements(language)
    )
    shown, _, expression = statement.partition(" = ")
    return Fact(candidates=[Candidate(text=shown, figure=result, label=expression)], computed=True)


def sentence_computation(question: str, quote: Quote, language: str) -> Fact | None:
    """What the engine computes from one passage for the question: over its years, or of its items."""
    return year_computation(question, quote, language) or items_computation(question, quote, language)
