"""What a question is about: its subject words and its period, and which places of the
evidence match them.

A place matches the subject by the content words its row label and column header (or
its sentence) share with the question; generic words ("total", "net", "other") count
half. The period is the years the question names, a range ("2017-2019", "from 2017 to
2019") filled in. Either constraint applies only when the evidence can meet it: a
question whose words match no row, or whose years no table or sentence holds, is
checked as before, without new flags.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.grounding.answer_kinds import fold, years_named
from engine.grounding.derive import YEAR_AVERAGE, asks_change
from engine.grounding.figures import NUMBER_WORDS
from engine.grounding.layout import Place, content_words, years_in
from engine.grounding.periods_due import AFTER_YEAR, Span, span_due, spans_due
from engine.grounding.places import FULL_READ_CHARS, Layout
from engine.grounding.report_table import COMPARISON_COLUMN

# Words that say what to compute or how to ask, not what about (EN and FR, stemmed like the places).
_ASKING = content_words(
    """change changes changed difference differ increase increased decrease decreased growth grew percentage percent
    average mean ratio proportion share sum value values amount amounts year years fiscal period respectively
    nominal expressed constitution compared compare between during over from than company group figure figures
    calculate calculated much many what which were
    variation evolution moyenne pourcentage proportion part somme montant annee annees exercice entre depuis valeur"""
)
GENERIC = content_words("net other others end beginning balance per number")
_NOT_SUBJECT = GENERIC | content_words("total totals")  # the words a Total row adds say no subject either
_RANGE = re.compile(r"(?<!\d)((?:19|20)\d\d)\s*(?:-|–|to|through|until|and|à|a|au|et)\s*((?:19|20)\d\d)(?!\d)")
_YEAR = re.compile(r"(?:19|20)\d\d")
STRONG_SHARE = 0.6
MIN_SCORE = 0.5  # a place is about the subject when it scores at least this share of the best place
POOL_CELLS = 16
POOL_SENTENCES = 3
STRONG_CAP = 16


# "the cumulative total return for the five year period ended December 31, 2014" (or "for the five years ended"):
# from 2009's figure to 2014's
_PERIOD_ENDED = re.compile(
    r"(?i)\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)[- ]years?(?:[- ]period)? (?:ended|ending|through)\b"
    r"[^?]{0,30}?\b((?:19|20)\d\d)\b"
    # "the cumulative 5-year total stockholder return for X for the period ending 12/29/2018"
    r"|\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)[- ]years?\b[^?]{0,80}?\bperiod (?:ended|ending)\b"
    r"[^?]{0,30}?\b((?:19|20)\d\d)\b"
)
_RETURN = re.compile(r"(?i)\breturns?\b")


@dataclass(slots=True)
class Scope:
    """The question's subject and period, and the places that match them."""

    terms: dict[str, float]  # stemmed subject word → weight
    years: frozenset[str]
    subject_active: bool = False  # some cell matches the subject words
    period_active: bool = False  # some place holds a year the question names
    change_asked: bool = False  # the question asks how a figure moved: a "2019 vs. 2018" column may state it
    due: Span | None = None  # the span of years due the question asks ("between 1 to 3 years"), if any
    bar: float = MIN_SCORE  # the score of a place about the subject
    best: Place | None = None  # the cell most about the subject (for "not Total, 2019")
    strong: list[Place] = field(default_factory=list)  # derivation operands about the subject and period
    pool: list[Place] = field(default_factory=list)  # wider: second operands (a total, another row)
    dated: frozenset[int] = frozenset()  # evidence whose table rows are labelled by a year asked ("2018 | 301")
    _scores: dict[int, float] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return self.subject_active or self.period_active

    def score(self, place: Place) -> float:
        """The weight of the question's words the place holds; for a cell, scaled by the share
        of its row label the question names ("Total" for "total charges" beats "Other charges")."""
        key = id(place)
        if key not in self._scores:
            score = sum(self.terms.get(w, 0.0) for w in place.words)
            if score and place.label_words:
                covered = sum(1 for w in place.label_words if w in self.terms) / len(place.label_words)
                score *= 0.5 + 0.5 * covered
            self._scores[key] = score
        return self._scores[key]

    def named(self, place: Place) -> bool:
        """The question names the cell's whole row label ("Wireless" in "between Wireless and
        High-speed Internet")."""
        return bool(place.label_words) and all(w in self.terms for w in place.label_words)

    def subject_keys(self) -> list[frozenset[str]]:
        """The words a sentence must name to be about the subject, one set per way: those of the
        best row's label the question names, generic ones aside ("VAS" of "VAS revenues"), or the
        whole label of another row the question names ("USD" of "the average USD-INR exchange
        rate", when "Impact of exchange rate" scores higher). None when no row matched."""
        best = self.best
        if not self.subject_active or best is None or best.kind != "cell":
            return []
        keys = [frozenset(w for w in best.label_words if w in self.terms and w not in _NOT_SUBJECT)]
        if not keys[0]:
            return []
        named = (frozenset(p.label_words) - _NOT_SUBJECT for p in self.strong if p.kind == "cell" and self.named(p))
        return list(dict.fromkeys([*keys, *(k for k in named if k)]))

    def other_column(self, place: Place) -> bool:
        """Whether the question names another column of the cell's row, and nothing of the
        cell's own: "the last fiscal year of expiration for domestic-state credits" is not
        that row's "Amount"."""
        best = self.best
        if best is None or place.kind != "cell" or best.kind != "cell" or best.column == place.column:
            return False
        if (best.evidence, best.row) != (place.evidence, place.row):
            return False
        own, other = place.words - place.label_words, best.words - best.label_words  # a heading's words are both's
        return any(self.terms.get(w) == 1.0 for w in other - own) and not (own - other) & self.terms.keys()

    def stated_percent(self) -> Place | None:
        """A percentage the report states in a cell of the row the question names whole, in a
        column the question names ("Interest expense", "Actual" of "the actual percentage change
        in interest expense"): a percentage derived from other figures does not stand in for it. A column
        comparing two periods ("2019 vs. 2018 · Variance in Percent") states a change, which only a change
        asked is."""
        if not self.subject_active:
            return None
        return next(
            (p for p in self.strong if p.kind == "cell" and p.percent and self.named(p)
             and (p.words - p.label_words) & self.terms.keys()
             and not self.unasked_comparison(p)),
            None,
        )  # fmt: skip

    def other_span(self, place: Place) -> bool:
        """Whether ``place`` is a cell of a column due over another span of years than the one
        asked ("Up to 1 year" for "between 1 to 3 years", "3 to 5 years" for "within 5 years")."""
        if self.due is None or place.kind != "cell":
            return False
        span = span_due(place.column)
        return span is not None and span != self.due

    def unasked_comparison(self, place: Place) -> bool:
        """Whether ``place`` is a cell of a column comparing two periods ("2019 vs. 2018 · Variance
        in Percent") while the question asks no change and names none of the column's words."""
        if place.kind != "cell" or self.change_asked or not COMPARISON_COLUMN.search(place.column):
            return False
        return not (content_words(_YEAR.sub(" ", place.column)) & self.terms.keys())

    def of_hundred(self, place: Place) -> bool:
        """Whether the column of ``place`` holds 100% for a row the question names ("Revenue | 100%"):
        its cells are shares of that row."""
        return any(
            p.kind == "cell" and p.percent and p.value == 100 and (p.evidence, p.column) == (place.evidence, place.column)
            and self.named(p) for p in self.pool
        )  # fmt: skip

    def period_ok(self, place: Place, extra: frozenset[str] = frozenset()) -> bool:
        """The place's period is the question's (or one the answer names beside the figure)."""
        if not self.period_active or not place.years:
            return True
        if place.total and not place.label_years and place.evidence in self.dated:
            return True  # the Total of a table whose rows are the years, "As of December 2015": of each year
        # a row labelled by a date ("Jun-2018", issued then) is of that year too, beside its column's
        return bool((place.years | place.label_years) & (self.years | extra))


