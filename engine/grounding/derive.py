"""Derived figures: a figure of an answer that no evidence states, computed back from the
evidence figures of the question's subject and period.

The search is a lookup, not an enumeration: for each operand ``a`` about the subject
and each operation, the other operand the answer implies (``a - t`` for a difference,
``a / (1 + t/100)`` for a percentage change) is looked up by bisect among the candidate
operands. The answer's precision is the tolerance (half a unit of its last digit, so
"13.5%" holds for 13.48%), signs are compared as magnitudes ("a decrease of 12" is -12),
and operands of one scale are compared in that scale as well as in absolute terms
("1.2 million" holds for 1,150 + 50 in a table in thousands).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.grounding.answer_kinds import NAMED_AGGREGATE, fold
from engine.grounding.figures import Reading
from engine.grounding.layout import Place
from engine.grounding.stems import word_sequence

Op = str  # "difference", "sum", "average", "ratio", "percentage", "percent_change"
OPS: tuple[Op, ...] = ("difference", "sum", "average", "percent_change", "percentage", "ratio")
_PERCENT_CHANGE = re.compile(  # "the absolute percentage change" of a rate is its change in points
    r"(?<!absolute )(?:percent(?:age|ual)?|%)\s+(?:change|increase|decrease|growth|variation|difference)|growth rate"
    r"|rate of (?:change|growth)|percent(?:age)? (?:higher|lower|greater|larger|smaller|more|less)\b"
    r"|taux de (?:croissance|variation)|variation en (?:%|pourcentage)|year[- ]on[- ]year (?:growth|change) in %"
)
_SHARE = re.compile(
    r"\b(?:percentage|proportion|portion|share|ratio|fraction|pourcentage|(?<!\bas )(?<!\bin )part|rapport)\b|%"
    r"|\bas a percent|\bmargin\b"
    r"|\bhow many percent\b|\bpercent of\b|\brepresent(?:s|ed)? how much of\b"  # "A represented how much of B"
    r"|\bdebt[- ]to[- ](?:equity|capital)\b"
)  # "as part of the hedging strategy", "in part": no share
_CHANGE = re.compile(
    r"\b(?:chang(?:e[sd]?|ing)|differ\w*|increas(?:e[sd]?|ing)|decreas(?:e[sd]?|ing)|variation|ecart|evolution|fluctuation)\b"
)
_ABSOLUTE_CHANGE = re.compile(r"\babsolute (?:percent(?:age)? )?(?:change|difference|increase|decrease)\b")
# "by how many percent less did EMEA contribute … compared to the Americas": 43% − 31%
_BY_HOW_MANY = re.compile(r"\bby how (?:many|much) (?:percent(?:age points?)?|points?|%) (?:less|more|lower|higher)\b")
_EXCLUDING = re.compile(r"\b(?:excluding|exclusive of|except|less|net of|other than|without|apart from|hors)\b")
_AVERAGE = re.compile(r"\b(?:average|mean|moyenne?)\b")
_SUM = re.compile(r"\b(?:total|sum|combined|altogether|somme|cumul\w*|in all|en tout)\b")
# Words that compare figures without naming the operation: "how much higher", "grew by".
_COMPARE = re.compile(
    r"\b(?:compar\w*|move[sd]?|movement|versus|vs|evolv\w*|higher|lower|more|less|larger|smaller|greater|exceed\w*|grow|grew|grown|rise|rose|risen|fell|fall|"
    r"fallen|declin\w*|drop\w*|gain\w*|per|each|ratio|times|plus|minus|hausse|baisse|plus|moins|par)\b"
)
_WORD = re.compile(r"[a-z]+|%")
GROUP_MIN = 3  # a row or column summed or averaged as a whole has at least three figures
TRIPLES_MAX = 10  # sums and averages of any three figures only among this many operands


@dataclass(slots=True, frozen=True)
class Derivation:
    op: Op
    operands: tuple[Place, ...]  # in the order of the expression: (new, base) for a change
    value: float  # the computed value, in the operands' scale


@dataclass(slots=True)
class _Space:
    """Candidate operands in one unit: raw values of one scale, or absolute values."""

    scale: int | None  # None: absolute values
    places: list[Place]
    signed: list[float]
    signed_places: list[Place]
    magnitudes: list[float]
    magnitude_places: list[Place]

    @classmethod
    def of(cls, places: list[Place], scale: int | None) -> _Space:
        def val(p: Place) -> float:
            return p.absolute if scale is None else p.value

        by_sign = sorted(places, key=val)
        by_size = sorted(places, key=lambda p: abs(val(p)))
        return cls(scale, places, [val(p) for p in by_sign], by_sign, [abs(val(p)) for p in by_size], by_size)

    def value(self, p: Place) -> float:
        return p.absolute if self.scale is None else p.value

    def signed_in(self, lo: float, hi: float) -> list[Place]:
        i = bisect_left(self.signed, lo)
        return self.signed_places[i : bisect_right(self.signed, hi, i)][:16]

    def size_in(self, lo: float, hi: float) -> list[Place]:
        i = bisect_left(self.magnitudes, lo)
        return self.magnitude_places[i : bisect_right(self.magnitudes, hi, i)][:16]


def preferred_ops(question: str, labels: Sequence[str] = (), sentences: Sequence[str] = ()) -> tuple[Op, ...]:
    """The operations the question asks for ("percentage change", "average", "share", "change"),
    every operation when it compares figures without naming one ("how much higher"), and none
    when it asks for a figure as stated ("What was the balance in 2018?": a sum of two other
    cells that happens to equal a wrong answer supports nothing). Only those are tried: a
    question about a change is not answered by a ratio that happens to round to the same figure. Words of the row
    ``labels`` the question names are no operation ("Weighted average number of shares",
    "Total revenue"). A change answered as a percentage is a percentage change: ``derive``
    adds it for a figure written with %. A "total" or "average" that the evidence ``sentences`` about the subject
    write with the question's next two words ("The total comprehensive income from currency effects
    … totalled €17 million") is a name too."""
    text = " ".join(_WORD.findall(fold(question)))
    whole = text
    for phrase in sorted({p for label in set(labels) for p in _label_phrases(label)}, key=len, reverse=True):
        # the label is named as a phrase: its words are no operation, nor a "ratio" written after a row that is
        # one ("the net debt to EBITDA ratio" of the row "Net debt to EBITDA")
        text = re.sub(rf"(?<!\S){re.escape(phrase)}(?: ratio)?(?!\S)", " ", text).strip()
    written = [f" {' '.join(_WORD.findall(fold(s)))} " for s in sentences]
    for named in {m.group(0) for m in NAMED_AGGREGATE.finditer(text)}:
        if any(f" {named} " in sentence for sentence in written):  # a name, not an operation, wherever it is read
            text, whole = (f" {t} ".replace(f" {named} ", " ").strip() for t in (text, whole))
    if _AVERAGE.search(text):
        return ("average",)
    if _ABSOLUTE_CHANGE.search(text) or _BY_HOW_MANY.search(text):
        return ("difference",)  # "the absolute percentage change in the risk-free rate": 2.0 − 1.2, in points
    if _PERCENT_CHANGE.search(text):
        return ("percent_change", "difference")
    if _SHARE.search(text):
        return ("percentage", "ratio", "difference") if _CHANGE.search(text) else ("percentage", "ratio")
    if _CHANGE.search(text):
        return ("difference",)
    if _SUM.search(text):  # a total, or a total less a part ("excluding …")
        return ("sum", "difference") if _EXCLUDING.search(text) else ("sum",)
    computes = (_COMPARE, _AVERAGE, _PERCENT_CHANGE, _SHARE, _CHANGE, _SUM)
    if _COMPARE.search(text) or text != whole and any(p.search(whole) for p in computes):
        return OPS  # a comparison, or a row named for what it computes ("Revenue growth"): every operation
    return ()


