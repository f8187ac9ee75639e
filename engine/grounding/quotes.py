"""Evidence-first answers: quote the unit of evidence that best answers the question.

A small model's answer that fails the grounding check is replaced by a verbatim quote,
so the answer can only hold figures the evidence holds. Units are ranked by the
embedding model already loaded, combined with word overlap and, when the question asks
for a figure, a bonus for units that hold one. Below a calibrated score nothing fits,
and ``not_found_message`` says what was searched instead.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from pydantic import BaseModel

from engine.grounding.answer_kinds import (
    METHOD_ASKED,
    METHOD_GIVEN,
    NAMED_AGGREGATE,
    REASON_ASKED,
    REASON_GIVEN,
    Fit,
    aggregate_asked,
    answer_kind,
    asks_about_table,
    asks_for_words,
    constraints_met,
    fit,
    fold,
    introduces_table,
    names_in,
    years_in_order,
)
from engine.grounding.evidence_index import without_engine_notes
from engine.grounding.figures import extract_figures
from engine.grounding.messages import say
from engine.grounding.models import Evidence, Quote, Unit
from engine.grounding.stems import words
from engine.grounding.units import MAX_QUOTE_CHARS, bounded, evidence_units, is_head_row, located, split_units

if TYPE_CHECKING:
    import numpy as np

Embed = Callable[[list[str]], "np.ndarray"]  # Embedder.encode: L2-normalised float32 rows

# Calibrated on the demo handbook (EN and FR) with all-MiniLM-L6-v2, the embedder of the
# time: questions the documents answer scored 0.79-0.95 (close paraphrases 0.5-0.65),
# questions they do not answer 0.10-0.59. The default embedder is now multilingual-e5-small;
# these thresholds were not re-fitted to its scores: bench/bench_qa.py and
# bench/bench_reports.py measure what they give with it (BENCHMARKS.md).
LEXICAL_WEIGHT = 0.5
FIGURE_BONUS = 0.05
MIN_SCORE = 0.62
# The kind of answer the question asks for (engine/grounding/answer_kinds.py) weighs more
# than a loose embedding similarity: a sentence without a name cannot answer "who".
KIND_ADJUST: dict[str, float] = {"match": 0.25, "any": 0.0, "other": -0.05, "none": -0.3}
CONSTRAINT_MISS = -0.3  # the passage is not about the year or month the question names
TOP_PASSAGE_BONUS = 0.05  # the search ranked this unit's passage first: passages rank better than sentences
CONFIDENT_CLOSENESS = 0.7  # below it, a quote is shown as the closest passage found, with a warning
COMMON_NAME_UNITS = 3
SEMANTIC_ALONE_PENALTY = 0.05  # a close paraphrase that shares no word still fits: score = similarity - this
MAX_EMBEDDED_UNITS = 48  # units sent to the embedding model, best lexical first
REASON_BONUS = 0.08  # a reason asked: a sentence that gives one ("driven by", "due to") over one that states the change
FULL_BONUS = 0.2  # a figure asked: a sentence naming every word of the question but its years and asking words
RESTATED_BONUS = 0.15  # "How is the inventory purchased?": a sentence that says "the inventory is purchased …"
PART_PENALTY = 0.1  # a figure asked of X: a sentence giving what X included, below one giving X
METHOD_BONUS = 0.08  # a method asked: a sentence that gives one ("using", "based on") over one that names the figure

# A sentence that opens on what the one before it said ("The increase was mainly driven by …") is read with it.
_CONTINUES = re.compile(
    r"^\W*(?:the|this|these|that|such|it|cette|ces|ceci|cela)\s+(?:(?:\w+\s+)?(?:increases?|decreases?|changes?|"
    r"growth|declines?|improvements?|reductions?|rises?|hausses?|baisses?|augmentations?|diminutions?|variations?)\b"
    r"|(?:was|were|is|are|reflects?|reflected|resulted|s'explique)\b)"
)


def continues(sentence: str) -> bool:
    """Whether ``sentence`` opens on what the one before it said ("The increase was mainly driven by …")."""
    return _CONTINUES.match(fold(sentence)) is not None


# "The remaining increase was principally the result of …": the rest of a change whose main cause the sentence
# before gives; it answers "what caused the increase" only read with that sentence.
_REMAINDER = re.compile(
    r"^\W*(?:the|a)\s+(?:remaining|remainder of the|rest of the|balance of the|other)\s+(?:\w+\s+)?"
    r"(?:increases?|decreases?|changes?|growth|declines?)\b|^\W*(?:le reste|le solde) de (?:la|l')"
)
# "How is the inventory purchased?", "When are trade payables paid?": a question on a passive
# clause, which the sentence answering it states ("The inventory is purchased under …")
_PASSIVE_ASKED = re.compile(
    r"^\W*(?:how|why|when|where|in what way)\s+(?:is|are|was|were|has|have|had)\s+(?:(?:the|our|its|their)\s+)?"
    r"(.+?)\s+(?:been\s+)?([a-z]+(?:ed|en)|paid|made|held|sold|built|set|done|kept|met|bought|raised)\b"
)
_BE = r"(?:is|are|was|were|be|been|being)"
_WORD_RE = re.compile(r"[a-z0-9]+")
_PART_OF = re.compile(r"\b(?:included|includes|including)\s+(?:approximately\s+|about\s+)?[$€£]?\s?\d")
_PART_ASKED = re.compile(r"(?i)\b(?:includ\w*|related to|relating to|of which|portion|part)\b")
_LABEL_MARK = re.compile(r"\((\d{1,2})\)\s*$")  # "Service delivery costs(1)"
_NOTE_OPENING = re.compile(r"\s*\((\d{1,2})\)\s+[A-Za-z]")  # "(1) Include cost of equipment sold"
_TOOL_FAILURES = ("Error:", "Blocked:", "Not run:")  # what the engine writes when a tool did not answer
_ASKS_FIGURE = re.compile(
    r"(?i)\b(how\s+(?:much|many|long|often|old)|what\s+(?:is|was|are|were)\s+the\s+(?:amount|rate|number|total|"
    r"share|percentage|price|cost|cap|limit|budget|target|margin|revenue)|combien|quel(?:le)?s?\s+(?:est|sont|était)?"
    r"\s*(?:le|la|les|l['’])?\s*(?:montant|taux|nombre|total|part|pourcentage|prix|coût|plafond|budget|objectif|"
    r"marge|chiffre)|quel\s+montant|when|what\s+date|quand|quelle\s+date|percent|pour\s?cent|ratio|average|moyenne|"
    r"sum|somme|total)\b|%|\d\s*[-+*/x×÷^]\s*\d"
    r"|(?:19|20)\d\d\W+respectively\b|\brespective\b(?=.*\b(?:19|20)\d\d)"  # "… for 2019 and 2018 respectively"
)
# the words that ask for a figure, which its sentence need not write ("3% of our net sales" answers "what percentage")
_ASKED_ONLY = frozenset(words("percentage percent proportion share amount value much many number total"))
FULL_WORDS = 3  # words a question's subject needs before a sentence naming them all is taken as its own


def asks_for_figure(question: str) -> bool:
    return bool(_ASKS_FIGURE.search(question)) and not asks_for_words(question)


def lexical_shares(question: set[str], units: list[set[str]]) -> list[float]:
    """Share of the question's words (weighted by rarity among the units) each unit holds."""
    if not question:
        return [0.0] * len(units)
    df = Counter(w for unit in units for w in unit & question)
    n = len(units) + 1
    weight = {w: math.log(1 + n / (1 + df[w])) for w in question}
    total = sum(weight.values())
    return [sum(weight[w] for w in unit & question) / total for unit in units]


