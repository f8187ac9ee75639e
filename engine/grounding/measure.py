"""What a question measures, so that a figure about something else supports nothing.

Five readings of the question, each a reason a figure the evidence does state is no
answer (read on accent-folded text):

- its measure, the head words of "what is the annual interest cost savings by …": a
  sentence that states none of its specific words ("the company redeemed $690 million of
  its 8.75% notes") states another quantity, here the notes the saving is computed from;
  and a measure of a row ("the return on total assets") that the evidence never names is
  stated by no cell or computed line of that row;
- a unit it asks per ("how many destinations does each continent have", "revenue per
  employee"): the figure must be written per that unit, or computed;
- a price per share ("the share price of the warrants exercised"): a figure in millions
  is a total, no price of one share;
- a value ("the value of the RSUs granted"): a count of them ("Number of RSUs") is none;
- the whole a share is asked of ("… what percent of total loans held for sale"): a
  computed share of another row ("in Total commercial mortgages") is of something else.

And the opposite of what it names: a row or a result about a loss does not answer a
question about gains ("net gains from sales" is no "net unrealized loss").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from engine.grounding.answer_kinds import answer_kind, asks_for_words, fold
from engine.grounding.layout import content_words
from engine.grounding.scope import periods_ended
from engine.grounding.stems import word_sequence
from engine.grounding.written_as import whole_asked

if TYPE_CHECKING:
    from engine.grounding.evidence_index import EvidenceIndex

# The words by which a question asks a computation, and by which a row or sentence names one
RATIO_ASKED = re.compile(r"(?i)\b(?:ratio|proportion|rapport)\b|\bdebt[- ]to[- ](?:equity|capital)\b")
# "the unrevised value": the figure before a revision, which a cell of the revised table is not
UNREVISED = re.compile(
    r"\bunrevised\b|\b(?:before|prior to) (?:the )?(?:revision|restatement)\b|\b(?:original|previous)ly reported\b"
)
REVISION_NAMED = content_words("unrevised previously originally reported before prior original")
# A computation few reports state as such: a figure stated for it must be named by its word ("average price").
AVERAGE_NAMED = content_words("average mean moyenne")
RATIO_NAMED = content_words("ratio proportion rapport times")
CHANGE_ASKED = re.compile(
    r"\b(?:the|a|percentage|percent|%)\s+(?:change|difference|increase|decrease|growth|variation)\b|\bhow much\b|\bby how many\b"
    r"|\w\s+(?:increase|decrease|change|growth)\s+(?:in|from|between|of|over)\s+(?:fy\s?)?\d{4}\b"  # "X increase in 2019"
)
CHANGE_NAMED = content_words(
    "change changed changes difference increase increased increases decrease decreased decreases growth grew rise "
    "rose fell fall declined decline variance variation versus vs compared higher lower more less up down reduction "
    "reduced improvement improved hausse baisse ecart progression recul evolution"
)  # a cell or sentence that states a change, not a level
# "assuming a 5% rate of return, what would the earnings be …", "if X were 10% higher, …", "what would X have been
# without the gain": a figure of another world,
# computed; no figure the evidence states answers it, and nothing names it. Not an even split ("assuming each
# continent has the same number of destinations"): a premise of how to divide, which a stated figure per unit meets
_EVEN = r"(?! (?:that )?(?:each|every|all|an? equal|the same|equal)\b)"
HYPOTHETICAL = re.compile(
    rf"^\W*(?:assum(?:e|ing){_EVEN}|if|suppos(?:e|ing))\b|\bassuming\b{_EVEN}|\bwhat would\b[^?]*\b(?:if|without)\b"
)
COMPUTATION_NAMED = MappingProxyType(
    {"average": AVERAGE_NAMED, "ratio": RATIO_NAMED, "change": CHANGE_NAMED, "hypothetical": frozenset()}
)

# "what is the X of …", "what was the X by …": X is what is measured
_HEAD = re.compile(
    r"^\W*(?:during [^,?]+,? |in (?:fiscal )?\d{4},? )?(?:what|how much) (?:is|was|are|were|will be|would be) "
    r"(?:the |an? )?(?P<head>(?:[a-z&'’-]+ ){0,4}?[a-z&'’-]+) (?:of|by|for|in|on|from|during|at|to|between|that|which|"
    r"under|as|when|if|after|before|with|per|each|\?)\b"
)
# "the return on total assets", "the roi of an investment": a measure of a row, computed from it (earnings over
# assets); where the evidence never names it, no cell nor computed line of the row states it
_OF_ROW = re.compile(
    r"^\W*(?:during [^,?]+,? |in (?:fiscal )?\d{4},? )?(?:what|how much) (?:is|was|are|were|will be|would be) "
    r"(?:the |an? )?(?:[a-z&'’-]+ ){0,3}?(?:[a-z&'’-]+ on|ro[aei]c?(?: of| for| on)?)\b"
)
# "the return on investment for the S&P 500 from 2004 to 2006", "the roi … between 2010 and 2011": the growth of
# what was invested over the span, which a percentage change of its row states (no measure of a row's own)
RETURN_OVER_SPAN = re.compile(
    r"\b(?:return on (?:the |an? )?investment|roi|rate of return(?=[^?]*\binvestment\b))\b[^?]*\b(?:from (?:19|20)\d\d to|between (?:19|20)\d\d and) "
    r"(?:[a-z]+ \d{1,2} ?,? )?(?:19|20)\d\d\b"  # "… from 2006 to january 3, 2009": a date's year ends it too
)
# "the percentage cumulative total shareholder return on X for the five year period ended 2014", "the percentage
# return for X for the five years ended 2018": a performance graph's row, from the period's base year (100) to its end
TOTAL_RETURN = re.compile(
    r"\b(?:cumulative (?:total )?|total |percentage (?:cumulative )?)(?:shareholder |stockholder )?returns?\b"
)
_PERCENT_CHANGE_LINE = re.compile(r": percentage change in ")  # a computed percentage change's statement
# Words that name how a figure is put (any figure of the subject may be one), not which quantity it is
_GENERIC = frozenset(
    word_sequence(
        "amount value total number figure sum level balance change increase decrease percentage percent ratio "
        "average annual annually approximate approximately estimated expected difference growth portion share "
        "proportion fiscal year yearly quarterly net gross aggregate combined overall current cumulative "
        "rate impact effect amounts values totals numbers figures dollar dollars million millions billion "
        "movement movements variation evolution trend time period periods longest shortest largest smallest "
        "highest lowest maximum minimum greatest least most first second third last final new old"
    )
)
_TOTAL = frozenset(word_sequence("total"))
_SHARE_IN = re.compile(r": share of .+? in (.+?)(?: \(|$)")  # a computed share's statement: its whole
_PARTICIPLE = re.compile(r"(?<=\w) [a-z]+ed\b.*$")
_PER = re.compile(
    r"(?<!as )\bper (?P<a>(?:[a-z-]+ ){0,2}[a-z-]+)|\b(?:does|did|do|would|will|can) each (?P<b>[a-z-]+)\b"
    r"|\beach (?P<c>[a-z-]+) (?:has|have|had|gets?|got|receives?|received|pays?|paid)\b"
)
_TIME_UNITS = frozenset(
    word_sequence("year annum month quarter day week period hour cent share stock unit basis point")
)  # "per year" is a period, "per share" a row's own name, "per cent" a percentage
_PER_WRITTEN = re.compile(
    r"\b(?:per|each|every|a|an) (?:[a-z-]+ ){0,2}?(?P<unit>[a-z-]+)\b|(?P<lead>[a-z-]+)[- ]level\b"
)
# "the value of the RSUs granted", "the total value of securities issued": an amount. A "Number of RSUs" cell, or a
# result computed from one, is a count of them (their value is the count times a price)
_VALUE_ASKED = re.compile(r"\bvalue of\b|\bvaleur d")
_NUMBER_OF = re.compile(r"\bnumber of\b|\bnombre d")
_COUNT_NAMED = frozenset(word_sequence("number nombre"))
_SHARE_PRICE = re.compile(r"\b(?:share|stock|unit) price\b|\bprice (?:per|of (?:a|one|each)) (?:\w+ )?share\b")
OPPOSITES = tuple(
    (frozenset(word_sequence(a)), frozenset(word_sequence(b)))
    for a, b in (
        ("gain gains", "loss losses"),
        ("income", "expense expenses"),
        ("asset assets", "liability liabilities"),
        ("purchase purchases purchased", "sale sales sold"),
        ("receivable receivables", "payable payables"),
        ("inflow inflows", "outflow outflows"),
        ("equity", "debt"),  # a financing structure's two parts
        ("drawn borrowed outstanding utilized", "available unused undrawn unutilized"),  # a credit line's two parts
    )
)


def measure_words(question: str) -> tuple[frozenset[str], str]:
    """The specific words of what the question measures ("interest", "cost", "saving" of
    "the annual interest cost savings"), and that head as written; none when it names no
    head, or only how a figure is put."""
    words_asked = asks_for_words(question) or answer_kind(question) in ("date", "duration", "person")
    m = None if words_asked else _HEAD.search(fold(question))  # "what is the reason …", "the time periods"
    head = _PARTICIPLE.sub("", m.group("head")) if m else ""  # "the average rate used": "used" measures nothing
    specific = frozenset(word_sequence(head)) - _GENERIC
    return (specific, f"the {head}") if specific else (frozenset(), "")


def per_unit(question: str) -> tuple[frozenset[str], str]:
    """The unit the question asks a figure per ("continent" of "does each continent have"),
    and "a figure per continent"; none for a period."""
    m = _PER.search(fold(question))
    if m is None:
        return frozenset(), ""
    written = m.group("b") or m.group("c") or _before_stop(m.group("a"))  # "per basic share in 2019": "share"
    unit = frozenset(word_sequence(written.split()[-1]))
    return (frozenset(), "") if unit & _TIME_UNITS else (unit, f"a figure per {written}")


_STOPS = frozenset(
    "in for of the during and or was were is are at on by from to as with than between versus vs compared over since "
    "until through after before".split()
)  # "the fair value per share between 2014 and 2015": per share


def _before_stop(text: str) -> str:
    kept = []
    for word in text.split():
        if word in _STOPS:
            break
        kept.append(word)
    return " ".join(kept) or text


def writes_per(text: str, unit: frozenset[str]) -> bool:
    """Whether ``text`` (a row's label and column, or a sentence) writes a figure per ``unit``."""
    for m in _PER_WRITTEN.finditer(fold(text)):
        if frozenset(word_sequence(m.group("unit") or m.group("lead") or "")) & unit:
            return True
    return False


def measured_by(question: str, text: str) -> bool:
    """Whether a passage (or a computed result's line) states what the question measures: no
    row of losses for gains, a figure per the unit asked, a word of the measure asked (of a
    sentence: a table's rows name their measure in a title or a header the quote may leave out)."""
    named = frozenset(word_sequence(text))
    if opposite(frozenset(word_sequence(question)), named):
        return False
    per, _ = per_unit(question)
    if per and not writes_per(text, per):
        return False
    if return_over_period(question) and _PERCENT_CHANGE_LINE.search(text):
        return True  # "the roi from 2010 to 2011": the percentage change of what was invested
    measure, _ = measure_words(question)
    return not measure or "|" in text or bool(measure & named)


def return_over_period(question: str) -> bool:
    """Whether the question asks a return over a span its row's percentage change states: "the roi
    from 2010 to 2011", "the cumulative total return for the five years ended 2014"."""
    folded = fold(question)
    return (
        bool(RETURN_OVER_SPAN.search(folded)) or bool(TOTAL_RETURN.search(folded)) and len(periods_ended(folded)) == 1
    )


def share_price_asked(question: str) -> bool:
    return bool(_SHARE_PRICE.search(fold(question)))


def opposite(question_words: frozenset[str], named: frozenset[str]) -> bool:
    """Whether ``named`` (a row's or a result's words) names the opposite of what the question
    names and not the question's own word: "loss" for "gains", "expense" for "income"."""
    for a, b in OPPOSITES:
        for asked, other in ((a, b), (b, a)):
            if question_words & asked and not question_words & other and named & other and not named & asked:
                return True
    return False


@dataclass(frozen=True, slots=True)
class AskedMeasure:
    """What one question measures, read once per answer checked."""

    measure: frozenset[str]  # specific words of its head: "intere", "cost", "sav"
    per: frozenset[str]  # the unit asked per: "contin"
    named: str  # as a flag says it: "a figure per continent", "the annual interest cost savings"
    asked: frozenset[str]  # the question's content words, for opposites
    share_price: bool
    value: bool = False  # "the value of the RSUs granted": no count of them
    of_row: bool = False  # "the return on total assets": a measure computed from the row it names
    growth: bool = False  # "the roi from 2010 to 2011": a computed percentage change states it, no cell
    whole: frozenset[str] = (
        frozenset()
    )  # the whole a share is asked of: "loan", "held", "sale" of "total loans held for sale"

    @classmethod
    def of(cls, question: str) -> AskedMeasure:
        (measure, head), (per, per_written) = measure_words(question), per_unit(question)
        asked = frozenset(word_sequence(question))
        value = bool(_VALUE_ASKED.search(fold(question))) and not _NUMBER_OF.search(fold(question))
        named = per_written or head
        growth = bool(RETURN_OVER_SPAN.search(fold(question)))
        of_row = bool(_OF_ROW.search(fold(question))) and not growth
        return cls(
            measure,
            per,
            named,
            asked,
            share_price_asked(question),
            value=value,
            of_row=of_row,
            growth=growth,
            whole=whole_asked(question),
        )

    def any(self) -> bool:
        return bool(self.measure or self.per or self.value) or any(
            self.asked & a or self.asked & b for a, b in OPPOSITES
        )

    def unnamed(self, written: frozenset[str]) -> bool:
        """Whether a measure of a row is asked and the evidence (the content ``written`` in it) names none of its
        words: "the return on total assets" of a table of earnings and assets. No cell nor computed line states it."""
        return self.of_row and bool(self.measure) and not self.measure & written

    def counted(self, kind: str, words: frozenset[str], text: str, *, plain: bool = True) -> bool:
        """Whether a value is asked and a cell (its label's and column's ``words``), a computed result's line or a
        sentence (``text``) is a count: "Granted, Number of RSUs". A sentence's figure only when ``plain`` (written
        with no currency nor scale word: "the number of RSUs granted was 1,583,616", not "$14.8 million")."""
        if not self.value or (kind == "text" and not plain):
            return False
        return bool(words & _COUNT_NAMED) if kind == "cell" else bool(_NUMBER_OF.search(fold(text)))

    def measures(
        self, kind: str, words: frozenset[str], text: str, titled: frozenset[str] = frozenset(), *, plain: bool = True
    ) -> bool:
        """Whether a cell (``words`` of its label and column, ``text`` them written), a sentence or a
        computed result's line measures what is asked: no row of losses for a question about gains,
        a figure per continent for "does each continent have", a sentence that names the measure asked
        ("the annual interest cost savings": "redeemed $690 million of its 8.75% notes" states none), or
        whose source does (``titled``: the words of its document, section or tool, "sales")."""
        if opposite(self.asked, words) or self.counted(kind, words, text, plain=plain):
            return False
        if self.growth and kind != "text":  # a sentence may state the return; of a table, only its computed change
            return kind == "result" and bool(_PERCENT_CHANGE_LINE.search(text))
        if kind == "result":  # "share of Commercial mortgages in Total commercial mortgages" for "… of total loans"
            of = _SHARE_IN.search(text)  # a bare "Total" is the table's, whose title names it
            named = frozenset(word_sequence(of.group(1).split(", ")[0])) - _TOTAL if of else frozenset()
            return not (self.whole and named and not self.whole <= named)
        if self.per and not writes_per(text, self.per):
            return False
        return kind != "text" or not self.measure or bool(self.measure & (words | titled))


def evidence_words(index: EvidenceIndex) -> frozenset[str]:
    """The content words the evidence writes: its passages and tables, their sources and sections. Not a computed
    result's line, whose statement may reuse the question's own words ("change in compensation cost")."""
    kept = [(e, index.texts[pos]) for pos, e in enumerate(index.evidence) if not index.result_line(pos)]
    return content_words(" ".join(x for e, text in kept for x in (text, e.source, e.location) if x))
