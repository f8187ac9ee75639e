"""The places of a run's evidence, found from what a check asks: the figures near a value
(through the evidence index), and the rows and sentences that name a word.

Nothing is parsed up front: a row or a sentence is read when a lookup lands in it, so
the cost follows the answer's figures and the question's words, not the evidence size.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.grounding.answer_kinds import fold
from engine.grounding.evidence_index import EvidenceIndex
from engine.grounding.layout import EvidenceLayout, Place, content_words

MAX_HITS_PER_WORD = 400  # occurrences of one question word followed into rows and sentences
FULL_READ_CHARS = 4000
HEADER_ROWS_MAX = 60  # a table whose header names a question word is read whole up to this many rows
TOTAL_STEM = "total"  # the stem of "total": it names the rows of figures without a label too  # evidence this small is read whole when a check needs every figure


class Layout:
    """Lazy places over an ``EvidenceIndex``."""

    def __init__(self, index: EvidenceIndex) -> None:
        self.index = index
        self._layouts: dict[int, EvidenceLayout] = {}
        self._folded: dict[int, str] = {}

    def of(self, pos: int) -> EvidenceLayout:
        if pos not in self._layouts:
            ev = self.index.evidence[pos]
            self._layouts[pos] = EvidenceLayout(pos, self.index.texts[pos], ev.computed)
        return self._layouts[pos]

    def folded(self, pos: int) -> str:
        """The evidence text lower-cased and accent-folded, offsets kept."""
        if pos not in self._folded:
            text = self.index.texts[pos]
            self._folded[pos] = text.lower() if text.isascii() else "".join((fold(c) or " ")[0] for c in text)
        return self._folded[pos]

    def near(self, value: float, tolerance: float) -> list[Place]:
        """Places holding a number within ``tolerance`` of ``value`` (magnitudes; a tool's input excluded)."""
        return list(dict.fromkeys(p for pos, start in self.index.around(value, tolerance) for p in self.at(pos, start)))

    def at(self, pos: int, start: int) -> list[Place]:
        """The place(s) of the number that starts at ``start`` in evidence ``pos``."""
        return [p for p in self.of(pos).unit_at(start) if p.start <= start < max(p.end, p.start + 1)]

    def with_words(self, stems: Iterable[str]) -> tuple[list[Place], list[tuple[int, int, int]]]:
        """(cells of the table rows, spans (evidence, start, end) of the sentences) whose text holds
        one of ``stems``. Sentences are not parsed: the caller reads the few it keeps."""
        cells: dict[int, Place] = {}
        sentences: set[tuple[int, int, int]] = set()
        stems = [s for s in stems if s]
        if not stems:
            return [], []
        for pos, ev in enumerate(self.index.evidence):
            if ev.computed and "\n" not in self.index.texts[pos].strip():
                continue  # a one-line computed result names nothing
            folded = self.folded(pos)
            layout = self.of(pos)
            rows: set[int] = set()
            headers: set[int] = set()
            if TOTAL_STEM in stems:
                cells.update((id(p), p) for p in layout.unlabelled_rows() if p.label == "")
            for stem in stems:
                at, hits = folded.find(stem), 0
                while at >= 0 and hits < MAX_HITS_PER_WORD:
                    hits += 1
                    row = layout.row_at(at)
                    if row is not None:
                        if row not in rows:
                            rows.add(row)
                            cells.update((id(p), p) for p in layout.row_places(*row))
                    elif (t := layout.header_table(at)) is not None:
                        if t not in headers:
                            headers.add(t)  # a column the question names ("salary"): its rows, when few
                            if len(layout.tables[t].body()) <= HEADER_ROWS_MAX:
                                cells.update((id(p), p) for p in layout.table_rows(t))
                    elif (span := layout.sentence_at(at)) is not None:
                        sentences.add((pos, *span))
                    at = folded.find(stem, at + len(stem))
        ordered = sorted(cells.values(), key=lambda p: (p.evidence, p.start))  # document order, whatever word found them
        return ordered, sorted(sentences)

    def sentence(self, pos: int, a: int, b: int) -> list[Place]:
        return self.of(pos).sentence(a, b)

    def sentence_words(self, place: Place) -> frozenset[str]:
        """A sentence's content words, read when first asked (most sentences never are)."""
        if place.kind == "text" and not place.words:
            a, b = place.unit
            place.words = content_words(self.index.texts[place.evidence][a:b]) or frozenset({""})
        return place.words

    def has_year(self, year: str) -> bool:
        """Whether an evidence text (a one-line computed result aside) names ``year``."""
        return any(
            year in text and not (ev.computed and "\n" not in text.strip())
            for ev, text in zip(self.index.evidence, self.index.texts, strict=True)
        )

    def size(self) -> int:
        return sum(len(t) for t in self.index.texts)

    def every(self) -> list[Place]:
        """Every place: only for small evidence (see ``FULL_READ_CHARS``)."""
        return [p for pos in range(len(self.index.evidence)) for p in self.of(pos).places()]