def _preface(unit: Unit, language: str, confident: bool = True) -> str:
    if unit.computed and not unit.source:
        return say("preface_computed", language, tool=unit.tool)
    key = ("preface" if confident else "unsure_preface") + ("_location" if unit.location else "")
    return say(key, language, source=unit.source or unit.tool, location=unit.location)


class UnitScore(BaseModel):
    score: float  # the rank key: closeness, then the answer's kind, constraints and the passage's rank
    closeness: float  # the embedding similarity (rescaled), or word overlap without a model
    fit: Fit
    constraints_met: bool
    needs_computation: bool = False  # a total, an average or an extreme asked of a unit no tool computed

    @property
    def confident(self) -> bool:
        """Close to the question, holding the kind of answer it asks for, about the years it names."""
        right_kind = self.fit in ("match", "any") and self.constraints_met and not self.needs_computation
        return self.closeness >= CONFIDENT_CLOSENESS and right_kind


def _common_names(question: str, units: list[Unit]) -> frozenset[str]:
    """Capitalised pairs that recur in the evidence or echo the question: a company, a place, not an answer."""
    counts = Counter(name for unit in units for name in names_in(unit.text))
    asked = fold(question)
    return frozenset(n for n, c in counts.items() if c >= COMMON_NAME_UNITS or any(w in asked for w in fold(n).split()))


