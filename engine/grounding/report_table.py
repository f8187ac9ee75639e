"""Report tables as text: the header read once (over several lines, merged cells filled,
units in a corner or header cell), each body row read into cells when asked (its label,
its section row, "—" as zero, a row without a label as a total)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.grounding.layout import DIGIT_RE, YEAR_RE, Place, content_words, numbers_in, scale_of, years_in
from engine.grounding.totals import is_total_label
from engine.grounding.units import delimiter_of, is_rule

_TOTAL_WORDS = frozenset({"total"})
SECTION_REACH = 40  # a section row ("Revenue:") names the rows below it up to this far


# A column comparing two periods ("2019 vs. 2018", "% Change", "Variance"): its "28.7%"
# is the row's change, not the unit of the row's own figures, nor a level of either year.
COMPARISON_COLUMN = re.compile(r"(?i)\bvs?\.?\s|\bversus\b|\bvariance\b|\bchange\b|\bvariation\b|\bgrowth\b")


def label_key(label: str) -> str:
    """A row label as compared with others: its spacing, case and closing colon aside."""
    return " ".join(label.rstrip(":").split()).casefold()


def owners(labels: list[str], sections: list[str] | None = None) -> dict[int, str]:
    """The rows whose label is written again under each of several rows ("Product",
    "Percentage of revenue", "Service", "Percentage of revenue"): row index → the label of
    the row above it, which it says something of, when every such row above is named once
    (a row without figures is given as "": it owns nothing). A label written again in several
    sections ("Share-based payments" under "Executive management" and "Board of directors")
    is each section's item, owned by no row."""

    counts: dict[str, int] = {}
    for label in labels:
        counts[label_key(label)] = counts.get(label_key(label), 0) + 1
    out: dict[int, str] = {}
    for repeated in {n for n, k in counts.items() if k > 1 and n and not is_total_label(n)}:
        spots = [i for i, label in enumerate(labels) if label_key(label) == repeated]
        above = [labels[i - 1] if i else "" for i in spots]
        if sections is not None and len({sections[i] for i in spots}) > 1:
            continue
        if all(a.strip() and counts[label_key(a)] == 1 and not is_total_label(a) for a in above):
            out.update((i, a.rstrip(":").strip()) for i, a in zip(spots, above, strict=True))
    return out


def is_zero(cell: str) -> bool:
    return cell.strip(" $€£\u00a0") in ("—", "–", "-", "−")


def is_numeric_cell(cell: str) -> bool:
    stripped = cell.strip(" $€£%()\u00a0+-−–")
    return bool(stripped) and bool(re.fullmatch(r"[\d.,\s\u00a0\u202f]+", stripped))


def _split(line: str, sep: str, lead: bool, trail: bool) -> list[str]:
    """The cells of a line; ``lead``/``trail``: every line of the table opens/closes with the
    delimiter (markdown), so the empty cell outside it is no column."""
    parts = line.split(sep)
    if lead and parts and not parts[0].strip():
        parts = parts[1:]
    if trail and parts and not parts[-1].strip():
        parts = parts[:-1]
    return parts


