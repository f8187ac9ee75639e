"""Whether a figure of an answer is supported by the right cell or sentence, or derived from them.

A figure the evidence states literally is supported when one place holding it is about the question's subject
and period, or about the row and year the answer itself names beside the figure ("1,538 in 2018"). A figure held
only elsewhere is misplaced: the check says where it was found. A figure the evidence does not state is looked for
as a derivation of the figures about the subject. When the question names nothing the evidence can match, literal
figures are judged as before (anywhere in the evidence), and derivations are tried only over a handful of figures.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import engine.grounding.measure as measure
import engine.grounding.written_as as written_as
from engine.grounding.answer_kinds import ALL_SUMMED, asks_table_years, fold
from engine.grounding.beside import CLAUSE_END, POINTS, Beside, is_year, year_of
from engine.grounding.compare import (
    by_magnitude,
    condition_asked,
    extreme_asked,
    extreme_cell,
    meets,
    row_by_year,
    when_asked,
    year_stated,
)
from engine.grounding.dates import MONTH_BEFORE_RE, day_of_date
from engine.grounding.derive import (
    Derivation,
    absolute_asked,
    derive,
    operation_named,
    preferred_ops,
    reversed_ratio,
)
from engine.grounding.evidence_index import EvidenceIndex, Hit, held
from engine.grounding.figures import EVIDENCE_NUMBER_RE, Found, scale_factor
from engine.grounding.initialisms import initialisms_asked, others_named
from engine.grounding.layout import YEAR_RE, Place, content_words, pairs_named, period_pairs
from engine.grounding.measure import AskedMeasure, evidence_words
from engine.grounding.misplaced import misplaced
from engine.grounding.models import Misplaced
from engine.grounding.places import FULL_READ_CHARS, Layout
from engine.grounding.scope import Scope, scope_of
from engine.grounding.totals import is_total_label
from engine.grounding.written_as import SHARE_ASKED, as_change, change_beside_level, in_other_scale, share_of

_ASIDE = re.compile(r"\([^()]*\)")
LITERAL_SHARE = 0.8  # a stated figure must sit in one of the rows closest to the question's words
SMALL_POOL = 12  # with no subject to match, derivations are tried only when the evidence holds this few figures
MAX_DERIVATIONS = 32  # figures of one answer looked for as derivations
QUOTED_WORDS = 4  # an answer quotes a sentence around a figure when its clause has this many words …
ANSWER_WORDS_SHARE = 0.6  # the answer names a row when it writes this share of the row's words beside the figure


@dataclass(slots=True)
class Judgement:
    place: Place | None = None  # the literal place that supports the figure
    derivation: Derivation | None = None
    misplaced: Misplaced | None = None
    extreme: Place | None = None  # "which year … largest?": the row's extreme cell, of another year than the answer's
    unmet: list[Place] | None = None  # "which year … less than 10?": the row's cells that meet it, not the answer's
    uncompared: bool = False  # "which year … largest?" and no row of the evidence holds the years to compare
    headed: frozenset[str] | None = None  # "which years does the table cover?": the years its headers give
    stated: Place | None = None  # the percentage the report states for what is asked, not the answer's


def layout_of(index: EvidenceIndex) -> Layout:
    return index.memo("layout", Layout)


class Support:
    """The support of each figure of one answer to one question, over one evidence index."""

    def __init__(self, index: EvidenceIndex, question: str, answer: str) -> None:
        self.index = index
        self.layout = layout_of(index)
        self.scope: Scope = scope_of(question, self.layout)
        self.answer, self.question = answer, question
        self._tries = 0
        self.cuts = [m.span() for m in CLAUSE_END.finditer(answer)]  # clause ends, once per answer
        strong = self.scope.strong
        sentences = {(p.evidence, p.unit) for p in strong if p.kind == "text" and p.unit}
        self.ops = preferred_ops(
            question,
            [p.label for p in strong if p.kind == "cell"],
            [index.texts[pos][a:b] for pos, (a, b) in sentences],
        )
        ratio = "ratio" in self.ops and measure.RATIO_ASKED.search(question)
        # "the change in X between …", "how much did X increase": a figure of change; "what changed?" asks no one figure
        change = self.ops in (("difference",), ("percent_change", "difference")) and bool(
            measure.CHANGE_ASKED.search(fold(question))
        )
        computed = "average" if self.ops == ("average",) else "ratio" if ratio else "change" if change else None
        self.computed = "hypothetical" if measure.HYPOTHETICAL.search(fold(question)) else computed
        # "what is the percentage of the loan that is outstanding": a share of what the question names
        self.share = (
            content_words(question) if self.ops[:1] == ("percentage",) and SHARE_ASKED.search(fold(question)) else None
        )
        # "What is the authorized common stock?" asks a level: "increase by 2,000,000" is no support for it
        self.level = not self.ops and not content_words(question) & measure.CHANGE_NAMED
        self.unrevised = bool(measure.UNREVISED.search(fold(question)))
        self.all_summed = self.ops[:1] == ("sum",) and bool(ALL_SUMMED.search(fold(question)))
        best = self.scope.score(self.scope.best) if self.scope.best is not None else 0.0
        self._literal_bar = max(self.scope.bar, LITERAL_SHARE * best)
        self.extreme = extreme_asked(question)
        self.magnitude = by_magnitude(question)
        self.condition = condition_asked(question) if self.extreme is None else None
        self.table_years = asks_table_years(question)
        self.when = self.extreme is None and self.condition is None and when_asked(question, answer)
        self._pairs = period_pairs(answer)  # "2017/2019": a period the evidence must name as such
        # "2018, 48,762: highest Total (report.md, Total, 2019 and 2018)": a year in parentheses cites, it is no answer
        self._asides = [m.span() for m in _ASIDE.finditer(answer)]
        self._keys = self.scope.subject_keys()
        self.initials = initialisms_asked(question, index.texts)  # "the U.K. facility": not the U.S. one's sentence
        self.asked = AskedMeasure.of(question)  # "each continent", "the annual interest cost savings"
        self._unnamed = self.asked.of_row and self.asked.unnamed(index.memo("written", evidence_words))
        self._sentence_words: dict[tuple[int, tuple[int, int]], frozenset[str]] = {}

    def _years(self, item: Found) -> set[str]:
        """The years a year of the answer names: "2018", or both of "2018/2019" ("2018" alone is of 2017/18 too)."""
        return set(self._pairs.get(item.start, (year_of(item),)))

    def judge(self, item: Found, hit: Hit | None, *, operand: bool = False) -> Judgement | None:
        """The figure's support; None when this check does not place it (a date, a year, a
        figure the index holds (``hit``) somewhere the layout has no place for, such as a
        label): the caller judges it as before. The day of a date ("September 29") supports
        nothing when the question has a scope."""
        if self.extreme is not None and is_year(item, frozenset(), self.layout) and not self._aside(item):
            # "which year had the lowest percentage difference in basic and diluted EPS?": the extreme of a
            # computation, no row's: no row says which year ("the average price", "the total revenue" name a row)
            computed = operation_named(self.ops) and self.ops[0] not in ("sum", "average")
            winner = None if computed else extreme_cell(self.scope, self.extreme, self.magnitude)
            if winner is not None:  # the year is the answer: it must name the row's extreme, and only it
                named = [p for p in (row_by_year(self.scope) or {}).values() if self._years(item) <= set(p.years)]
                return Judgement(place=winner) if named == [winner] else Judgement(extreme=winner)
            return Judgement(uncompared=True)  # a year found anywhere says nothing of which is largest
        if self.condition is not None and is_year(item, frozenset(), self.layout) and not self._aside(item):
            by_year = row_by_year(self.scope)
            if by_year is not None:  # the year is the answer: its cell must meet the condition
                met = [p for p in by_year.values() if meets(p, self.condition)]
                holding = [p for p in by_year.values() if self._years(item) <= set(p.years)]
                if holding and all(p in met for p in holding):
                    return Judgement(place=holding[0])
                return Judgement(unmet=met)
            return Judgement(uncompared=True)
        if self.table_years and is_year(item, frozenset(), self.layout) and not self._aside(item):
            headed = self.index.memo("header_years", lambda index: layout_of(index).header_years())  # once per evidence
            if headed and year_of(item) not in headed:
                return Judgement(headed=headed)  # a year of a row label or a sentence: not one the table covers
        if self.when and is_year(item, frozenset(), self.layout) and not self._aside(item):
            if year_stated(self.scope.terms, self.index.evidence, year_of(item)) is False:
                return Judgement()  # "When has IMFT discontinued production of NAND?": "In 2018, IMFT discontinued …"
        if not item.dates and (month := MONTH_BEFORE_RE.search(self.answer, max(0, item.start - 16), item.start)):
            # "June 30" answers a date: a 30 anywhere is no support, "June 30" written in the evidence is
            day = re.compile(rf"(?i)(?<!\w){re.escape(month.group(0).strip())}\.?[\s·]+{re.escape(item.text)}(?!\d)")
            return None if any(day.search(text) for text in self.index.texts) else Judgement()
        pair = self._pairs.get(item.start)
        if pair is not None and pair not in self.index.memo("period_pairs", lambda index: pairs_named(index.texts)):
            return Judgement()  # "2017/2019" when the evidence's periods are 2017/2018 and 2018/2019
        if item.dates or is_year(item, self.scope.years, self.layout):
            return None
        if self.asked.share_price and Beside(self.answer, self.cuts, item).scale >= 1_000_000:
            return Judgement()  # "the share price of the warrants exercised": "$3.0 million" is no price of one share
        if not self.scope.active:  # nothing to place it against: found anywhere, as before
            if hit is not None and self._names_row(hit) and not self.layout.at(hit.evidence, hit.start):
                return Judgement()
            changes = self._only_as_change(item) if hit is not None else []
            unmeasured = self._unmeasured(item) if hit is not None and not changes and not operand else []
            if hit is not None and not changes and not unmeasured and not self._share_unmet(item):
                return None
            derivation = self._derive(item)
            if derivation is None and (changes or unmeasured):
                return Judgement(misplaced=misplaced(self, item, changes or unmeasured))
            return Judgement(derivation=derivation)
        beside = Beside(self.answer, self.cuts, item)
        literal: list[Place] = []
        for place in self._places(item):  # exact values first; read one row or sentence at a time
            if self._accepts(place, beside, operand=operand):
                return Judgement(place=place)
            literal.append(place)
        if hit is not None and not literal and held(self.index, hit):
            return Judgement() if self._names_row(hit) else None
        if item.kind == "percent" and (stated := self.scope.stated_percent()) is not None:
            return Judgement(stated=stated)  # the report's own percentage for what is asked: no derived one instead
        derivation = self._derive(item)
        if derivation is not None:
            return Judgement(derivation=derivation)
        if literal:
            return Judgement(misplaced=misplaced(self, item, literal))
        return Judgement()

    def _names_row(self, hit: Hit) -> bool:
        """A computation asked, and the figure is part of a row's label, no cell: "what percent higher
        is fair value than carrying value?" is not answered by the "3.50%" of "3.50% Notes due 2024"."""
        if not operation_named(self.ops) or self.layout.of(hit.evidence).row_at(hit.start) is None:
            return False
        text = self.index.texts[hit.evidence]
        before = text[text.rfind("\n", 0, hit.start) + 1 : hit.start].lstrip().removeprefix("|")
        return "|" not in before  # in the row's first cell, its label

    def _as_change(self, p: Place) -> bool:  # "$ Difference | 9,577,144", "increased $9.6 million"
        return self.names(p, "change") if p.kind == "cell" else as_change(self.index.texts[p.evidence], p)

    def _aside(self, item: Found) -> bool:
        return any(a <= item.start < b for a, b in self._asides)

    def _places(self, item: Found) -> Iterator[Place]:
        """The places holding the figure, the closest values first. A sentence that names no
        year is taken as it stands when only the period is checked: nothing of it is parsed."""
        spots = [spot for r in item.readings for spot in self.index.around(r.value, r.tolerance, kind=item.kind)]
        seen: set[int] = set()
        for pos, start in dict.fromkeys(spots):
            if day_of_date(self.index.texts[pos], start):
                continue  # "31 December 2019" states no 31
            layout = self.layout.of(pos)
            if not self.scope.subject_active and not layout.result and layout.row_at(start) is None:
                span = layout.sentence_at(start)
                if span is not None and not YEAR_RE.search(layout.text, *span):
                    written = EVIDENCE_NUMBER_RE.match(layout.text, start)  # its scale word: "$1.7 billion"
                    scale = scale_factor(written.group("scale")) if written else 1
                    yield Place(value=0.0, scale=scale, text="", evidence=pos, start=start, end=start, kind="text",
                                unit=span)  # fmt: skip
                    continue
            for place in self.layout.at(pos, start):
                if id(place) not in seen:
                    seen.add(id(place))
                    yield place

    def _accepts(self, place: Place, beside: Beside, *, operand: bool = False) -> bool:
        """``operand``: a figure of a derivation the answer writes, which may add up or
        compare other rows than the one the question names ("total current assets" as the
        sum of its items); its period and scale still count, and its footnote names its row."""
        if not operand and not self.measured(place):
            return False
        if place.kind == "result":  # the engine's computation
            return True
        if place.percent and beside.points():
            return False  # "0.4 pts" is a change in percentage points, not the "(0.4%)" of a percent change
        if beside.scale != 1 and in_other_scale(self.index.texts, place, beside.scale):
            return False  # "8 thousand" is not "$7.8 million", nor "$1.7 billion" a sentence's "$1.75" (per share)
        if not self.scope.period_ok(place) and not self.scope.period_ok(place, beside.years()):
            return False
        if not operand and self.stated_for_computation(place):
            return False
        if self.share and place.kind == "text" and place.percent and not operand:
            if not share_of(self.index.texts[place.evidence], place, self.share):
                return False  # "a 0% interest loan" states the loan's rate, not the share of it outstanding
        if self.level and place.kind == "text" and not operand and as_change(self.index.texts[place.evidence], place):
            # "increase by 2,000,000 the number of shares authorized" is no number authorized: unless the answer
            # writes it as the change it is too ("LinkedIn operating loss increased $63 million to $987 million")
            return change_beside_level(self.answer, beside.item.start) and self._about_subject(place, beside)
        if place.kind == "text" and not (operand or place.percent) and self.whole_of_part(place):
            return False  # "assets totaled $17.7 billion, which consisted of 87.4% fixed maturities": not theirs
        if self.ops[:1] == ("percent_change",) and place.kind == "text" and place.percent and not operand:
            if not self._as_change(place):  # "what percent higher is A than B?": "notes of 3.50%" is a rate, no change
                return False
        if self.computed == "change" and place.kind == "text" and not (operand or place.percent):
            if written_as.level_beside_change(self.index.texts[place.evidence], place):  # "increased $9.6 million to"
                return False
        if place.kind == "text" and not operand and not self._about_subject(place, beside):
            return False  # "Media advertising revenues decreased by 15%" states nothing of VAS revenues
        if (
            self.unrevised
            and not operand
            and not (place.words if place.kind == "cell" else self._words_of(place)) & measure.REVISION_NAMED
        ):
            return False  # the table's figure after the revision the question looks behind
        if place.kind != "cell" or not self.scope.subject_active or operand:
            return True
        if (
            self.scope.unasked_comparison(place)
            or self.scope.other_span(place)
            or self.scope.other_column(place)
            or self.all_summed
            and not (place.total or is_total_label(place.label))
        ):
            return False  # a "2019 vs. 2018" column, another span due or column; one cell for "the sum of all X"
        if self.scope.score(place) >= self._literal_bar or self.scope.named(place):
            return True
        named = place.words & beside.words()
        return bool(place.words) and len(named) >= ANSWER_WORDS_SHARE * len(place.words)

    def whole_of_part(self, place: Place) -> bool:
        return written_as.whole_of_part(self.index.texts[place.evidence], place, self.scope.terms.keys())

    def _only_as_change(self, item: Found) -> list[Place]:
        """The sentences holding the figure when a level is asked and each writes it as a change."""
        places = [] if not self.level or change_beside_level(self.answer, item.start) else list(self._places(item))
        changed = all(p.kind == "text" and as_change(self.index.texts[p.evidence], p) for p in places)
        return places if changed else []

    def _share_unmet(self, item: Found) -> bool:
        """Whether a share is asked and every sentence that writes this percentage measures something else."""
        if not self.share:
            return False
        places = [p for p in self._places(item) if p.kind == "text" and p.percent]
        return bool(places) and not any(share_of(self.index.texts[p.evidence], p, self.share) for p in places)

    def stated_for_computation(self, place: Place) -> bool:
        """Whether a computation is asked ("the ratio of A to B", "the change in A") and ``place`` states a figure as
        it stands, in a row or sentence that does not name the computation: no support; computed, or unsupported. But
        a column where the row the question names is 100% ("Revenue | 100%") states shares of it."""
        if not self.computed or place.kind not in ("cell", "text") or self.names(place, self.computed):
            return False
        return not (self.computed == "ratio" and place.percent and self.scope.of_hundred(place))

    def names(self, place: Place, computed: str) -> bool:
        """Whether the row (label and column) or sentence of ``place`` names the computation."""
        named = measure.COMPUTATION_NAMED[computed]
        return bool((place.words if place.kind == "cell" else self._words_of(place)) & named)

    def _words_of(self, place: Place) -> frozenset[str]:
        """A sentence's content words, read once per answer; a cell's are its table's labels and headers."""
        if place.kind == "cell":
            return self.layout.table_words(place.evidence)
        if (key := (place.evidence, place.unit)) not in self._sentence_words:
            self._sentence_words[key] = content_words(self.index.texts[place.evidence][place.unit[0] : place.unit[1]])
        return self._sentence_words[key]

    def _read(self, place: Place) -> tuple[frozenset[str], str, bool]:
        """What the measure rules read of a place: its words, as written ("Granted Number of RSUs", a sentence, a
        result's line), and whether its figure is written bare."""
        text = self.index.texts[place.evidence]
        written = f"{place.label} {place.column}" if place.kind == "cell" else text[place.unit[0] : place.unit[1]]
        return (place.words if place.kind == "cell" else self._words_of(place)), written, place.plain(text)

    def counted(self, place: Place) -> bool:
        """Whether ``place`` is a count where a value is asked: "1,583,616 (Granted, Number of RSUs)"."""
        words, written, plain = self._read(place)
        return self.asked.counted(place.kind, words, written, plain=plain)

    def measured(self, place: Place) -> bool:
        if place.kind != "text" and self._unnamed:
            return False  # "the return on total assets", named nowhere: no cell nor computed line states it
        ev = self.index.evidence[place.evidence]  # a passage is also named by its source: a tool "sales", "Hotels"
        named = (ev.source, ev.location, ev.tool) if self.asked.measure else ()
        titled = content_words(" ".join(x for x in named if x))
        words, written, plain = self._read(place)
        return self.asked.measures(place.kind, words, written, titled, plain=plain)

    def _unmeasured(self, item: Found) -> list[Place]:
        """The places stating the figure when every one measures something else than what is asked, or states it
        as it stands where a computation is asked ("the ratio of A to B": A's "$16 million"); else none."""
        places = list(self._places(item)) if self.asked.any() or self.computed else []
        refused = all(not self.measured(p) or self.stated_for_computation(p) for p in places)
        return places if places and refused else []

    def _about_subject(self, place: Place, beside: Beside) -> bool:
        """A sentence states a figure of the subject when it names the words of the row most
        about the question that the question names ("VAS"); any sentence, when none; and the
        sentence the answer quotes around the figure (its clause's words are the sentence's)."""
        if others_named(self.index.texts[place.evidence][place.unit[0] : place.unit[1]], self.initials):
            return False  # a sentence about the U.S. facility, for the U.K. one
        if not self._keys:
            return True
        words = self._words_of(place)
        if any(key <= words for key in self._keys):
            return True
        quoted = beside.words()
        return len(quoted) >= QUOTED_WORDS and len(quoted & words) >= ANSWER_WORDS_SHARE * len(quoted)

    def _derive(self, item: Found) -> Derivation | None:
        self._tries += 1
        if self._tries > MAX_DERIVATIONS:  # an answer of hundreds of unstated figures: the rest stay unsupported
            return None
        strong, pool = self.scope.strong, self.scope.pool
        if not strong and not self.scope.active:
            if self.layout.size() > FULL_READ_CHARS:
                return None
            candidates = [p for p in self.layout.every() if p.kind != "result"]
            if len(candidates) > SMALL_POOL:
                return None
            strong = pool = candidates
        ops = self.ops
        if POINTS.match(self.answer, item.end):  # percentage points: a difference of two percentages
            strong, pool = [p for p in strong if p.percent], [p for p in pool if p.percent]
            ops = ("difference",)
        derived = derive(item.readings, strong, pool, ops=ops, percent=item.kind == "percent",
                         scaled_answer=any(c.isalpha() for c in item.text), amount=item.kind == "amount")  # fmt: skip
        if derived is not None and self.computed == "change" and any(map(self._as_change, derived.operands)):
            return None  # a change asked: a level less the change ("24.4 − 9.6" gives 2018's 14.8) is no change
        if derived is not None and self.computed == "ratio" and derived.op not in ("ratio", "percentage"):
            return None  # "the ratio of the net income increased to the net revenues": no difference is a ratio
        if derived is not None and derived.op == "percent_change" and absolute_asked(self.question):
            return None  # "the absolute percentage change" of a rate: 2.0 − 1.2, not (2.0 − 1.2) / 1.2
        base = derived.operands[-1] if derived is not None and derived.op in ("ratio", "percentage") else None
        whole = written_as.whole_asked(self.question) if base is not None else frozenset()
        if base is not None and whole and not whole & (held := self._words_of(base)):
            if base.kind == "text" or held & (set(self.scope.terms) - whole):  # a table of the part, not the whole
                return None  # "as a percentage of total revenue": not 119 / 1,501 employees, nor a G&A table's cells
        if derived is not None and self.computed == "ratio" and derived.op == "ratio" and len(derived.operands) == 2:
            return None if reversed_ratio(self.question, *derived.operands) else derived  # B to A, for A to B
        return derived
