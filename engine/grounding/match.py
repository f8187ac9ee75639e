"""The grounding check: every figure of an answer traced to the run's evidence or flagged.

``check_answer`` is pure and fast (one pass over the evidence, one lookup per figure):
a figure is found when the same value, or a value that rounds to it at the answer's
precision, appears in an Evidence text (or a computed tool's input), or in the
question. Found figures get a footnote quoting the sentence or row that holds them.

When the question names a subject or a period the evidence holds, support is narrower
(``support.py``): the figure must sit in a row or sentence about them, else it is
flagged with where it was found; and a figure no evidence states is checked as a
derivation of those rows' figures (a difference, sum, average, ratio, percentage or
percentage change), cited with its derivation.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.grounding.answer_kinds import years_named
from engine.grounding.citations import Citations
from engine.grounding.counts import lone_figure, one_year_twice, repeated_items, stated_counts
from engine.grounding.derive import reversed_ratio
from engine.grounding.evidence_index import EvidenceIndex, Hit
from engine.grounding.figures import Found, extract_figures
from engine.grounding.layout import Place, spaced_years
from engine.grounding.misquote import misquoted, misquoted_names, range_written
from engine.grounding.models import Evidence, Figure, Grounding, GroundingReport, Misplaced
from engine.grounding.notes import (
    extreme_note,
    miscomputed_note,
    miscounted_note,
    misplaced_note,
    misquoted_note,
    one_of_several_note,
    range_note,
    repeated_note,
    reversed_note,
    stated_note,
    uncompared_note,
    unheaded_note,
    unmet_note,
)
from engine.grounding.sources import invented_sources
from engine.grounding.stated import Stated, role, stated_derivations
from engine.grounding.support import Support


def _lowered(index: EvidenceIndex) -> list[str]:
    """Each evidence text lower-cased, offsets kept (a text whose lower case is longer stays as written)."""
    return [low if len(low := text.lower()) == len(text) else text for text in index.texts]


def _figure(found: Found, citation: int | None) -> Figure:
    return Figure(
        text=found.text,
        start=found.start,
        end=found.end,
        kind=found.kind,  # type: ignore[arg-type]
        value=found.value,
        citation=citation,
    )


def _computed_hit(index: EvidenceIndex, item: Found) -> bool:
    """Whether a tool computed this figure itself (a calculator's result): it is cited as such."""
    hit = index.find(item)
    return hit is not None and index.evidence[hit.evidence].computed


def verdict(found: int, missing: int, real_sources: int, invented: int) -> Grounding:
    """verified: every figure found (or sources cited, all real); partly: some of each;
    unsupported: figures and none found, or only invented sources; none: nothing to check."""
    if found + missing:
        if missing == 0:
            return "partly" if invented else "verified"
        return "partly" if found else "unsupported"
    if invented:
        return "partly" if real_sources else "unsupported"
    return "verified" if real_sources else "none"


def check_answer(
    answer: str,
    question: str,
    evidence: list[Evidence],
    *,
    ignore: Iterable[str] = (),
    index: EvidenceIndex | None = None,
    language: str = "en",
) -> GroundingReport:
    """Trace every figure of ``answer`` to ``evidence`` (or the question) and check its sources.

    ``ignore`` lists figures (as written or normalised) that are not checked at all.
    ``index`` is ``EvidenceIndex(evidence)`` built beforehand, to check several answers
    (a retry, a rewrite) against the same evidence without indexing it again.
    ``language`` is that of the derivations and notes written ("en", "fr")."""
    skip = {item.strip() for item in ignore}
    question = spaced_years(question)  # "2017,2018 and 2019": three years asked
    if index is None or index.evidence != evidence:
        index = EvidenceIndex(evidence)
    asked: EvidenceIndex | None = None
    citations = Citations(index)
    figures: list[Figure] = []
    unsupported: list[str] = []
    flagged: set[str] = set()
    misplaced: list[Misplaced] = []
    support: Support | None = None
    found = missing = 0
    stated = stated_derivations(answer)
    results: list[tuple[Found, Stated]] = []
    traced: dict[int, int | None] = {}  # start of each figure traced → its footnote (None: in the question)
    placed: dict[int, Place] = {}  # start of each figure traced to a cell or sentence → that place
    operands: dict[int, list[int]] = {}  # id(stated) → starts of its operands
    miscomputed: list[str] = []
    notes: list[str] = []

    def judge(item: Found, operand: bool = False) -> bool:
        """Trace one figure (``operand``: of a derivation the answer writes); record its footnote in ``traced``."""
        nonlocal support, asked
        hit = index.find(item)
        judgement = None
        if question.strip() and evidence:
            support = support or Support(index, question, answer)
            judgement = support.judge(item, hit, operand=operand)
        footnote: int | None = None
        if judgement is not None and judgement.place is not None:
            place = placed[item.start] = judgement.place
            if hit is not None and support is not None and not support.scope.active:
                footnote = citations.cite(hit)  # judged as before: the index's best place
            elif place.kind == "cell":
                footnote = citations.cell(place)
            else:
                footnote = citations.cite(Hit(place.evidence, place.start, place.end, item.kind))
        elif judgement is not None and judgement.derivation is not None:
            footnote = citations.derived(item.text, judgement.derivation, language)
        elif judgement is None and hit is not None:
            footnote = citations.cite(hit)
        else:
            asked = asked or EvidenceIndex.of_text(question)
            compared = judgement is not None and (
                judgement.extreme is not None
                or judgement.unmet is not None
                or judgement.uncompared
                or judgement.headed is not None
            )
            if compared or asked.find(item) is None:  # "which year, 2018 or 2019?": naming it asks, it does not answer
                if item.text not in flagged:
                    flagged.add(item.text)
                    unsupported.append(item.text)
                    if judgement is not None and judgement.misplaced is not None:
                        misplaced.append(judgement.misplaced)
                    if judgement is not None and judgement.extreme is not None and support is not None:
                        miscomputed.append(item.text)
                        notes.append(extreme_note(item.text, judgement.extreme, support.extreme or "max", language))
                    if judgement is not None and judgement.unmet is not None and support is not None:
                        miscomputed.append(item.text)
                        notes.append(unmet_note(item.text, judgement.unmet, support.condition, language))
                    if judgement is not None and judgement.uncompared:
                        miscomputed.append(item.text)
                        notes.append(uncompared_note(item.text, language))
                    if judgement is not None and judgement.headed is not None:
                        miscomputed.append(item.text)
                        notes.append(unheaded_note(item.text, judgement.headed, language))
                    if judgement is not None and judgement.stated is not None:
                        miscomputed.append(item.text)
                        notes.append(stated_note(item.text, judgement.stated, language))
                figures.append(_figure(item, None))
                return False
        figures.append(_figure(item, footnote))
        traced[item.start] = footnote
        return True

    def refuse(item: Found, note: str) -> None:
        """Flag a figure the evidence's words contradict (listed twice, changed in a copied sentence, miscounted)."""
        refuse_name(item.text, note)

    def refuse_name(text: str, note: str) -> None:
        if text not in flagged:
            flagged.add(text)
            unsupported.append(text)
            miscomputed.append(text)
            notes.append(note)

    counts = {c.span[0]: c for c in stated_counts(answer, question, "\n".join(index.texts))}
    per_year = len(years_named(question)) >= 2  # "in 2019 and 2018": one figure twice is likely a misread
    repeats = repeated_items(answer, per_year) + one_year_twice(answer, index.memo("lowered", _lowered))
    answered = extract_figures(answer)
    lone = lone_figure(answered, question)
    for item in answered:
        if item.text in skip or item.value in skip:
            continue
        note = None  # a figure the answer's own words or the evidence's refuse outright
        if item.start == lone:  # "$10.8 million" for the pension and the postretirement plans, "respectively"
            note = one_of_several_note(item.text, language)
        elif any(a <= item.start < b for a, b in repeats):  # "2018; 2018": a list naming one item twice
            note = repeated_note(item.text, language)
        elif (
            written := misquoted(answer, item, index.texts, index.memo("lowered", _lowered))
        ) is not None:  # "by 2% as …" where the report says 1%
            note = misquoted_note(item.text, written, language)
        elif (span := range_written(answer, item, question, index.texts)) is not None:  # "10 years" of "2 to 10 years"
            note = range_note(item.text, span, language)
        if note is not None:
            figures.append(_figure(item, None))
            missing += 1
            refuse(item, note)
            continue
        count = counts.get(item.start)
        if count is not None:  # "3 (a, b, c)": the count of the items it lists
            figures.append(_figure(item, None))
            if count.holds:
                found += 1
                continue
            missing += 1
            refuse(item, miscounted_note(item.text, len(count.items), language))
            continue
        part = role(stated, item) if stated else None
        if part is not None and part[1] == "constant":
            continue  # the "× 100" of a percentage, the "/ 2" of an average of two
        if part is not None and part[1] == "result":
            results.append((item, part[0]))
            continue
        if part is not None:
            operands.setdefault(id(part[0]), []).append(item.start)
        if judge(item, operand=part is not None):
            found += 1
        else:
            missing += 1
    for name, written in misquoted_names(answer, index.texts, index.memo("lowered", _lowered)):
        missing += 1  # "table S3NA" in a sentence copied from "table S2NA"
        refuse_name(name, misquoted_note(name, written, language))
    for item, derivation in results:  # judged once their operands are
        starts = operands.get(id(derivation), [])
        if not derivation.holds:
            missing += 1
            if item.text not in flagged:
                flagged.add(item.text)
                unsupported.append(item.text)
                miscomputed.append(item.text)
                actual = derivation.actual_text()
                notes.append(miscomputed_note(item.text, derivation.expression_text, actual, language))
            figures.append(_figure(item, None))
        elif (
            support is not None
            and len(starts) == 2
            and all(start in placed for start in starts)
            and derivation.divides()
            and support.computed == "ratio"
            and reversed_ratio(support.question, placed[starts[0]], placed[starts[1]])
        ):  # "12.01 = 39,784 / 3,313" for the ratio of the 3,313 to the 39,784
            missing += 1
            refuse(item, reversed_note(item.text, placed[starts[0]], placed[starts[1]], language))
            figures.append(_figure(item, None))
        elif starts and all(start in traced for start in starts) and not _computed_hit(index, item):
            footnotes = [n for n in (traced[start] for start in starts) if n is not None]
            figures.append(_figure(item, citations.stated(item.text, derivation, footnotes)))
            found += 1
        elif judge(item):
            found += 1
        else:
            missing += 1
    figures.sort(key=lambda f: f.start)
    real, invented = invented_sources(answer, evidence)
    return GroundingReport(
        figures=figures,
        citations=citations.items,
        unsupported=unsupported,
        invented_sources=invented,
        grounding=verdict(found, missing, len(real), len(invented)),
        misplaced=misplaced,
        notes=[misplaced_note(m, language) for m in misplaced] + notes,
        miscomputed=miscomputed,
    )
