"""The fact an evidence answer states first: the figure the question asks for, picked
from the passage or row that best answers it, with what it is.

A small model's failing answer is replaced by the evidence. Quoting a whole row or a
sentence with three amounts leaves the analyst to find the figure, so the answer
states the one figure that answers, and the passage sits behind its footnote. When
the passage holds several figures that could answer and the question does not pin one
down (by the year it names, the kind of figure it asks for, or the words of the clause
that holds it), every candidate is listed with its label and the answer says it is not
sure which one answers.
"""

from __future__ import annotations

import csv
import re

from pydantic import BaseModel

from engine.grounding.answer_kinds import (
    AnswerKind,
    answer_kind,
    asks_for_name,
    asks_for_words,
    fold,
    names_in,
    years_named,
)
from engine.grounding.clauses import (
    AREA_UNIT,
    clause,
    clause_label,
    footnote_mark,
    is_year,
    pin_initialism,
    pin_place,
    pin_sentence,
    rate_of,
    respectively,
    with_unit_words,
)
from engine.grounding.figures import Found, extract_figures, list_item_number
from engine.grounding.models import Citation, GroundingReport, Quote
from engine.grounding.report_table import spread_header
from engine.grounding.stems import words
from engine.grounding.written_as import as_asked

MAX_CANDIDATES = 6  # listed in a "not sure" answer; more are cut (the passage is behind the footnote)

# The figure kinds that answer each kind of question: first those written as that kind,
# else plain numbers (a report table writes "163,047" under "in thousands of euros").
_KINDS: dict[str, tuple[set[str], set[str]]] = {
    "duration": ({"duration"}, {"number"}),
    "percent": ({"percent"}, {"number"}),
    "amount": ({"amount"}, {"number"}),
    "count": ({"number"}, {"duration", "amount"}),
}
# Questions about a reason, a method or a composition: a figure in the passage is not their answer.
_ASKS_CHANGE = re.compile(r"%|\b(?:percent\w*|pourcent\w*|change|variation|growth|croissance)\b", re.IGNORECASE)
_CHANGE_COLUMN = re.compile(r"%|\b(?:change|variation|growth)\b", re.IGNORECASE)
_DEFINED_TERM = re.compile(r"[“\"«(][^”\"»()]{0,80}[”\"»)]")  # ("Qualified Plan"): a defined term, not a person


class Candidate(BaseModel):
    """A figure that could answer, as the evidence writes it, with what it is."""

    text: str  # "180 euros per night", "1,950"
    label: str = ""  # "Software, 2019" (row label and column), or the words around it in its sentence
    figure: str = ""  # the figure alone, as extract_figures reads it ("180 euros")


class Fact(BaseModel):
    """What the best passage states for the question: one figure, several, or a text fact."""

    candidates: list[Candidate]
    statement: str = ""  # no figure answers: the passage itself (a name, a rule), one line
    row: bool = False  # read from a table row: its figures, never words that say what a thing is
    each: bool = False  # one candidate for each year the question names, in its order: all of them answer
    computed: bool = False  # its one candidate is computed from the passage's figures (its label: the derivation)

    @property
    def picked(self) -> Candidate | None:
        return self.candidates[0] if len(self.candidates) == 1 else None

    @property
    def several(self) -> bool:
        return len(self.candidates) > 1 and not self.each


def _answering(kind: AnswerKind | None, figures: list[Found], text: str = "") -> list[Found]:
    """The figures of the kind the question asks for: written as that kind, else plain
    numbers; any figure but a date or a year when no kind is asked (dates are context).
    An area ("6 200 m²") answers only a question about an area."""
    if kind == "date":
        return [f for f in figures if f.kind == "date" or is_year(f)]
    figures = [f for f in figures if f.kind != "date" and not is_year(f)]
    areas = [f for f in figures if AREA_UNIT.match(text, f.end)]
    if kind == "area":
        return areas or figures
    figures = [f for f in figures if f not in areas] or figures
    if kind is None:
        return figures
    strict, loose = _KINDS.get(kind, (set(), set()))
    return [f for f in figures if f.kind in strict] or [f for f in figures if f.kind in loose]


