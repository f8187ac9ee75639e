"""The words of an evidence answer: the fact first, on one line, then (in detail) the passages.

``review`` replaces a small model's failing answer by what the evidence states. The
first line is the figure the question asks for with what it is and where it stands
("1,950 (Software, 2019) [report.md, Table 2]"); its footnote opens the passage. A
passage with several candidate figures gives "Not sure which figure answers this: …",
every candidate labelled, unless there is one for each year the question names (all of
them answer it). The detail level chooses how much follows the first line.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from engine.grounding.answer_kinds import YES_NO, YES_NO_ASKED, answer_kind, asks_for_words, fit, fold, years_in_order
from engine.grounding.derive import operation_named, preferred_ops
from engine.grounding.facts import Candidate, Fact, stated_fact
from engine.grounding.figures import extract_figures
from engine.grounding.layout import YEAR_RE
from engine.grounding.measure import measured_by
from engine.grounding.models import Quote
from engine.grounding.quotes import continues
from engine.grounding.written_as import change_for_level
from engine.react.prompts import message
from engine.react.sentence_computation import sentence_computation


class FactAnswer(BaseModel):
    text: str  # the answer: the fact line, then (detailed) the passages
    fact: Fact
    ignore: list[str]  # figures of labels, sources and prefaces: what the fact is, not claims
    sure: bool = True  # False when the line is "Not sure: …" (the passage may not answer the question)


def _clean(text: str) -> str:
    """A source or location inside the brackets of the fact line: no bracket, one line."""
    return " ".join(text.replace("[", "(").replace("]", ")").split())


def _candidate(candidate: Candidate, language: str) -> str:
    if not candidate.label:
        return candidate.text
    return message("fact_labelled", language, text=candidate.text, label=candidate.label)


def _where(quote: Quote, language: str) -> str:
    if quote.computed:
        return message("fact_computed", language, tool=_clean(quote.source))
    if quote.location:
        return message("fact_where", language, source=_clean(quote.source), location=_clean(quote.location))
    return message("fact_where_plain", language, source=_clean(quote.source))


def each_year(question: str, fact: Fact) -> Fact:
    """The candidates as the answer when the question asks a figure in each of the years it
    names and asks no computation ("the effect of dilutive securities for 2019 and 2018
    respectively"): one candidate labelled by each year, none left over, in the question's order."""
    years = years_in_order(question)
    if len(years) < 2 or len(fact.candidates) != len(years) or preferred_ops(question):
        return fact  # "the change between 2018 and 2019" is computed, not the two years' figures
    of_year: dict[str, Candidate] = {}
    for candidate in fact.candidates:
        named = [y for y in years if y in candidate.label]
        if len(named) != 1 or named[0] in of_year:
            return fact
        of_year[named[0]] = candidate
    return fact.model_copy(update={"candidates": [of_year[y] for y in years], "each": True})


def fact_line(question: str, quote: Quote, language: str, brief: bool = False) -> tuple[str, Fact, str]:
    """(the one line that states the fact, the fact, the line's where part). The line is
    "Not sure: …" when the passage is not sure to answer, or when what it states is not of
    the kind the question asks ("which year …" stated by a row without its years)."""
    where_stated = _where(quote, language)
    if (computed := sentence_computation(question, quote, language)) is not None:
        stated = _verdict(question, f"{computed.candidates[0].text} = {computed.candidates[0].label}", language)
        if not _sure(question, quote, computed, stated):
            stated = message("fact_unsure", language, fact=stated)
        return f"{stated} {where_stated}", computed, where_stated
    fact = each_year(question, stated_fact(question, quote))
    where = "" if brief and not fact.several else where_stated
    if fact.picked is not None:
        picked = fact.picked
        if quote.computed:
            stated = picked.text if brief else f"{picked.text} = {picked.label}"
        else:
            stated = _candidate(picked, language)
    elif fact.each:  # "for 2019 and 2018 respectively": each year's figure, labelled, in the question's order
        stated = message("fact_sep", language).join(_candidate(c, language) for c in fact.candidates)
    elif fact.several:
        candidates = message("fact_sep", language).join(_candidate(c, language) for c in fact.candidates)
        stated = message("fact_several", language, candidates=candidates)
    else:
        stated = first_sentence(fact.statement or quote.text) if brief else (fact.statement or quote.text)
    if quote.computed:
        stated = _verdict(question, stated, language)
    if not quote.computed and not fact.several and not _sure(question, quote, fact, stated):  # computed: a result;
        stated = message("fact_unsure", language, fact=stated)  # several: "Not sure which …" says it already
    return (f"{stated} {where}" if where else stated), fact, where


# "did the share of AAA securities increase between 2008 and 2009?": a change computed in the direction asked
_UP = re.compile(r"\b(?:increas(?:e|ed)|grow|grew|rise|rose|improve[d]?|hausse|augment\w*)\b")
_DOWN = re.compile(r"\b(?:decreas(?:e|ed)|declined?|fall|fell|drop(?:ped)?|shrink|shrank|baisse|diminu\w*)\b")


def _verdict(question: str, stated: str, language: str) -> str:
    """A computed change (or decrease) with "Yes" or "No" first when a yes/no question asks
    whether the figure moved that way; else as it stands. Not for a threshold ("by more than
    5%?") nor for a result that is no change of two figures."""
    text = fold(question)
    if not YES_NO_ASKED.search(text) or bool(_UP.search(text)) == bool(_DOWN.search(text)):
        return stated
    if any(not YEAR_RE.fullmatch(f.value) for f in extract_figures(question)):
        return stated
    result, _, derivation = stated.partition(" = ")
    figures = extract_figures(result)
    if len(figures) != 1 or " − " not in derivation.partition(":")[0]:
        return stated
    negative = result.lstrip("$€£ ").startswith(("-", "−", "("))  # the figure's reading has no sign
    moved = figures[0].readings[0].value != 0 and not negative  # a change asked up, a decrease asked down
    return message("fact_yes" if moved else "fact_no", language, fact=stated)


def _sure(question: str, quote: Quote, fact: Fact, stated: str) -> bool:
    if YES_NO_ASKED.search(fold(question)) and not YES_NO.search(stated):
        return False  # "was the 2019 return greater than …?": figures alone do not say yes or no
    computed = quote.computed or fact.computed
    if computed and not measured_by(question, quote.text):
        return False  # a change of "Net unrealized loss" for "the net gains from sales"
    if fact.computed:  # its figures are not of the kind asked: the result computed from them is
        return quote.close
    if fact.several or fact.each or computed:
        return quote.confident
    if fact.picked is not None and not measured_by(question, quote.text):
        return False  # "455 destinations on all seven continents" for "how many does each continent have?"
    words = asks_for_words(question)
    if fact.row and (words or not fact.candidates):
        return False  # "What does X represent?" is not answered by X's row of figures, nor any question by a row dump
    if "|" in quote.text and operation_named(preferred_ops(question)) and not _COMPUTED_LABEL.search(stated):
        return False  # "the difference between the low and high price": no one cell of a row states it
    picked = fact.picked
    if picked is not None and not preferred_ops(question) and change_for_level(question, quote.text, picked.figure):
        return False  # "Research and development expenses increased $1.7 billion" for "how much were they?"
    kind = None if words else answer_kind(question)
    return quote.confident and (kind is None or fit(kind, stated) == "match")


# a cell whose row or column is itself a computation ("% Change", "Variance", "Average price") may state one asked
_COMPUTED_LABEL = re.compile(
    r"(?i)\b(?:change|variance|difference|increase|decrease|growth|ratio|average|mean|total|margin)\b|%"
)


def fact_answer(question: str, quotes: list[Quote], language: str, detail: str) -> FactAnswer:
    """The answer for the best quote first; ``detailed`` adds every quote, verbatim, below it."""
    line, fact, where = fact_line(question, quotes[0], language, brief=detail == "brief")
    parts = [line]
    if detail == "detailed":
        parts += [quoted(q) for q in quotes]
    text = "\n\n".join(parts)
    labels = [c.label for c in fact.candidates] + [where] + [q.preface for q in quotes if detail == "detailed"]
    stated = {c.figure or c.text for c in fact.candidates}
    if quotes[0].computed or fact.computed:  # the expression's figures are inputs the check traces, not labels
        labels = [where]
    ignore = [f.text for label in labels for f in extract_figures(label) if f.text not in stated]
    sure = _sure(question, quotes[0], fact, line)
    return FactAnswer(text=text, fact=fact, ignore=ignore, sure=sure)


def quoted(quote: Quote) -> str:
    lines = "\n".join(f"> {line}" if line.strip() else ">" for line in quote.text.splitlines())
    return f"{quote.preface}\n\n{lines}"


def first_sentence(text: str) -> str:
    """The first sentence of a quote (a brief answer), or the quote when it is one sentence or a row;
    with the sentence after it when that one continues it ("… increased by $19.1 million. The
    increase was primarily due to …": the reason a quote was chosen for)."""
    import re

    ends = [m for m in re.finditer(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý])", text) if "\n" not in text[: m.start()]]
    if not ends:
        return text
    last = 1 if continues(text[ends[0].end() :]) else 0  # the end of the sentence kept last
    return text[: ends[last].start()] if last < len(ends) else text