def _plain(text: str) -> str:
    """Folded words only, one space apart: a heading that is the question, whatever its punctuation."""
    return " ".join(re.findall(r"\w+", fold(text)))


def _as_read(unit: Unit) -> str:
    """A unit as it is ranked: a sentence that names no year with the year its paragraph
    is about ("2025: Gross margin was 38.6%."), as a reader of the paragraph takes it."""
    return f"{unit.period}: {unit.text}" if unit.period else unit.text


def _row_notes(asked: set[str], units: list[Unit]) -> frozenset[str]:
    """The footnote marks of the table rows whose label the question names whole
    ("Service delivery costs(1)" for "What is included in Service delivery costs?"): the
    note that mark opens says what the row includes, which its cells do not."""
    marks = set()
    for unit in units:
        lines = unit.text.strip().split("\n")
        if len(lines) != 2 or not lines[1].startswith("|"):
            continue
        label = lines[1].strip("| ").split("|", 1)[0]
        mark = _LABEL_MARK.search(label)
        own = words(_LABEL_MARK.sub(" ", label))
        if mark and own and own <= asked:
            marks.add(mark.group(1))
    return frozenset(marks)


def rank_units(question: str, units: list[Unit], embed: Embed | None) -> list[UnitScore]:
    """Every unit's score for ``question`` (closeness 0 for units not sent to the model)."""
    q_words = words(question)
    read = [_as_read(u) for u in units]
    unit_words = [words(text) for text in read]
    lexical = lexical_shares(q_words, unit_words)
    wants_figure = asks_for_figure(question)
    semantic = [0.0] * len(units)
    if embed is not None and units:
        import numpy as np  # imported here: loading the package costs nothing until a quote is ranked

        order = sorted(range(len(units)), key=lambda i: -lexical[i])[:MAX_EMBEDDED_UNITS]
        encode_query = getattr(embed, "query", None)  # an asymmetric model encodes questions apart
        if encode_query is not None:
            asked = np.asarray(encode_query([question]), dtype=np.float32)[0]
            vectors = np.asarray(embed([read[i][:MAX_QUOTE_CHARS] for i in order]), dtype=np.float32)
        else:
            both = np.asarray(embed([question] + [read[i][:MAX_QUOTE_CHARS] for i in order]), dtype=np.float32)
            asked, vectors = both[0], both[1:]
        sims = vectors @ asked
        low, high = getattr(embed, "similarity_range", (0.0, 1.0))  # a model whose cosines sit in a narrow band
        sims = np.clip((sims - low) / (high - low), 0.0, 1.0) if (low, high) != (0.0, 1.0) else sims
        for i, sim in zip(order, sims, strict=True):
            semantic[i] = float(sim)
    compact_question = question.replace(" ", "")
    asked = _plain(question)
    kind = answer_kind(question)
    aggregate = aggregate_asked(question) is not None
    named = {m.group(0) for m in NAMED_AGGREGATE.finditer(asked)}  # "the cumulative amount of …" a unit may write
    about_table = asks_about_table(question)
    common = _common_names(question, units) if kind == "person" else frozenset()
    words_asked = asks_for_words(question)
    notes = _row_notes(q_words, units) if words_asked else frozenset()
    part_asked = bool(_PART_ASKED.search(question))
    reason = words_asked and bool(REASON_ASKED.search(fold(question)))
    method = bool(METHOD_ASKED.search(fold(question)))
    restated = _restatement(question)
    full = q_words - _ASKED_ONLY - {w for w in q_words if w.isdigit()}
    full = full if len(full) >= FULL_WORDS else frozenset()
    out = []
    for i, unit in enumerate(units):
        if embed is None:
            score = closeness = lexical[i]
        else:
            lexical_weight = getattr(embed, "lexical_weight", LEXICAL_WEIGHT)  # words mislead across languages
            blended = (1 - lexical_weight) * semantic[i] + lexical_weight * lexical[i]
            score = max(blended, semantic[i] - SEMANTIC_ALONE_PENALTY)
            closeness = semantic[i]
        unit_fit = fit(kind, unit.text, common, unit.computed)
        names_all = bool(full) and full <= unit_words[i]  # every word asked but its years and asking words
        met = constraints_met(question, " ".join((read[i], unit.source or "", located(unit.location)[0])))
        if not met and (words_asked or names_all) and not years_in_order(read[i]):
            met = True  # a reason, a definition, or a sentence naming every word asked, with no year: its period
        if score > 0:
            score += KIND_ADJUST[unit_fit] + (0.0 if met else CONSTRAINT_MISS)
            folded = fold(unit.text) if reason or method or restated is not None else ""
            if reason and REASON_GIVEN.search(folded) and not _REMAINDER.match(folded):
                score += REASON_BONUS
            if method and METHOD_GIVEN.search(folded):
                score += METHOD_BONUS
            if restated is not None and restated.search(folded) and (not method or METHOD_GIVEN.search(folded)):
                score += RESTATED_BONUS  # "how were X estimated?": not "X were estimated at the grant dates"
            if unit_fit == "any" and wants_figure and extract_figures(unit.text):
                score += FIGURE_BONUS
            if not words_asked and names_all and extract_figures(unit.text):
                score += FULL_BONUS  # "Egg products accounted for … 3%" over "shell egg sales made up … 97%"
            if unit.rank == 0:
                score += TOP_PASSAGE_BONUS
            if part_asked is False and _PART_OF.search(unit.text):
                score -= PART_PENALTY  # "X included $211,000 … related to the ESPP": a part of X, not X
        if about_table and introduces_table(unit.text):
            score = closeness = max(score, 1.0)  # "… is as follows:": the report's own words on what its table shows
            unit_fit, met = "any", True
        if asked and unit.location and _plain(unit.location.rsplit(">", 1)[-1]) == asked:
            score = closeness = max(score, 1.0)  # the section whose heading is the question answers it
            unit_fit, met = "any", True
        if unit.computed and " = " in unit.text:  # the question asks for this very computation
            expression = unit.text.rsplit(" = ", 1)[0].replace(" ", "")
            if len(expression) > 1 and expression in compact_question:
                score = closeness = max(score, 1.0)
                unit_fit, met = "any", True
        if notes and (mark := _NOTE_OPENING.match(unit.text)) and mark.group(1) in notes:
            score = closeness = max(
                score, 1.0
            )  # "(1) Include cost of equipment sold, …" of "Service delivery costs(1)"
            unit_fit, met = "any", True
        computation = aggregate and not unit.computed and not any(n in _plain(unit.text) for n in named)
        out.append(
            UnitScore(
                score=score, closeness=closeness, fit=unit_fit, constraints_met=met, needs_computation=computation
            )
        )
    return out