def _asked_values(question: str) -> set[str]:
    return {f.value for f in extract_figures(question)}


def _words(text: str) -> set[str]:
    return words(text)  # the stemming that ranks the quotes picks their figure


def row_cells(text: str) -> tuple[list[str], list[str]] | None:
    """(header cells, row cells) of a table-row unit ("header\\nrow"), or None for a sentence."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) != 2:
        return None
    for sep in ("\t", "|", ";", ","):
        if sep in lines[0]:
            header, row = (_split(line, sep) for line in lines)
            if sep == "|" and len(header) == len(row) and not (header[0] or row[0] or header[-1] or row[-1]):
                header, row = header[1:-1], row[1:-1]  # a Markdown row's outer bars
            if len(header) == len(row) and len(row) > 1:
                return _spanned(header), row
    return None


def _split(line: str, sep: str) -> list[str]:
    if sep == "|":
        return [c.strip() for c in line.strip().split("|")]
    return [c.strip() for c in next(csv.reader([line], delimiter=sep, skipinitialspace=True))]


def _spanned(header: list[str]) -> list[str]:
    """A header cell spanning its group of columns ("Fiscal 2019", "", "Fiscal 2018", "")."""
    return [header[0], *spread_header(header[1:])] if header else header


def _cell_figure(cell: str) -> Found | None:
    """The figure a cell holds when the cell is that figure (a "1,950" cell, not a "Q3 2025 note")."""
    figures = extract_figures(cell)
    if len(figures) != 1:
        return None
    rest = cell.replace(figures[0].text, "", 1)
    return figures[0] if not any(c.isalpha() for c in rest.replace("(", "").replace(")", "")) else None


def _row_fact(question: str, header: list[str], row: list[str], kind: AnswerKind | None) -> Fact:
    asked = _asked_values(question)
    cells = [_cell_figure(cell) for cell in row]
    answering = {id(f) for f in _answering(kind, [f for f in cells if f is not None and f.value not in asked])}
    wanted = [i for i, f in enumerate(cells) if f is not None and id(f) in answering]
    if kind != "percent" and not _ASKS_CHANGE.search(question):  # a "% Change" column answers only that
        wanted = [i for i in wanted if not _CHANGE_COLUMN.search(header[i])] or wanted
    labels = [row[i] for i in range(len(row)) if i not in wanted and _is_label(row[i], first=i == 0)]
    wanted = _pin_row(question, header, wanted)
    candidates = [
        Candidate(
            text=row[i],
            figure=cells[i].text if cells[i] is not None else row[i],
            label=", ".join([*labels, header[i]] if header[i] else labels),
        )
        for i in wanted
    ]
    return Fact(candidates=candidates[:MAX_CANDIDATES], statement="" if candidates else ", ".join(row), row=True)


def _is_label(cell: str, first: bool) -> bool:
    """The row's own label, or a cell that names it (a place, a month), not "n/a" or "—"."""
    if not cell:
        return False
    return first or sum(c.isalpha() for c in cell) >= 4 or any(f.kind == "date" for f in extract_figures(cell))


def _pin_row(question: str, header: list[str], wanted: list[int]) -> list[int]:
    """The columns the question names: by its years, else by the words of the column header."""
    if len(wanted) < 2:
        return wanted
    years = years_named(question)
    if years:
        named = [i for i in wanted if any(y in header[i] for y in years)]
        if named:
            wanted = named
    if len(wanted) > 1:
        asked = _words(question)
        overlap = {i: len(_words(header[i]) & asked) for i in wanted}
        best = max(overlap.values())
        if best and sum(1 for v in overlap.values() if v == best) == 1:
            wanted = [i for i in wanted if overlap[i] == best]
    return wanted


