"""The grounding check: every figure of an answer traced to the run's evidence or flagged.

``check_answer`` is pure and fast (one pass over the evidence, one lookup per figure):
a figure is found when the same value, or a value that rounds to it at the answer's
precision, appears in an Evidence text (or a computed tool's input), or in the
question. Found figures get a footnote quoting the sentence or row that holds them.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.grounding.evidence_index import EvidenceIndex, Hit
from engine.grounding.figures import Found, extract_figures
from engine.grounding.models import Citation, Evidence, Figure, Grounding, GroundingReport, Unit
from engine.grounding.sources import invented_sources
from engine.grounding.units import bounded, computed_unit, expression, unit_at, unit_spans


class _Citations:
    """Footnotes numbered in order of first use; one per (evidence, unit)."""

    def __init__(self, index: EvidenceIndex) -> None:
        self.index = index
        self.items: list[Citation] = []
        self._keys: dict[tuple[int, int], int] = {}
        self._spans: dict[int, list[tuple[int, int, str]]] = {}

    def cite(self, hit: Hit) -> int:
        ev = self.index.evidence[hit.evidence]
        text = self.index.texts[hit.evidence]
        unit = computed_unit(ev, text) if hit.in_input or ev.computed else None
        if unit is None and not hit.in_input:
            spans = self._spans.get(hit.evidence)
            if spans is None:
                spans = self._spans[hit.evidence] = unit_spans(text)
            unit = unit_at(ev, text, hit.start, spans)
        key = (hit.evidence, unit.start if unit else -1)
        if key not in self._keys:
            self._keys[key] = len(self.items) + 1
            self.items.append(
                Citation(
                    n=len(self.items) + 1,
                    source=ev.source or ev.tool,
                    location=ev.location or "",
                    quote=self._quote(hit, unit),
                    evidence=ev.n,
                )
            )
        return self._keys[key]

    def _quote(self, hit: Hit, unit: Unit | None) -> str:
        ev = self.index.evidence[hit.evidence]
        text = self.index.texts[hit.evidence]
        if unit is None:
            return bounded(expression(ev) if hit.in_input else text.strip(), hit.start)
        if unit.computed or "\n" in unit.text:
            return bounded(unit.text)
        return bounded(unit.text, len(" ".join(text[unit.start : hit.start].split())))


def _figure(found: Found, citation: int | None) -> Figure:
    return Figure(
        text=found.text,
        start=found.start,
        end=found.end,
        kind=found.kind,  # type: ignore[arg-type]
        value=found.value,
        citation=citation,
    )


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
) -> GroundingReport:
    """Trace every figure of ``answer`` to ``evidence`` (or the question) and check its sources.

    ``ignore`` lists figures (as written or normalised) that are not checked at all.
    ``index`` is ``EvidenceIndex(evidence)`` built beforehand, to check several answers
    (a retry, a rewrite) against the same evidence without indexing it again."""
    skip = {item.strip() for item in ignore}
    if index is None or index.evidence != evidence:
        index = EvidenceIndex(evidence)
    asked: EvidenceIndex | None = None
    citations = _Citations(index)
    figures: list[Figure] = []
    unsupported: list[str] = []
    found = missing = 0
    for item in extract_figures(answer):
        if item.text in skip or item.value in skip:
            continue
        hit = index.find(item)
        if hit is not None:
            figures.append(_figure(item, citations.cite(hit)))
            found += 1
            continue
        asked = asked or EvidenceIndex.of_text(question)
        if asked.find(item) is not None:
            found += 1
        else:
            missing += 1
            if item.text not in unsupported:
                unsupported.append(item.text)
        figures.append(_figure(item, None))
    real, invented = invented_sources(answer, evidence)
    return GroundingReport(
        figures=figures,
        citations=citations.items,
        unsupported=unsupported,
        invented_sources=invented,
        grounding=verdict(found, missing, len(real), len(invented)),
    )
