"""The places of a run's evidence, found from what a check asks: the figures near a value
(through the evidence index), and the rows and sentences that name a word.

Nothing is parsed up front: a row or a sentence is read when a lookup lands in it, so
the cost follows the answer's figures and the question's words, not the evidence size.
"""

from __future__ import annotations

from engine.grounding.answer_kinds import fold
from engine.grounding.evidence_index import EvidenceIndex
from engine.grounding.evidence_layout import EvidenceLayout
from engine.grounding.layout import Place, content_words, years_in

_ACCENTS = str.maketrans("àâäáãåçéèêëíìîïñóòôöõúùûüýÿœæ", "aaaaaaceeeeiiiinooooouuuuyyoa")  # same length
MAX_HITS_PER_WORD = 400  # occurrences of one question word followed into rows and sentences
FULL_READ_CHARS = 4000
HEADER_ROWS_MAX = 60
MAX_ROWS = 12  # table rows read for one question: those whose text holds the most of its words
MAX_PASSAGES = 4  # passages cut into sentences for one question: those that hold the most of its words  # a table whose header names a question word is read whole up to this many rows
TOTAL_STEM = "total"  # the stem of "total": it names the rows of figures without a label too  # evidence this small is read whole when a check needs every figure


class Layout:
    """Lazy places over an ``EvidenceIndex``."""

    def __init__(self, index: EvidenceIndex) -> None:
        self.index = index
        self._layouts: dict[int, EvidenceLayout] = {}
        self._folded: dict[int, str] = {}
        self._table_words: dict[int, frozenset[str]] = {}

    def of(self, pos: int) -> EvidenceLayout:
        if pos not in self._layouts:
            ev = self.index.evidence[pos]
            self._layouts[pos] = EvidenceLayout(pos, self.index.texts[pos], ev.computed)
        return self._layouts[pos]

    def folded(self, pos: int) -> str:
        """The evidence text lower-cased and accent-folded, offsets kept."""
        if pos not in self._folded:
            text = self.index.texts[pos]
            lowered = text.lower()
            if len(lowered) != len(text):  # a rare letter whose lower case is longer: fold it alone
                lowered = "".join((fold(c) or " ")[0] for c in text)
            self._folded[pos] = lowered if lowered.isascii() else lowered.translate(_ACCENTS)
        return self._folded[pos]

    def near(self, value: float, tolerance: float) -> list[Place]:
        """Places holding a number within ``tolerance`` of ``value`` (magnitudes; a tool's input excluded)."""
        return list(dict.fromkeys(p for pos, start in self.index.around(value, tolerance) for p in self.at(pos, start)))

    def at(self, pos: int, start: int) -> list[Place]:
        """The place(s) of the number that starts at ``start`` in evidence ``pos``."""
        return [p for p in self.of(pos).unit_at(start) if p.start <= start < max(p.end, p.start + 1)]

    def with_words(self, terms: dict[str, float]) -> tuple[list[Place], list[tuple[int, int, int]]]:
        """(cells of the table rows, spans (evidence, start, end) of the sentences) whose text holds
        one of the stemmed ``terms``. Rows are ranked on their text before any is parsed, and
        only the passages that hold the most of the terms are cut into sentences."""
        stems = [s for s in terms if s]
        if not stems:
            return [], []
        rows: dict[tuple[int, int, int], float] = {}
        tables: set[tuple[int, int]] = set()
        titled: set[tuple[int, int]] = set()  # a question word in a table's title: its unlabelled rows are about it
        passages: list[tuple[float, int, list[int]]] = []
        seen: dict[tuple[int, int, int], set[str]] = {}
        for pos in range(len(self.index.evidence)):
            if self.index.result_line(pos):
                continue  # a one-line computed result names nothing
            folded = self.folded(pos)
            layout = self.of(pos)
            outside: list[int] = []
            held = 0.0
            for stem in stems:
                at, hits = folded.find(stem), 0
                held += terms[stem] if at >= 0 else 0.0
                while at >= 0 and hits < MAX_HITS_PER_WORD:
                    hits += 1
                    row = layout.row_at(at)
                    if row is not None:
                        key = (pos, *row)
                        if key not in seen:  # each word once per row, weighed by the share of the label it covers
                            seen[key] = set()
                        if stem not in seen[key]:
                            seen[key].add(stem)
                            share = len(stem) / max(len(stem), layout.label_letters(*row))
                            rows[key] = rows.get(key, 0.0) + terms[stem] * (0.5 + 0.5 * share)
                    elif (t := layout.header_table(at)) is not None:
                        tables.add((pos, t))
                    else:
                        if (t := layout.title_table(at)) is not None:
                            titled.add((pos, t))
                        outside.append(at)
                    at = folded.find(stem, at + len(stem))
            if outside:
                passages.append((held, pos, outside))
        cells: dict[int, Place] = {}
        for pos, t in tables:  # a column the question names ("salary"): its rows, when few
            layout = self.of(pos)
            if len(layout.tables[t].body()) <= HEADER_ROWS_MAX:
                cells.update((id(p), p) for p in layout.table_rows(t))
        for (pos, t, k), _ in sorted(rows.items(), key=lambda item: (-item[1], item[0]))[:MAX_ROWS]:
            cells.update((id(p), p) for p in self.of(pos).row_places(t, k))
        if TOTAL_STEM in stems:
            for pos in range(len(self.index.evidence)):
                if "\n" in self.index.texts[pos].strip():
                    cells.update((id(p), p) for p in self.of(pos).unlabelled_rows() if p.label == "")
        for pos, t in titled:
            cells.update((id(p), p) for p in self.of(pos).unlabelled_rows(t) if p.label == "")
        sentences: set[tuple[int, int, int]] = set()
        for _, pos, offsets in sorted(passages, key=lambda item: (-item[0], item[1]))[:MAX_PASSAGES]:
            layout = self.of(pos)
            for at in offsets:
                if (span := layout.sentence_at(at)) is not None:
                    sentences.add((pos, *span))
        ordered = sorted(
            cells.values(), key=lambda p: (p.evidence, p.start)
        )  # document order, whatever word found them
        return ordered, sorted(sentences)

    def sentence(self, pos: int, a: int, b: int) -> list[Place]:
        return self.of(pos).sentence(a, b)

    def sentence_words(self, place: Place) -> frozenset[str]:
        """A sentence's content words, read when first asked (most sentences never are)."""
        if place.kind == "text" and not place.words:
            a, b = place.unit
            place.words = content_words(self.index.texts[place.evidence][a:b]) or frozenset({""})
        return place.words

    def table_words(self, pos: int) -> frozenset[str]:
        """The content words of evidence ``pos``'s table lines (its labels and headers), read from
        the text: parsing every cell of a 400-row table for them doubled the check's worst case."""
        if pos not in self._table_words:
            lines = (line for line in self.index.texts[pos].splitlines() if "|" in line or "\t" in line)
            self._table_words[pos] = content_words("\n".join(lines))
        return self._table_words[pos]

    def has_year(self, year: str) -> bool:
        """Whether an evidence text (a one-line computed result aside) names ``year``, as
        written or as a fiscal year ("FY19")."""
        return any(
            (year in text or year in years_in(text)) and not self.index.result_line(pos)
            for pos, text in enumerate(self.index.texts)
        )

    def header_years(self) -> frozenset[str]:
        """The years the headers of the evidence's tables name (a column's "2019", a corner's "Group - 2018")."""
        years: set[str] = set()
        for pos in range(len(self.index.evidence)):
            if "\n" in self.index.texts[pos].strip():
                for table in self.of(pos).tables:
                    years.update(y for _, header in table.blocks for column in header[2] for y in column)
                    years.update(years_in(table.header))
        return frozenset(years)

    def size(self) -> int:
        return sum(len(t) for t in self.index.texts)

    def every(self) -> list[Place]:
        """Every place: only for small evidence (see ``FULL_READ_CHARS``)."""
        return [p for pos in range(len(self.index.evidence)) for p in self.of(pos).places()]