def asked_years(question: str) -> frozenset[str]:
    years = {y for y in years_named(question) if _YEAR.fullmatch(y)} | years_in(question)  # "FY2019" too
    after = set(AFTER_YEAR.findall(question))  # "due after 2020": "2021 - thereafter", not 2020's own
    years = years - after | {str(int(y) + 1) for y in after}
    for a, b in _RANGE.findall(question):
        lo, hi = sorted((int(a), int(b)))
        if hi - lo <= 10:
            years.update(str(y) for y in range(lo, hi + 1))
    returns = _RETURN.search(question) is not None  # a return's span starts at its base year; a sum's does not
    return frozenset(years | {start for start, _ in periods_ended(question)} if returns else years)


def periods_ended(question: str) -> list[tuple[str, str]]:
    """The first and last year of each span "the N year period ended … YYYY" names: its base year and its end."""
    return [
        (str(int(end) - (int(count) if count.isdigit() else NUMBER_WORDS[count.lower()])), end)
        for count, end in ((a or c, b or d) for a, b, c, d in _PERIOD_ENDED.findall(question))
    ]


def question_terms(question: str) -> dict[str, float]:
    terms = content_words(fold(question)) - _ASKING
    return {w: (0.5 if w in GENERIC else 1.0) for w in terms}


