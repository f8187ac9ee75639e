"""Which figure of a sentence answers a question: the clause around each figure, the words
written with it, and the pins that keep the figures of the clause the question is about.

A report's sentence often holds several figures ("$191.7 million against its U.S. deferred tax
assets and $52.9 million against certain of its foreign deferred tax assets"). Each figure's
clause runs between the cuts around it (commas, "and", brackets); the question's year, its
place, its initialism and its words each keep the figures of the clauses that match, and let
the others go only when they are plainly about something else. What is left, if several, is
listed as candidates by ``facts``."""

from __future__ import annotations

import re

from engine.grounding.answer_kinds import fold, years_named
from engine.grounding.figures import Found, extract_figures
from engine.grounding.initialisms import initialisms, names
from engine.grounding.layout import RESPECTIVELY
from engine.grounding.stems import words
from engine.grounding.units import sentence_spans

MAX_LABEL_WORDS = 8

_YEAR = re.compile(r"(?:19|20)\d\d")
_PER = re.compile(r"\s*(?:/\s*[^\W\d]+|\s(?:per|par|a|an|each|chaque|by|for\s+each)\s+[^\W\d]+)", re.IGNORECASE)
_CLAUSE_CUT = re.compile(
    r";|:\s|,\s|\s[–—-]\s|\(|\)|\b(?:and|while|whereas|but|against|compared\s+with|versus|vs|et|mais|alors\s+que|"
    r"contre|tandis\s+que)\b",
    re.IGNORECASE,
)
_GLUED_SCALE = re.compile(r"(?:bn|mn|[mkMK]|p|c|¢)(?![^\W\d_])")  # a scale, or pence and cents ("445.0p")
_BRACKET_PERIOD = re.compile(r"\([^()]{0,30}(?:19|20)\d\d:\s$")  # "(31 December 2018: " before a figure
_POSSESSIVE = re.compile(r"['’]s?$")
_COUNTED = re.compile(r"\bhow many ([^\W\d_]{3,})", re.IGNORECASE)  # "how many RSUs were granted"
_NEXT_WORD = re.compile(r"[ \u00a0]([^\W\d_]{3,})")
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
# The words just before a figure that bound it ("among the top 5%", "more than 1,400"): stated with it.
_BOUND_BEFORE = re.compile(
    r"(?:\bamong (?:the )?)?\b(?:top|bottom|more than|less than|fewer than|at least|at most|up to|over|under|nearly|"
    r"almost|approximately|about|around|roughly|above|below|plus de|moins de|au moins|environ|pres de|jusqu'a)\s+$",
    re.IGNORECASE,
)
AREA_UNIT = re.compile(r"\s?(?:m²|m2\b|sq\.? ?(?:ft|m)\b|square (?:metres|meters|feet)\b|hectares?\b|ha\b|km²)")
_PROPER = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-ZÀ-Ý][a-zà-ÿ'’-]{2,}\b")  # a capitalised word, not a sentence's first
_CATCH_ALL = re.compile(r"\b(?:elsewhere|otherwise|everywhere else|other (?:cities|places|countries|locations)|"
    r"ailleurs|sinon|autres villes)\b", re.IGNORECASE)  # fmt: skip
_ASKS_RATE = re.compile(r"(?i)\b(?:per|par|each|chaque|rate|taux)\b|/")


def is_year(found: Found) -> bool:
    return found.kind == "number" and bool(_YEAR.fullmatch(found.text.strip()))


def clause(text: str, found: Found) -> str:
    start, end = _clause_span(text, found)
    return text[start:end]


def _clause_span(text: str, found: Found) -> tuple[int, int]:
    """Where the clause of ``text`` that holds ``found`` runs: between the cuts (commas, "and",
    brackets) around it. A bracketed figure keeps the period that labels it: "(31 December 2018:
    £45.1 million)" is of 2018."""
    start = 0
    for cut in _CLAUSE_CUT.finditer(text):
        if cut.end() <= found.start:
            start = cut.end()
        elif cut.start() >= found.end:
            return _labelled_start(text, start), cut.start()
    return _labelled_start(text, start), len(text)


def _labelled_start(text: str, start: int) -> int:
    label = _BRACKET_PERIOD.search(text, max(0, start - 40), start)
    return label.start() + 1 if label else start


def clause_label(clause: str, shown: str) -> str:
    """The words of ``clause`` around the figure ``shown`` (at most MAX_LABEL_WORDS, nearest first)."""
    at = clause.find(shown)
    before = _WORD.findall(clause[: max(at, 0)])
    after = _WORD.findall(clause[at + len(shown) :] if at >= 0 else "")
    keep_after = after[: MAX_LABEL_WORDS // 2]
    keep_before = before[-(MAX_LABEL_WORDS - len(keep_after)) :] if before else []
    return " ".join([*keep_before, "…", *keep_after]).strip(" …") if keep_before or keep_after else ""


def with_unit_words(text: str, found: Found, question: str = "") -> str:
    """The figure with what its pattern leaves after it: a glued scale or subunit ("€5.2" +
    "m", "445.0" + "p"), an area unit ("6 200" + " m²"), the thing the question counts
    ("how many RSUs": "866.6" + " RSUs") and the rate words that follow it ("180 euros" + "
    per night"); and the words before it that bound it ("among the top" + " 5%"): "5%"
    alone says another thing, and "445.0" is not 445.0 pence."""
    end = found.end
    for unit in (_GLUED_SCALE, AREA_UNIT):
        glued = unit.match(text, end)
        end = glued.end() if glued else end
    counted, noun = _COUNTED.search(question), _NEXT_WORD.match(text, end)
    if counted and noun and words(noun.group(1)) == words(counted.group(1)):
        end = noun.end()
    per = _PER.match(text, end)
    bound = _BOUND_BEFORE.search(text, max(0, found.start - 24), found.start)
    return text[bound.start() if bound else found.start : per.end() if per else end]


_MARK = re.compile(r"\(\d{1,2}\)")


def footnote_mark(text: str, found: Found) -> bool:
    """ "expense(1)", "(1) Classified as …" at a line's start: a footnote's number, no figure of the passage."""
    spot = _MARK.match(text, max(0, found.start - 1))
    if spot is None or not (spot.start() <= found.start < spot.end()):
        return False
    before = text[: spot.start()]
    return (bool(before) and before[-1].isalpha()) or not before.strip(" \t") or before.endswith("\n")


def rate_of(text: str, found: Found, question: str) -> bool:
    """Whether ``found`` is a rate ("120 euros per night") while the question counts and asks no rate."""
    if _ASKS_RATE.search(question):
        return False
    shown = with_unit_words(text, found)
    return bool(_PER.match(text, found.end) or _PER.match(text, found.start + len(shown.rstrip())))


def _names(text: str) -> set[str]:
    return {_POSSESSIVE.sub("", fold(m)) for m in _PROPER.findall(text)}  # "the Company's" names the Company


def pin_place(question: str, wanted: list[Found], clauses: dict[int, str]) -> list[Found]:
    """A place the question names that no clause names: the clauses about other places do
    not apply to it, and a catch-all clause ("… elsewhere") does. Lyon is not "Paris and London"."""
    if len(wanted) < 2:
        return wanted
    asked = _names(question)
    own = {id(f): _names(clauses[id(f)]) - _words_folded(question) for f in wanted}
    if not asked or any(asked & _names(clauses[id(f)]) for f in wanted):
        return wanted
    catch_all = [f for f in wanted if _CATCH_ALL.search(clauses[id(f)])]
    if catch_all:
        return catch_all
    unnamed = [f for f in wanted if not own[id(f)]]
    return unnamed if unnamed and len(unnamed) < len(wanted) else wanted


def _words_folded(text: str) -> set[str]:
    return {fold(w) for w in _WORD.findall(text)}


def respectively(text: str, wanted: list[Found]) -> dict[int, str]:
    """ "$5.7m, $3.8m and $3.1m in 2019, 2018 and 2017, respectively": each figure's year."""
    if len(wanted) < 2 or not RESPECTIVELY.search(text):
        return {}
    taken = {id(f) for f in wanted}
    periods = [f for f in extract_figures(text) if id(f) not in taken and (f.kind == "date" or is_year(f))]
    periods = [f for f in periods if f.start >= wanted[-1].end] or [f for f in periods if f.end <= wanted[0].start]
    years = [_YEAR.search(f.value or f.text) for f in periods]
    if len(years) != len(wanted) or not all(years):
        return {}
    return {id(f): year.group(0) for f, year in zip(wanted, years, strict=True)}


def pin_sentence(question: str, wanted: list[Found], clauses: dict[int, str], text: str = "") -> list[Found]:
    """The figures the question names: in a clause about its year, else in the clause that
    alone shares the most of its words. The first figure of a sentence has the sentence's
    subject too: in "Other income (expense), net changed $9.9 million …, which was primarily
    attributable to a change of $10.4 million in foreign exchange expense", the subject is cut
    off $9.9 million's clause by the brackets, and $10.4 million is its cause."""
    if len(wanted) < 2:
        return wanted
    asked = words(question)
    years = years_named(question)
    if years:
        named = [f for f in wanted if all(y in clauses[id(f)] for y in years)]
        yearless = [f for f in wanted if not _YEAR.search(clauses[id(f)])]
        # "at 31 December 2019 was INR19 …, compared with the carrying value of £41.5 million"
        if named and _more_of_subject(asked, named, yearless, clauses):
            wanted = named + yearless
        elif named:
            wanted = named
    if len(wanted) > 1:
        spans = sentence_spans(text, 0, len(text)) if text else []
        own = {id(f): _clause_words(_subject(text, spans, f, wanted) + clauses[id(f)]) for f in wanted}
        overlap = {id(f): len(own[id(f)] & asked) for f in wanted}
        best = max(overlap.values())
        top = [f for f in wanted if overlap[id(f)] == best]
        # "€4.8m in 2018" after "Revenue was €5.2m in 2019" continues the same subject: no pin;
        # so does "and $0.6 million during fiscal year 2018" after "… by $0.0 million during fiscal year 2019".
        others_elsewhere = all(own[id(f)] - asked - own[id(top[0])] for f in wanted if f is not top[0])
        if best and len(top) == 1 and others_elsewhere:
            wanted = top
    return wanted


def _subject(text: str, spans: list[tuple[int, int]], found: Found, wanted: list[Found]) -> str:
    """The words from the start of ``found``'s sentence (of ``spans``, the sentences of ``text``)
    to it, when no other figure stands between."""
    start = next((a for a, b in spans if a <= found.start < b), 0)
    if not text or any(start <= f.start < found.start for f in wanted):
        return ""
    return text[start : found.start] + " "


def _more_of_subject(asked: set[str], named: list[Found], yearless: list[Found], clauses: dict[int, str]) -> bool:
    """Whether a clause that names no year shares more of the question's words than every
    clause that names its year: the year stands in a clause about something else."""
    best = max(len(_clause_words(clauses[id(f)]) & asked) for f in named)
    return any(len(_clause_words(clauses[id(f)]) & asked) > best for f in yearless)


def pin_initialism(question: str, text: str, wanted: list[Found], clauses: dict[int, str]) -> list[Found]:
    """The figures whose qualifier names the initialism the question names, when others' do not:
    "$191.7 million against its U.S. deferred tax assets and $52.9 million against certain of its
    foreign deferred tax assets". A figure's qualifier is what is written after it, up to the
    next figure's clause ("against" cuts it off the clause). What precedes the first figure is
    the subject of all of them ("reductions in LIFO-valued inventories … by $0.0 million … and $0.6 million")."""
    asked = initialisms(question)
    if len(wanted) < 2 or not asked:
        return wanted
    ends = [*(_clause_span(text, f)[0] for f in wanted[1:]), len(text)]
    tails = [text[f.end : max(end, f.end)] for f, end in zip(wanted, ends, strict=True)]
    naming = [f for f, tail in zip(wanted, tails, strict=True) if all(names(tail, a) for a in asked)]
    return naming if 0 < len(naming) < len(wanted) else wanted


def _clause_words(clause: str) -> set[str]:
    """The content words of a clause, without its figures (a year or an amount says no subject)."""
    for found in extract_figures(clause):
        clause = clause.replace(found.text, " ")
    return {w for w in words(clause) if not w.isdigit()}