def _label_phrases(label: str) -> list[str]:
    """How a question names a row: its words, and without or by its bracketed short form
    ("Loan-to-value (LTV) ratio": "loan to value ltv ratio", "loan to value ratio", "ltv ratio")."""
    folded = fold(label)
    phrases = [folded, re.sub(r"\([^()]*\)", " ", folded)]
    if short := re.search(r"\(([^()]*)\)(.*)$", folded):
        phrases.append(f"{short.group(1)} {short.group(2)}")
    return [p for p in dict.fromkeys(" ".join(_WORD.findall(p)) for p in phrases) if p]


def absolute_asked(question: str) -> bool:
    """ "The absolute percentage change": the change itself (in points for a rate), no relative change."""
    return bool(_ABSOLUTE_CHANGE.search(fold(question)))


def operation_named(ops: Sequence[Op]) -> bool:
    """Whether ``preferred_ops`` named the operations asked (not none, not every one for a comparison)."""
    return bool(ops) and len(ops) != len(OPS)


# "the 2019 average X", an average balance: of the year's closing and opening, 2019 and 2018
YEAR_AVERAGE = re.compile(r"\b((?:19|20)\d\d) (?:average|mean)\b")


def asks_change(question: str) -> bool:
    """Whether the question asks how a figure moved (so the period before the one it names counts)."""
    text = fold(question)
    return bool(_CHANGE.search(text) or _PERCENT_CHANGE.search(text))