def scope_of(question: str, layout: Layout) -> Scope:
    """The question's scope over ``layout``: which cells and sentences are about its subject and period."""
    years = asked_years(question)
    if len(years) == 1 and asks_change(question) or YEAR_AVERAGE.search(fold(question)):
        # "the change in capitalized interest in 2019": from 2018; "the 2019 average X", an average balance:
        # of 2019 and 2018 ("the change between 2018 and 2019 average X": of 2017 too)
        years |= {str(int(y) - 1) for y in years}
    scope = Scope(
        terms=question_terms(question),
        years=years,
        change_asked=asks_change(question),
        due=due[0] if len(due := spans_due(question)) == 1 else None,
    )
    if not scope.terms and not scope.years:
        return scope
    if scope.years:
        scope.period_active = any(layout.has_year(y) for y in scope.years)
        row_year = re.compile(rf"(?m)^\|?[ \t]*(?:{'|'.join(sorted(scope.years))})\b[^|\n]*\|")
        scope.dated = frozenset(pos for pos, text in enumerate(layout.index.texts) if row_year.search(text))
    found_cells, sentences = layout.with_words(scope.terms)
    cells = [p for p in found_cells if scope.period_ok(p)]
    scored = [(scope.score(p), p) for p in cells]
    top = max((s for s, _ in scored), default=0.0)
    scope.subject_active = top >= MIN_SCORE  # a generic word of a long label alone is no subject
    if scope.subject_active:
        bar = scope.bar = max(MIN_SCORE, STRONG_SHARE * top)
        strong = sorted((sp for sp in scored if sp[0] >= bar or scope.named(sp[1])), key=lambda sp: -sp[0])
        scope.best = strong[0][1]
        scope.strong = [p for _, p in strong[:STRONG_CAP]]
        # a share's other operand: another row the question names whole, a total ("of total sales"), or the
        # row of the year asked ("Fiscal 2019" of "… due in fiscal year of 2019")
        wider = sorted(
            (
                sp
                for sp in scored
                if sp[0] > 0 and (scope.named(sp[1]) or sp[1].total or sp[1].label_years & scope.years)
            ),
            key=lambda sp: -sp[0],
        )
        scope.pool = list(dict.fromkeys([*scope.strong, *(p for _, p in wider[:POOL_CELLS])]))
    elif (
        scope.period_active and layout.size() <= FULL_READ_CHARS
    ):  # no subject word matched: the period's cells, when few
        in_period = [
            p
            for p in layout.every()
            if p.kind == "cell" and ((p.years | p.label_years) & scope.years or p.total and p.evidence in scope.dated)
        ]  # "2018 | 301" and its table's Total
        if len(in_period) <= 8:
            scope.strong = in_period
            scope.pool = list(in_period)
    ranked = []
    for pos, a, b in sentences:  # scored on their text first; only the best few are read
        if scope.period_active and (named := years_in(layout.index.texts[pos][a:b])) and not named & scope.years:
            continue
        folded = layout.folded(pos)[a:b]
        ranked.append((sum(w for stem, w in scope.terms.items() if stem in folded), (pos, a, b)))
    ranked.sort(key=lambda sg: -sg[0])
    groups = []
    for score, (pos, a, b) in ranked[: 2 * POOL_SENTENCES]:
        group = [p for p in layout.sentence(pos, a, b) if scope.period_ok(p)]
        if group and score >= 1.0:
            groups.append((score, group))
    ranked = groups
    chosen = [g for s, g in ranked[:POOL_SENTENCES] if s >= 1.0]
    for group in chosen:
        scope.strong += group[:8]
        scope.pool += group[:8]
    if not scope.active and not chosen:
        scope.strong, scope.pool = [], []
    return scope
