"""The grounding check's inputs and outputs: evidence in, figures, citations and a verdict out."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

FigureKind = Literal["number", "percent", "amount", "date", "duration"]
Grounding = Literal["verified", "quoted", "partly", "unsupported", "not_found", "none"]


class Evidence(BaseModel):
    """One piece of what the run saw: an Observation, or one passage of a document."""

    n: int  # the Observation's number in this run, 1-based
    tool: str  # e.g. "calculator", "search_docs", "query_table"
    text: str  # what the tool returned (for a document: one passage)
    source: str | None = None  # a document's path relative to its theme, e.g. "travel/policy.md"
    location: str | None = None  # section / page, e.g. "Hotels" or "p. 3"
    computed: bool = False  # figures computed by the tool (calculator, statistics, table queries)
    input: str = ""  # the tool input as written; its figures are evidence too when computed
    operands_in_input: bool = False  # computed from the figures of ``input`` (a calculator expression)
    rank: int | None = None  # a passage's position in its search result, 0 the best match


class Citation(BaseModel):
    n: int  # footnote number, 1-based, in order of first use in the answer
    source: str  # document source, or the tool name for a computed/tool figure
    location: str = ""
    quote: str  # the sentence or row of the evidence that holds the figure (bounded)
    evidence: int  # Evidence.n
    # A derived figure: "412 = 1,950 − 1,538 (table.csv, Software, 2019 and 2018)"; its operands
    # may come from several evidences (``evidences``, the first one is ``evidence``).
    derivation: str | None = None
    evidences: list[int] = Field(default_factory=list)


class Figure(BaseModel):
    text: str  # as written in the answer, e.g. "4,7 %", "€1,250.50", "12 March 2025"
    start: int
    end: int
    kind: FigureKind
    value: str  # normalised, e.g. "4.7%", "1250.5 EUR", "20000", "2025-03-12", "3 day"
    citation: int | None = None  # Citation.n when found in evidence


class Misplaced(BaseModel):
    """A figure of the answer the evidence holds only for another row or period than the question's."""

    figure: str  # as written in the answer
    found: str  # where it was found: "Other, 2018", or a passage's years
    expected: str  # what the question asks: "Total, 2019" (empty: not named)
    evidence: int  # Evidence.n where it was found
    in_table: bool = True
    other_scale: bool = False  # the digits were found, at another scale ("8 thousand" for "$7.8 million")
    as_change: bool = False  # found only written as a change ("increase by 2,000,000") for a question asking a level
    measured: bool = False  # found only where it measures something else ("455 destinations", asked per continent)
    counted: bool = False  # found only as a count ("Number of RSUs") where the question asks a value
    computed: bool = False  # found as stated, where the question asks a figure computed from it ("the change in …")


class GroundingReport(BaseModel):
    figures: list[Figure] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    unsupported: list[str] = Field(default_factory=list)  # figures as written that nothing holds
    invented_sources: list[str] = Field(default_factory=list)  # sources named in the answer, never returned
    grounding: Grounding = "none"
    misplaced: list[Misplaced] = Field(default_factory=list)  # also listed in ``unsupported``
    notes: list[str] = Field(
        default_factory=list
    )  # one line per misplaced or miscomputed figure, in the check's language
    # results of a derivation the answer writes that does not hold ("19.8% = (16.6 / 93.8) × 100");
    # also listed in ``unsupported``, their note in ``notes``
    miscomputed: list[str] = Field(default_factory=list)


class Unit(BaseModel):
    """A quotable piece of evidence: a sentence, a list item, or a table row with its header."""

    text: str
    evidence: int  # Evidence.n
    tool: str
    source: str | None = None
    location: str | None = None
    start: int  # span of the sentence / row in the evidence text
    end: int
    computed: bool = False
    rank: int | None = None  # Evidence.rank
    period: str = ""  # a sentence naming no year: the year its paragraph is about (units._periods)


class Quote(BaseModel):
    """The evidence quoted instead of a model's answer."""

    text: str  # verbatim evidence (a computed result: "17 * 23 = 391")
    evidence: int
    source: str  # document source, or the tool name
    location: str = ""
    score: float
    preface: str  # "From travel-policy.md (Hotels):" / "D'après travel-policy.md (Hôtels) :"
    confident: bool = True  # False: the closest passage found, which may not answer the question
    close: bool = True  # close to the question, whatever kind of figure it holds (the engine may compute from it)
    computed: bool = False  # a tool's computed result ("expression = result"), not a document's words
