"""The footnotes of a checked answer: numbered in order of first use, one per row or
sentence quoted, a derivation's with the rows or sentences its operands come from."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from engine.grounding.derive import Derivation
from engine.grounding.evidence_index import EvidenceIndex, Hit
from engine.grounding.layout import Place
from engine.grounding.models import Citation, Evidence, Unit
from engine.grounding.notes import derivation_text
from engine.grounding.stated import Stated
from engine.grounding.units import (
    block_bounds,
    bounded,
    computed_unit,
    expression,
    newlines,
    span_at,
    table_header,
    window,
)


class Citations:
    """Footnotes numbered in order of first use; one per (evidence, unit). The work per
    figure is a lookup: a unit's quote is built once, when it is first cited."""

    def __init__(self, index: EvidenceIndex) -> None:
        self.index = index
        self.items: list[Citation] = []
        self._keys: dict[tuple[int, int], int] = {}
        self._blocks: dict[int, list[tuple[int, int]]] = {}
        self._headers: dict[tuple[int, int], str | None] = {}
        self._breaks: dict[int, list[int]] = {}
        self._whole: dict[int, Unit | None] = {}

    def cite(self, hit: Hit) -> int:
        pos = hit.evidence
        ev, text = self.index.evidence[pos], self.index.texts[pos]
        if pos not in self._whole:
            self._whole[pos] = computed_unit(ev, text) if ev.computed else None
        whole = self._whole[pos]
        span = None
        if whole is not None:
            key = (pos, -1)
        elif hit.in_input:
            key = (pos, -2)
        else:
            span = self._span(pos, text, hit.start)
            key = (pos, span[0] if span else -3 - hit.start)
        if key not in self._keys:
            if whole is not None:
                quote = bounded(whole.text)
            elif hit.in_input:
                quote = bounded(expression(ev))
            elif span is not None and span[2]:  # a table row under its header
                quote = bounded(f"{span[2]}\n{text[span[0] : span[1]].strip()}")
            else:
                lo, hi = span[:2] if span else (0, len(text))
                quote = window(text, lo, hi, hit.start)
            self._add(key, ev, quote=quote)
        return self._keys[key]

    def derived(self, figure: str, derivation: Derivation, language: str) -> int:
        """A footnote for a derived figure: its derivation, and the rows or sentences of its operands."""
        evidence = self.index.evidence
        text = derivation_text(figure, derivation, evidence, language)
        key = (-1, hash(text))
        if key not in self._keys:
            self._add(
                key,
                evidence[derivation.operands[0].evidence],
                quote=bounded(_operand_quote(self.index.texts, derivation.operands)),
                derivation=text,
                evidences=list(dict.fromkeys(evidence[p.evidence].n for p in derivation.operands)),
            )
        return self._keys[key]

    def stated(self, figure: str, stated: Stated, footnotes: list[int]) -> int | None:
        """A footnote for a result whose derivation the answer writes: that derivation, and
        the rows or sentences its operands were traced to (their own footnotes)."""
        cited = [self.items[n - 1] for n in dict.fromkeys(footnotes)]
        if not cited:
            return None
        text = f"{figure} = {stated.expression_text}"
        key = (-2, hash(text))
        if key not in self._keys:
            first = cited[0]
            quote = "\n".join(dict.fromkeys(c.derivation or c.quote for c in cited))
            self._keys[key] = len(self.items) + 1
            self.items.append(
                Citation(
                    n=len(self.items) + 1,
                    source=first.source,
                    location=first.location,
                    quote=bounded(quote),
                    evidence=first.evidence,
                    derivation=text,
                    evidences=list(dict.fromkeys(e for c in cited for e in (c.evidences or [c.evidence]))),
                )
            )
        return self._keys[key]

    def cell(self, place: Place) -> int:
        """A footnote for a table cell: its header and its row."""
        key = (place.evidence, place.unit[0])
        if key not in self._keys:
            self._add(
                key, self.index.evidence[place.evidence], quote=bounded(_operand_quote(self.index.texts, (place,)))
            )
        return self._keys[key]

    def _add(self, key: tuple[int, int], ev: Evidence, **fields: Any) -> None:
        """Number a new footnote from evidence ``ev`` and file it under ``key``."""
        self._keys[key] = len(self.items) + 1
        self.items.append(
            Citation(n=len(self.items) + 1, source=ev.source or ev.tool, location=ev.location or "", evidence=ev.n,
                     **fields)
        )  # fmt: skip

    def _span(self, pos: int, text: str, offset: int) -> tuple[int, int, str] | None:
        blocks = self._blocks.get(pos)
        if blocks is None:
            blocks = self._blocks[pos] = block_bounds(text)
        i = bisect_right(blocks, (offset, len(text) + 1)) - 1
        if i < 0 or offset > blocks[i][1]:
            return None
        block = blocks[i]
        if (pos, block[0]) not in self._headers:
            self._headers[(pos, block[0])] = table_header(text, block)
        if pos not in self._breaks:
            self._breaks[pos] = newlines(text)
        return span_at(text, offset, block, self._headers[(pos, block[0])], self._breaks[pos])


def _operand_quote(texts: list[str], operands: tuple[Place, ...]) -> str:
    """The header and rows (or the sentences) that hold a derivation's operands, once each."""
    parts: list[str] = []
    for p in operands:
        if p.kind == "cell" and p.header and p.header not in parts:
            parts.append(p.header)
        line = " ".join(texts[p.evidence][p.unit[0] : p.unit[1]].split())
        if line not in parts:
            parts.append(line)
    return "\n".join(parts)