def _spaces(strong: Sequence[Place], pool: Sequence[Place]) -> list[tuple[_Space, list[Place]]]:
    """One space per scale among the operands, and an absolute one when scales differ."""
    everyone = list(dict.fromkeys([*strong, *pool]))
    scales = {p.scale for p in everyone}
    out = []
    for scale in sorted(scales):
        members = [p for p in everyone if p.scale == scale]
        out.append((_Space.of(members, scale), [p for p in strong if p.scale == scale]))
    if len(scales) > 1:
        out.append((_Space.of(everyone, None), list(strong)))
    return out


LOOSEST = 0.1  # a derivation meets a figure within its rounding, and never looser than this share of it: "1" is no 1.24


def _targets(readings: Sequence[Reading], space: _Space, scaled_answer: bool) -> list[tuple[float, float]]:
    """(value, tolerance) of the answer in the space's unit: as written, and divided by the
    space's scale when the answer writes a scale word ("1.2 million" against thousands).
    A figure of one digit ("1", "3") is met only within a tenth of it, not within its rounding."""
    out = [(abs(r.value), min(r.tolerance, LOOSEST * abs(r.value))) for r in readings if r.value]
    if scaled_answer and space.scale and space.scale != 1:
        out += [(v / space.scale, tol / space.scale) for v, tol in out if v >= space.scale]
    return list(dict.fromkeys(out))


def _close(value: float, target: float, tolerance: float) -> bool:
    return abs(abs(value) - target) <= tolerance * (1 + 1e-9) + 1e-12


def _compatible(a: Place, b: Place, percent_answer: bool, additive: bool) -> bool:
    """Operands of one computation: both percentages or neither (no "-8.9% + 2.77"); a
    percentage answer added up from sentences needs percentages; figures added up come from
    the table or from the text, not one of each (a sentence's "$0.5 million" less a change cell)."""
    if b is a or a.percent != b.percent:
        return False
    if a.kind == b.kind == "text" and abs(a.value) == abs(b.value) and _same_unit(a, b):
        return False  # "17% (17%)": one figure written twice in its sentence, no two operands
    if additive and (a.kind == "cell") != (b.kind == "cell"):
        return False
    return not (additive and percent_answer and a.kind == "text" and not a.percent)


def _same_row(a: Place, b: Place) -> bool:
    """Two cells of one row (the same figure in two periods), or anything but two cells."""
    return a.kind != "cell" or b.kind != "cell" or (a.evidence, a.row) == (b.evidence, b.row)


def _same_unit(a: Place, b: Place) -> bool:
    """Two figures of one row or one sentence."""
    return (a.evidence, a.unit) == (b.evidence, b.unit)