def _restatement(question: str) -> re.Pattern[str] | None:
    """What a sentence answering a question on a passive clause writes: its subject's last
    word, a form of "be" and the participle ("inventory is purchased", "payables are
    generally paid"); None for another question."""
    match = _PASSIVE_ASKED.match(fold(question))
    if match is None:
        return None
    subject = _WORD_RE.findall(match.group(1))
    if not subject:
        return None
    last, participle = re.escape(subject[-1]), re.escape(match.group(2))
    return re.compile(rf"\b{last}\s+(?:\w+\s+){{0,3}}?{_BE}\s+(?:\w+\s+){{0,2}}?{participle}\b")


_INTRO_WORDS = frozenset(
    words("as follows following table below presented summarized summarised shown set out consist consists consisted "
          "comprise comprises comprised include includes included thousands millions billions dollars components "
          "details summary breakdown")
)  # fmt: skip


def best_quotes(
    question: str, evidence: list[Evidence], embed: Embed | None, *, language: str = "en", limit: int = 1
) -> list[Quote]:
    """The evidence units that best answer ``question``, verbatim, best first: at most
    ``limit``, each above the fit threshold (empty when nothing fits)."""
    usable = [ev for ev in evidence if not ev.text.lstrip().startswith(_TOOL_FAILURES)]
    if asks_for_words(question):  # per passage: the passages of one search share its number
        units = [u for ev in usable for u in _with_continuations(evidence_units(ev), without_engine_notes(ev.text))]
    else:
        units = split_units(usable)
    if not units:
        return []
    scored = rank_units(question, units, embed)
    # A unit without the kind of answer asked for, or about another year, is never quoted:
    # "not found", with what was searched, says more than a passage that cannot answer.
    dated = answer_kind(question) == "date"  # "which years does the table cover?" is answered by its head
    # the sentence over a table that only restates the question ("The components of accounts receivable are
    # as follows (in thousands):") gives none of what the table holds: it answers only what the table shows
    bare = not asks_about_table(question)
    asked = words(question) | _INTRO_WORDS
    eligible = [
        i
        for i in range(len(units))
        if scored[i].fit != "none"
        and scored[i].constraints_met
        and (dated or not is_head_row(units[i].text))
        and not (bare and introduces_table(units[i].text) and words(units[i].text) <= asked)
    ]
    ranked = sorted(eligible, key=lambda i: -scored[i].score)
    quotes: list[Quote] = []
    for i in ranked[:limit]:
        if scored[i].score < MIN_SCORE:
            break
        unit = units[i]
        quotes.append(
            Quote(
                text=bounded(unit.text, limit=2 * MAX_QUOTE_CHARS),
                evidence=unit.evidence,
                source=unit.source or unit.tool,
                location=unit.location or "",
                score=round(scored[i].score, 4),
                preface=_preface(unit, language, scored[i].confident),
                confident=scored[i].confident,
                close=scored[i].closeness >= CONFIDENT_CLOSENESS,
                computed=unit.computed and not unit.source,
            )
        )
    return quotes