def sentence_fact(question: str, text: str, kind: AnswerKind | None) -> Fact:
    if kind == "person":
        names = sorted(names_in(_DEFINED_TERM.sub(" ", text)) - names_in(question))
        if len(names) == 1:
            return Fact(candidates=[Candidate(text=names[0])])
        return Fact(candidates=[], statement=" ".join(text.split()))
    asked = _asked_values(question)
    figures = [
        f for f in extract_figures(text)
        if f.value not in asked and not footnote_mark(text, f) and not list_item_number(text, f.start, f.end, f.text)
    ]  # fmt: skip
    wanted = [] if asks_for_words(question) or asks_for_name(question) else _answering(kind, figures, text)
    if kind == "count":  # "how many nights": "120 euros per night" is a rate, not a count of nights
        wanted = [f for f in wanted if not rate_of(text, f, question)]
    if not wanted:
        return Fact(candidates=[], statement=" ".join(text.split()))
    periods = respectively(text, wanted)
    clauses = {id(f): periods.get(id(f)) or clause(text, f) for f in wanted}
    wanted = pin_place(question, wanted, clauses)
    wanted = pin_initialism(question, text, wanted, clauses)
    wanted = pin_sentence(question, wanted, clauses, text)
    shown = [with_unit_words(text, f, question) for f in wanted]
    signed = [as_asked(question, text, f.start, s) for f, s in zip(wanted, shown, strict=True)]
    if len(wanted) == 1:  # the question says what it is: no label needed
        return Fact(candidates=[Candidate(text=signed[0], figure=wanted[0].text)])
    candidates = [
        Candidate(text=t, figure=f.text, label=periods.get(id(f)) or clause_label(clauses[id(f)], s))
        for f, s, t in zip(wanted, shown, signed, strict=True)
    ]
    return Fact(candidates=candidates[:MAX_CANDIDATES])


def stated_fact(question: str, quote: Quote) -> Fact:
    """The fact ``quote`` states for ``question``: the figure it asks for, the candidates
    when the passage does not pin one down, or the passage itself when no figure answers."""
    kind = answer_kind(question)
    if quote.computed:
        return computed_fact(quote.text)
    cells = row_cells(quote.text)
    return _row_fact(question, *cells, kind) if cells is not None else sentence_fact(question, quote.text, kind)


def computed_fact(statement: str) -> Fact:
    """A computed result first: "expression = 4445" is stated "4445", derived from the expression."""
    expression, sep, result = statement.rpartition(" = ")
    figures = extract_figures(result)
    if sep and len(figures) == 1 and fold(result.replace(figures[0].text, "")).strip(" .") == "":
        return Fact(candidates=[Candidate(text=result.strip(), figure=figures[0].text, label=expression.strip())])
    return Fact(candidates=[], statement=" ".join(statement.split()))


def cite_passage(report: GroundingReport, quote: Quote, fact: Fact, end: int) -> GroundingReport:
    """The report with the fact's figures (those before ``end`` in the answer) cited to the
    passage they were picked from: the same figure may stand in another row, and the
    footnote must open the one the answer states. Citations are renumbered in order of use."""
    if quote.computed:
        return report
    stated = {c.figure or c.text for c in fact.candidates}
    passage = Citation(n=0, source=quote.source, location=quote.location, quote=quote.text, evidence=quote.evidence)
    figures = [
        f.model_copy(update={"citation": 0}) if f.start < end and f.text in stated and f.citation is not None else f
        for f in report.figures
    ]
    if figures == report.figures:
        return report
    old = {c.n: c for c in report.citations}
    renumber: dict[int, int] = {}
    citations: list[Citation] = []
    for figure in figures:
        if figure.citation is not None and figure.citation not in renumber:
            renumber[figure.citation] = len(citations) + 1
            source = passage if figure.citation == 0 else old[figure.citation]
            citations.append(source.model_copy(update={"n": len(citations) + 1}))
    figures = [f if f.citation is None else f.model_copy(update={"citation": renumber[f.citation]}) for f in figures]
    return report.model_copy(update={"figures": figures, "citations": citations})