def table_runs(text: str, lines: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """(first line, last line + 1, delimiter) of each run of at least two lines with the same
    number of delimiters (markdown rule lines inside a run are kept)."""
    runs = []
    i = 0
    while i < len(lines):
        line = text[lines[i][0] : lines[i][1]]
        sep = delimiter_of(line)
        if sep is None:
            i += 1
            continue
        count = line.count(sep)
        j = i + 1
        while j < len(lines):
            other = text[lines[j][0] : lines[j][1]]
            if not (is_rule(other) or other.count(sep) == count):
                break
            j += 1
        if j - i >= 2:
            runs.append((i, j, sep))
            i = j
        else:
            i += 1
    return runs


def _short(header_rows: list[list[str]], i: int) -> str:
    """A column's name for people: its lowest header line that names a year, else its lowest."""
    named = [r[i].strip() for r in header_rows if i < len(r) and r[i].strip()]
    dated = [c for c in named if years_in(c)]
    return (dated or named or [""])[-1]


def _is_section(row: list[str]) -> bool:
    """A label over the rows below it, with no figure of its own ("Net loss per share:")."""
    return bool(row) and bool(row[0].strip()) and not any(is_numeric_cell(c) or is_zero(c) for c in row[1:])


def spread_header(cells: list[str], below: list[str] | None = None) -> list[str]:
    """A header row with texts standing over several columns, one text per column.

    Texts evenly spaced over equal groups of columns ("2019", "", "2018", "") span their
    group (wherever the text sits in it); otherwise a text spans the empty cells to its right.
    A text written again in the same row ("", "% of", "", "% of") labels its own column
    only: the empty cell beside it is another column's ("Amount" below), not merged. Texts
    packed to the left ("December 31, 2012", "December 31, 2011", "", "") over a row ``below``
    that repeats one group as many times ("Amortized Cost", "Fair Value", twice) span a group each."""
    n = len(cells)
    marks = [j for j, c in enumerate(cells) if c]
    k = len(marks)
    if below is not None and k >= 2 and marks == list(range(k)) and n % k == 0 and len(below) == n:
        size = n // k
        groups = [tuple(below[g * size : (g + 1) * size]) for g in range(k)]
        if size >= 2 and len(set(groups)) == 1 and all(groups[0]):
            return [cells[j // size] for j in range(n)]
    if len({cells[j] for j in marks}) < len(marks):
        return list(cells)
    k = len(marks)
    if k >= 2 and n % k == 0 and len(set(cells[j] for j in marks)) == k:
        size = n // k
        if all(g * size <= marks[g] < (g + 1) * size for g in range(k)):
            return [cells[marks[j // size]] for j in range(n)]
    out, last = [], ""
    for c in cells:
        last = c or last
        out.append(last)
    return out


_Header = tuple[list[str], list[frozenset[str]], list[frozenset[str]], list[str], list[int]]


def _figures(row: list[str]) -> bool:
    """Whether a row's cells after its label hold a figure that is no year."""
    return any(is_numeric_cell(c) and not YEAR_RE.fullmatch(c.strip()) for c in row[1:])


class Table:
    """One table run of an evidence: its header read once, its rows read when asked."""

    def __init__(
        self,
        text: str,
        original: str,
        lines: list[tuple[int, int]],
        sep: str,
        heading: str,
        number: int,
        title: tuple[int, int] | None = None,
    ) -> None:
        self.text, self.lines, self.sep, self.number = text, lines, sep, number
        self.title = title  # the span of the short line just above the table: its subject
        self.title_words = content_words(text[title[0] : title[1]]) if title else frozenset()
        stripped = [text[s:e].strip() for s, e in lines]
        self.lead = all(t.startswith(sep) for t in stripped)
        self.trail = all(t.endswith(sep) for t in stripped)
        header_rows: list[list[str]] = []
        first = 0
        for first, (s, e) in enumerate(lines):
            if is_rule(text[s:e]):
                continue
            row = self.cells(first)
            numeric = [c for c in row[1:] if is_numeric_cell(c) and not YEAR_RE.fullmatch(c.strip())]
            if numeric and header_rows:
                break
            header_rows.append(row)
        else:
            first = len(lines)
        while len(header_rows) > 1 and header_rows[-1][0].strip() and not any(c.strip() for c in header_rows[-1][1:]):
            header_rows.pop()  # "Revenue:" over the first rows is a section of the body, not a header line
            first -= 1
        self.first = first
        self.width = max((len(self.cells(k)) for k in range(min(len(lines), first + 8))), default=0)
        self.header = "\n".join(original[lines[i][0] : lines[i][1]].strip() for i in range(first))
        self._scale = scale_of(heading + "\n" + self.header)
        self.blocks = [(first, self._read_header(header_rows))]  # (first row, its columns), in order
        self.blocks += self._headers_within()
        self.columns, self.column_words, self.column_years, self.shorts, self.scales = self.blocks[0][1]
        self._owners: dict[int, str] | None = None

    def _read_header(self, header_rows: list[list[str]]) -> _Header:
        """(columns, their words, their years, their short names, their scales) of header lines."""
        for row, below in zip(header_rows, header_rows[1:], strict=False):  # a cell merged over columns
            row[1:] = spread_header([c.strip() for c in row[1:]], [c.strip() for c in below[1:]])
        columns = [
            " ".join(r[i].strip() for r in header_rows if i < len(r) and r[i].strip()) for i in range(self.width)
        ]
        scales = [scale_of(c) if scale_of(c) != 1 else self._scale for c in columns]
        shorts = [_short(header_rows, i) for i in range(self.width)]
        return columns, [content_words(c) for c in columns], [years_in(c) for c in columns], shorts, scales

    def _headers_within(self) -> list[tuple[int, _Header]]:
        """The header lines written again inside the body, each over the rows below it: a line
        without a label or a figure that names a date ("|  | As of December 31, 2018 |"), and the
        unlabelled lines without figures after it ("|  | Amortized Cost | Fair Value |")."""
        out: list[tuple[int, _Header]] = []
        k = self.first
        while k < len(self.lines):
            row = self.cells(k)
            if row and not row[0].strip() and any(years_in(c) for c in row[1:]) and not _figures(row):
                rows, k = [row], k + 1
                while k < len(self.lines) and (nxt := self.cells(k)) and not nxt[0].strip() and not _figures(nxt):
                    rows.append(nxt)
                    k += 1
                out.append((k, self._read_header(rows)))
            else:
                k += 1
        return out

    def _block(self, k: int) -> _Header:
        """The header that stands over body row ``k``."""
        return next(header for first, header in reversed(self.blocks) if first <= k)

    def cells(self, k: int) -> list[str]:
        s, e = self.lines[k]
        return _split(self.text[s:e], self.sep, self.lead, self.trail)

    def body(self) -> range:
        return range(self.first, len(self.lines))

    def _sections_above(self, k: int) -> Iterator[list[str]]:
        """The section rows above row ``k``, nearest first, looked for ``SECTION_REACH`` rows up."""
        text = self.text
        for j in range(k - 1, max(self.first, k - SECTION_REACH) - 1, -1):
            s, e = self.lines[j]
            cut = text.find(self.sep, s + 1, e)
            if cut >= 0 and DIGIT_RE.search(text, cut, e):
                continue  # a row with figures: no section (the common case, told without splitting)
            row = self.cells(j)
            if _is_section(row):
                yield row

    def owner(self, k: int) -> str:
        """The label of the row that body row ``k`` says something of (``owners``), or ""."""
        if self._owners is None:
            rows = [self.cells(j) for j in self.body()]  # a row without figures (a section, a date) owns nothing
            labels = [r[0].strip() if r and _figures(r) else "" for r in rows]
            sections = [next(iter(self._sections_above(j)), [""])[0] for j in self.body()]
            self._owners = {self.first + i: o for i, o in owners(labels, sections).items()}
        return self._owners.get(k, "")

    def section(self, k: int) -> frozenset[str]:
        """The words of the nearest section row above row ``k``."""
        return next((content_words(row[0]) for row in self._sections_above(k)), frozenset())

    def totalled_words(self, k: int) -> frozenset[str]:
        """The words every label of the rows just above row ``k`` shares (up to a section, a
        header or another total; at least two rows): "Loans due from subsidiaries" of its portions."""
        shared: frozenset[str] | None = None
        count = 0
        for j in range(k - 1, max(self.first, k - SECTION_REACH) - 1, -1):
            s, e = self.lines[j]
            if is_rule(self.text[s:e]):
                break
            row = self.cells(j)
            if _is_section(row):
                break
            label = row[0].strip() if row else ""
            if not label or is_total_label(label):
                break
            words = content_words(label)
            shared = words if shared is None else shared & words
            count += 1
        return shared if shared and count >= 2 else frozenset()

    def section_years(self, k: int) -> frozenset[str]:
        """The years of the nearest section row above row ``k`` that names one ("June 30, 2019"
        over the rows of that date)."""
        return next((years for row in self._sections_above(k) if (years := years_in(row[0]))), frozenset())

    def row(self, pos: int, k: int) -> list[Place]:
        """The places of body row ``k``."""
        s, e = self.lines[k]
        text = self.text
        if k < self.first or is_rule(text[s:e]):
            return []
        row = self.cells(k)
        if _is_section(row):
            return []
        offsets, cursor = [], s
        for cell in row:
            at = text.find(cell, cursor, e + 1) if cell else cursor
            offsets.append(at if at >= 0 else cursor)
            cursor = (at if at >= 0 else cursor) + len(cell)
        labels = [c.strip() for c in row if c.strip() and not is_numeric_cell(c) and not is_zero(c)]
        if not labels and row and YEAR_RE.fullmatch(row[0].strip()):
            labels = [row[0].strip()]  # "2021 | $138 | $6": a period down the rows, not a row adding up those above
        label = " ".join(labels)
        if owner := self.owner(k):  # "Percentage of revenue" under "Product" is Product's
            label = f"{owner}: {label}"
        label_years = years_in(label)
        total = is_total_label(label) or not label  # a row of figures without a label sums the rows above
        label_words = content_words(label) if label else _TOTAL_WORDS
        row_words = label_words | self.section(k) | (self.title_words if not label else frozenset())
        if total and label_words <= _TOTAL_WORDS:  # a bare "Total" totals the rows above: it is about their subject
            row_words |= self.totalled_words(k)
        out: list[Place] = []
        columns, column_words, column_years, shorts, scales = self._block(k)
        width = len(columns)
        above: list[frozenset[str]] = []

        def dated() -> frozenset[str]:  # read once per row, only for a cell whose column names no year
            if not above:
                above.append(self.section_years(k))
            return above[0]

        for i, cell in enumerate(row):
            zero = bool(i and labels and is_zero(cell))  # "—" is zero in a report table
            if not zero and (not is_numeric_cell(cell) or (i == 0 and YEAR_RE.fullmatch(cell.strip()))):
                continue
            column = columns[i] if i < width else ""
            scale = scales[i] if i < width else 1
            if zero:
                numbers = [(0.0, offsets[i], offsets[i] + len(cell), False, 1)]
            else:
                numbers = numbers_in(text, offsets[i], offsets[i] + len(cell))
            for value, a, b, percent, own in numbers:
                out.append(
                    Place(
                        value=value,
                        scale=own if own != 1 else scale,
                        text=text[a:b].strip(),
                        evidence=pos,
                        start=a,
                        end=b,
                        kind="cell",
                        label=label,
                        column=column,
                        years=(column_years[i] if i < width else frozenset()) or label_years or dated(),
                        words=row_words | (column_words[i] if i < width else frozenset()),
                        label_words=label_words,
                        label_years=label_years,
                        short_column=shorts[i] if i < width else "",
                        unit=(s, e),
                        header=self.header,
                        total=total,
                        row=self.number * 100_000 + k,
                        percent=percent or "%" in column,
                    )  # fmt: skip
                )
        return out