def _pairs(
    op: Op, space: _Space, a: Place, t: float, tol: float, percent: bool, one_row: bool = False, points: bool = False
) -> Iterator[Derivation]:
    """Derivations of ``t`` with ``a`` as one operand and the other looked up; ``one_row``:
    two cells must share a row (the question names no operation, so no two rows are combined);
    ``points``: a percentage change asked, answered as a difference of two percentages, takes
    both from one row or sentence ("fell to 56% from 59%"), not two percentages of two measures."""
    va = space.value(a)
    additive = op in ("difference", "sum", "average")

    def ok(b: Place) -> bool:
        if points and op == "difference" and a.percent and not _same_unit(a, b):
            return False
        if op in ("difference", "sum") and 0 < min(abs(va), abs(space.value(b))) <= tol:
            return False  # "154 million − 201": an operand within the answer's rounding changes nothing (a "—" is 0)
        if op == "percentage" and a.percent:
            return False  # a share of two percentages is no percentage of anything
        return _compatible(a, b, percent, additive) and (not one_row or _same_row(a, b))

    if op == "difference":
        for centre in (va - t, va + t):
            for b in space.signed_in(centre - tol, centre + tol):
                if ok(b) and _close(va - space.value(b), t, tol):
                    yield Derivation(op, (a, b) if va >= space.value(b) else (b, a), abs(va - space.value(b)))
    elif op in ("sum", "average"):
        k = 2 if op == "average" else 1
        for centre in (k * t - va, -k * t - va):
            for b in space.signed_in(centre - k * tol, centre + k * tol):
                got = (va + space.value(b)) / k
                if ok(b) and _close(got, t, tol):
                    yield Derivation(op, (a, b), got)
    elif op in ("ratio", "percentage") and va:
        m = abs(va)
        f = 100.0 if op == "percentage" else 1.0
        lo, hi = (t - tol) / f, (t + tol) / f
        if hi <= 0:
            return
        # a / b = t: b in m/hi .. m/lo; b / a = t: b in m*lo .. m*hi
        for b in space.size_in(m / hi, m / lo if lo > 0 else float("inf")):
            if ok(b) and space.value(b) and _close(m / abs(space.value(b)) * f, t, tol):
                yield Derivation(op, (a, b), m / abs(space.value(b)) * f)
        for b in space.size_in(m * lo, m * hi):
            if ok(b) and _close(abs(space.value(b)) / m * f, t, tol):
                yield Derivation(op, (b, a), abs(space.value(b)) / m * f)
    elif op == "percent_change" and va:
        m = abs(va)
        for sign in (1, -1):
            lo, hi = 1 + sign * (t - tol) / 100, 1 + sign * (t + tol) / 100
            lo, hi = min(lo, hi), max(lo, hi)
            if hi <= 0:
                continue
            # a is the base: new = a * ratio; a is the new value: base = a / ratio
            for new in space.size_in(m * lo, m * hi):
                if ok(new):
                    got = (abs(space.value(new)) - m) / m * 100
                    if _close(got, t, tol):
                        yield Derivation(op, (new, a), got)
            for base in space.size_in(m / hi, m / lo if lo > 0 else float("inf")):
                vb = abs(space.value(base))
                if ok(base) and vb:
                    got = (m - vb) / vb * 100
                    if _close(got, t, tol):
                        yield Derivation(op, (a, base), got)


def _groups(strong: Sequence[Place]) -> list[list[Place]]:
    """Rows and columns of cells about the subject, each summed or averaged whole (Total rows left out)."""
    rows: dict[tuple[int, int], list[Place]] = {}
    columns: dict[tuple[int, str, int], list[Place]] = {}
    for p in strong:
        if p.kind != "cell":
            continue
        if not _of_measures(p):
            rows.setdefault((p.evidence, p.row), []).append(p)
        if not p.total:
            columns.setdefault((p.evidence, p.column, p.scale), []).append(p)
    return [g for g in [*rows.values(), *columns.values()] if len(g) >= GROUP_MIN]


def _whole(op: Op, group: list[Place], t: float, tol: float) -> Derivation | None:
    if op not in ("sum", "average") or len({p.scale for p in group}) != 1:
        return None
    total = sum(p.value for p in group)
    got = total / len(group) if op == "average" else total
    return Derivation(op, tuple(group), got) if _close(got, t, tol) else None


def _of_measures(cell: Place) -> bool:
    """Whether the cell's row is labelled by a year alone ("2015 | 17,430.8 | 473.8 | (194.0)"): its columns are
    measures (investments, income, gains), one figure of each, which add up to nothing."""
    return not cell.label_words and bool(cell.label_years)