def _with_continuations(units: list[Unit], text: str) -> list[Unit]:
    """``units`` of one passage (``text``) and, after each sentence that the next one continues
    ("Selling expenses increased by 17%." then "The increase was mainly driven by …"), both read
    as one unit: what the reason is about stands in the sentence before it."""
    out: list[Unit] = []
    for before, unit in zip([None, *units], units, strict=False):
        out.append(unit)
        if (
            before is not None
            and before.end <= unit.start
            and "|" not in before.text + unit.text
            and not text[before.end : unit.start].strip()
            and continues(unit.text)
        ):
            joined = text[before.start : unit.end]
            out.append(
                unit.model_copy(
                    update={"text": " ".join(joined.split()), "start": before.start, "period": before.period}
                )
            )
    return out


def computed_quote(statement: str, evidence: int, tool: str, language: str = "en") -> Quote:
    """A tool's one computed figure with what it is, as the answer."""
    preface = say("preface_computed", language, tool=tool)
    return Quote(text=statement, evidence=evidence, source=tool, score=1.0, preface=preface, computed=True)


def best_quote(question: str, evidence: list[Evidence], embed: Embed | None, *, language: str = "en") -> Quote | None:
    """The evidence unit that best answers ``question``, verbatim, or None when nothing fits.

    ``embed`` is the loaded embedding model's ``encode`` (L2-normalised rows); without it
    only word overlap ranks the units."""
    quotes = best_quotes(question, evidence, embed, language=language, limit=1)
    return quotes[0] if quotes else None


def not_found_message(question: str, evidence: list[Evidence], language: str = "en") -> str:
    """What was searched and that the answer is not there, in the UI language; it repeats
    no figure of its own (only source names the run returned)."""
    names = list(dict.fromkeys(ev.source or ev.tool for ev in evidence if (ev.source or ev.tool)))
    if not names:
        return say("not_found_none", language)
    shown = ", ".join(names[:5]) + (say("not_found_more", language) if len(names) > 5 else "")
    return say("not_found", language, sources=shown)