def _one_line(*places: Place) -> bool:
    """Cells added up as three: of one row or one column (not one row's 2018 and another's 2017; not a row of
    measures labelled by a year), and all cells or all sentences' figures (not two cells and a sentence's "£12.4
    million"), all percentages or none."""
    cells = [p for p in places if p.kind == "cell"]
    if 0 < len(cells) < len(places) or len({p.percent for p in places}) > 1:
        return False  # nor an amount and percentages ("$17.7 billion + 87.4% + 91.4%")
    one_row = len({(p.evidence, p.row) for p in cells}) == 1 and not _of_measures(cells[0])
    return len(cells) < 2 or one_row or len({(p.evidence, p.column) for p in cells}) == 1


def _triples(op: Op, space: _Space, strong: list[Place], t: float, tol: float) -> Derivation | None:
    if op not in ("sum", "average") or len(strong) > TRIPLES_MAX:
        return None
    k = 3 if op == "average" else 1
    members = set(map(id, strong))
    for a, b in combinations(strong, 2):
        rest = space.value(a) + space.value(b)
        for centre in (k * t - rest, -k * t - rest):
            for c in space.signed_in(centre - k * tol, centre + k * tol):
                if id(c) in members and c is not a and c is not b and _one_line(a, b, c):
                    got = (rest + space.value(c)) / k
                    if _close(got, t, tol):
                        return Derivation(op, (a, b, c), got)
    return None


def derive(
    readings: Sequence[Reading],
    strong: Sequence[Place],
    pool: Sequence[Place],
    *,
    ops: Sequence[Op] = OPS,
    percent: bool = False,
    scaled_answer: bool = False,
    amount: bool = False,
) -> Derivation | None:
    """A derivation of the answer's figure (its ``readings``) with at least one operand in
    ``strong`` (about the question's subject and period) and the others in ``pool``; the
    first found in the order of ``ops``. ``percent``: the figure is written with %, so a
    bare ratio (0.25 for 25%) is not tried."""
    if amount:  # "$8.3 million" is no computation of percentages
        strong, pool = [p for p in strong if not p.percent], [p for p in pool if not p.percent]
    if not strong:
        return None
    narrow, wide = _spaces(strong, ()), _spaces(strong, pool)
    # no change asked ("How much was the cumulative adjustment?"): a difference is one row's change, not two rows'
    asked_change = operation_named(ops)
    asked = tuple(ops)
    if percent and "difference" in ops and "percent_change" not in ops:  # "the increase ... ?" "9.74%"
        ops = [*ops, "percent_change"]
    for op in ops:
        if op == "ratio" and percent or amount and op in ("ratio", "percentage", "percent_change"):
            continue  # "$0.6 million" is an amount: no ratio of two figures
        # a share or a ratio may take its second operand from another row (a total); the
        # other computations combine figures about the subject only
        for space, firsts in wide if op in ("ratio", "percentage") else narrow:
            for t, tol in _targets(readings, space, scaled_answer):
                if op == "ratio" and t < 10 and t.is_integer():
                    continue  # a ratio written "1" or "3": any two figures close enough give it
                if op in ("sum", "average") and space.scale is not None:
                    for group in _groups(firsts):
                        if found := _whole(op, group, t, tol):
                            return found
                for a in firsts:
                    one_row = not asked_change and op in ("difference", "percent_change")
                    for found in _pairs(op, space, a, t, tol, percent, one_row, "percent_change" in asked):
                        return found
                if asked_change and (found := _triples(op, space, firsts, t, tol)):
                    return found  # three figures only for an operation asked, not for any comparison
    return None


def reversed_ratio(question: str, a: Place, b: Place) -> bool:
    """Whether a ratio the question asks of A to B ("the ratio of A to B", "A as a ratio of B") is a / b
    the wrong way round: the rows' own words, where the question writes them, say which comes first."""
    if a.kind != "cell" or b.kind != "cell":
        return False
    order = {w: i for i, w in reversed(list(enumerate(word_sequence(question))))}
    first_a = min((order[w] for w in a.label_words - b.label_words if w in order), default=None)
    first_b = min((order[w] for w in b.label_words - a.label_words if w in order), default=None)
    return first_a is not None and first_b is not None and first_b < first_a
