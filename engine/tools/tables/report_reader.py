"""A report table's grid of cell texts, read as a table: header, row labels, periods,
units and Total rows.

Reports write headers over several rows ("December 31," over "2019 | 2018", "Group"
over "2019 | 2018" over "£m | £m"). The rows above the first row holding a figure are
the header. A header row with one text over every column is a caption; a row of unit
cells ("$M", "%", "$'000") gives units, not names; the other rows are joined per column,
top down ("Group | 2019"), a text that stands over several columns spanning them. The
first column holds the row labels unless it holds figures. A row with a label and no
figure opens a section ("Deferred tax assets:"), kept in a ``section`` column. A row whose
figures carry a unit their column does not ("Margin", "12.5%") says so in ``row_unit``.

Which rows are Totals or subtotals, and how an unlabelled one is named, is
``report_totals.py``. Every row gets ``is_total``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from engine.grounding.layout import SPACED_YEAR_RE, YEAR_RE
from engine.grounding.report_table import COMPARISON_COLUMN, label_key, owners, spread_header
from engine.grounding.totals import is_total_label
from engine.tools.tables.naming import HEADER_JOIN, column_labels
from engine.tools.tables.report_cells import (
    CONTINENTAL,
    Scale,
    counted_unit,
    currency_in,
    is_period_header,
    is_unit_only,
    lead_unit,
    periods_in,
    read_cell,
    scale_in,
)
from engine.tools.tables.report_totals import totals, unlabelled_totals

Role = Literal["label", "section", "row_unit", "value", "total_value", "total_flag"]
LABEL = "item"
SECTION = "section"
TOTAL = "is_total"
_FOOTNOTE_MARK = re.compile(r"\s*\((?:\d{1,2}|[a-z])\)$")
_QUARTER = re.compile(r"\b(Q[1-4]|H[12])\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_MAX_LABEL_HEADER = 60
_RATIOS = ("%", "pts", "bps", "x", "th", "years", "months", "days")  # units whose figures do not add up
_FISCAL = re.compile(r"(?<!\d)((?:19|20)\d{2})\s?/\s?((?:19|20)?\d{2})(?!\d)")
ROW_UNIT = "row_unit"
_NOTE_COLUMN = re.compile(r"(?i)\s*(?:notes?|note\s+ref(?:erence)?|ref(?:erence)?|notes? no\.?)\s*")
_PERCENT_LABEL = re.compile(r"\(%\)|\(percent\)|\bin %|%$", re.IGNORECASE)


@dataclass(frozen=True)
class ReportColumn:
    name: str
    kind: Literal["text", "number", "bool"]
    values: list[Any]
    role: Role = "value"
    unit: str = ""  # "%", "pts", "x", or "" (the table's scale applies)
    period: str = ""  # "2019", "Q1 2020": the one period its header names


@dataclass(frozen=True)
class ReportTable:
    columns: list[ReportColumn]
    scale: Scale = ""
    currency: str = ""
    caption: str = ""
    unparsed: list[str] = field(default_factory=list)  # value cells with digits left as text

    @property
    def rows(self) -> int:
        return len(self.columns[0].values) if self.columns else 0

    def column(self, name: str) -> ReportColumn:
        return next(c for c in self.columns if c.name == name)


def _unspaced(cell: str) -> str:
    """A year cell whose digits a PDF extraction set apart ("2 0 1 8") as the year it is."""
    return SPACED_YEAR_RE.sub(lambda m: m.group(1).replace(" ", "") + m.group(2) + m.group(3), cell)


def _clean(grid: list[list[Any]]) -> list[list[str]]:
    """Cells as single-spaced text, rows padded, empty rows and columns dropped."""
    rows = [[_unspaced(" ".join(str(c).split())) if c is not None else "" for c in row] for row in grid]
    width = max((len(r) for r in rows), default=0)
    rows = [r + [""] * (width - len(r)) for r in rows if any(r)]
    keep = [j for j in range(width) if any(r[j] for r in rows)]
    return [[r[j] for j in keep] for r in rows]


def _is_figure(text: str) -> bool:
    return read_cell(text).kind in ("number", "zero") and not is_period_header(text)


_FOOTNOTED_YEAR = re.compile(r"((?:19|20)\d\d)([1-9])")  # "20181": 2018 with its footnote 1


def _footnoted_years(row: list[str]) -> list[str]:
    """A row of years where one carries a footnote mark glued to it ("2015", "2016",
    "20181", "2019") with the mark set apart ("2018 (1)"), so it reads as the year it is
    and the row as a header, not as a row of figures."""
    texts = [c for c in row if c]
    if not any(YEAR_RE.fullmatch(c) for c in texts) or not any(_FOOTNOTED_YEAR.fullmatch(c) for c in texts):
        return row
    if not all(YEAR_RE.fullmatch(c) or _FOOTNOTED_YEAR.fullmatch(c) for c in texts[1:]):
        return row
    return [_FOOTNOTED_YEAR.sub(r"\1 (\2)", c) if _FOOTNOTED_YEAR.fullmatch(c) else c for c in row]


def _once(text: str) -> str:
    """A header text written twice in one cell ("Appropriation of earnings Appropriation of
    earnings"), as an extraction writes a cell merged over two columns, read once."""
    words = text.split()
    half = len(words) // 2
    return " ".join(words[:half]) if half and len(words) % 2 == 0 and words[:half] == words[half:] else text


def _header_rows(rows: list[list[str]], first_value: int) -> int:
    count = 0
    for i, row in enumerate(rows):
        values = row[first_value:]
        if any(_is_figure(c) for c in values):
            break
        if i > 0 and first_value and row[0] and not any(values) and not scale_in(row[0]):
            break  # a section row: "Deferred tax assets:" (a unit alone, "(In millions)", is header)
        count = i + 1
    if count >= len(rows):
        return 1  # no row holds a figure: the first row names the columns
    return count


def _first_value_column(rows: list[list[str]]) -> int:
    """1 when the first column holds row labels, 0 when it holds figures."""
    width = len(rows[0])
    if width < 2:
        return 0
    firsts = [r[0] for r in rows[1:] if r[0]]
    figures = sum(1 for c in firsts if _is_figure(c))
    return 0 if firsts and figures * 2 > len(firsts) else 1


def _column_values(
    cells: list[str], continental: bool
) -> tuple[Literal["text", "number"], list[Any], str, str, list[str], list[str]]:
    """(kind, values, unit mark, currency, unparsed, each cell's mark) of one value column. A column is numeric when
    every cell holding a digit reads as a number; cells without a digit there ("n/a", "see
    note") hold no figure and become empty."""
    readings = [read_cell(c, continental) for c in cells]
    bad = [c for c, r in zip(cells, readings, strict=True) if r.kind == "text" and _DIGIT.search(c)]
    if bad or not any(r.kind in ("number", "zero") for r in readings):
        return "text", [c or None for c in cells], "", "", bad, [""] * len(cells)
    marks = {r.unit for r in readings if r.kind == "number"}
    currencies = {r.currency for r in readings if r.currency}
    unit = marks.pop() if len(marks) == 1 else ""
    currency = currencies.pop() if len(currencies) == 1 else ""
    return (
        "number",
        [r.value for r in readings],
        unit,
        currency,
        [],
        [r.unit if r.kind == "number" else "" for r in readings],
    )


def _keyed(labels: list[str], sections: list[str]) -> list[str]:
    """Row labels as keys: a label written in several sections ("Wireless" under "Revenue" and
    under "Adjusted EBITDA") is named with its section there ("Revenue: Wireless"), so each
    row can be asked for by name."""
    where: dict[str, set[str]] = {}
    for label, section in zip(labels, sections, strict=True):
        where.setdefault(label_key(label), set()).add(section)
    keyed = [
        f"{section}: {label}" if label and section and len(where[label_key(label)]) > 1 else label
        for label, section in zip(labels, sections, strict=True)
    ]
    return _attached(keyed)


def _attached(labels: list[str]) -> list[str]:
    """A label written again under each of several rows says something of the row above it:
    it is named with that row ("Product: Percentage of revenue"; ``owners``)."""
    above = owners(labels)
    return [f"{above[i]}: {label}" if i in above else label for i, label in enumerate(labels)]


def _row_units(
    labels: list[str], marks: list[list[str]], column_units: list[str], names: list[str], counted: bool = False
) -> list[str]:
    """The unit of each row whose figures carry one their columns do not ("Margin": "12.5%"
    in a column of $ thousands), or that its label names ("Group ROCE (%)"); the marks of
    comparison columns are not the row's. ``counted``: the table's scale is stated for share
    counts only, and a row of shares is in "shares", not the amounts' scale."""
    out = []
    own_columns = [not COMPARISON_COLUMN.search(n) for n in names]
    for i, label in enumerate(labels):
        own = {
            m[i] for m, unit, kept in zip(marks, column_units, own_columns, strict=True) if m[i] and not unit and kept
        }
        if len(own) == 1:
            out.append(own.pop())
        elif _PERCENT_LABEL.search(label or ""):
            out.append("%")
        elif counted and _SHARE_COUNT.search(label or ""):
            out.append("shares")
        else:
            out.append(_duration(label or ""))  # "Weighted average life (in years)"
    return out


_SHARE_COUNT = re.compile(r"(?i)\bshares\b(?!.*\bper\b)|\bdilutive securities\b")
_DURATION_NAMED = re.compile(r"\(\s*(?:in\s+)?(year|month|day)s?\s*\)|\b(?:in|en)\s+(year|month|day)s\b", re.I)


def _duration(name: str) -> str:
    """ "years", "months" or "days" when ``name`` states its figures are in them, else ""."""
    found = _DURATION_NAMED.search(name)
    return f"{(found.group(1) or found.group(2)).lower()}s" if found else ""


def _named_unit(name: str) -> str:
    """The unit a column's name states for its figures: "%" ("Share (%)"), or a duration
    ("Weighted average estimated life (in years)"), which the table's "(dollars in millions)" is not."""
    if re.search(r"%|\bpercent", name, re.IGNORECASE):
        return "%"
    return _duration(name)


def _period(parts: list[str]) -> str:
    text = " ".join(parts)
    fiscal = _FISCAL.search(text)
    if fiscal and int(fiscal.group(2)[-2:]) == (int(fiscal.group(1)) + 1) % 100:  # "2017/2018", "2018/19"
        return f"{fiscal.group(1)}/{fiscal.group(2)}"
    years = sorted(set(periods_in(text)))
    if len(years) != 1:
        return ""
    quarter = _QUARTER.search(text)
    return f"{quarter.group(1).upper()} {years[0]}" if quarter else years[0]


def read_grid(grid: list[list[Any]], lead: str = "") -> ReportTable | None:
    """The table a grid of cell texts holds; None when it holds no figure (a layout table,
    a list of names), which is left to document search. ``lead`` is the text that introduces
    the table: its unit ("… are as follows (in thousands):") holds when no cell states one."""
    rows = [_footnoted_years(r) for r in _clean(grid)]
    if len(rows) < 2 or len(rows[0]) < 2:
        return None
    first = _first_value_column(rows)
    header_count = _header_rows(rows, first)
    header, body = rows[:header_count], rows[header_count:]
    n_values = len(rows[0]) - first
    names: list[list[str]] = [[] for _ in range(n_values)]
    units = [""] * n_values
    label_parts: list[str] = []
    captions: list[str] = []
    scales: list[str] = []
    currencies: list[str] = []
    for i, row in enumerate(header):
        cells = [_once(c) for c in row[first:]]
        below = [_once(c) for c in header[i + 1][first:]] if i + 1 < len(header) else None
        texts = [c for c in cells if c]
        if first and row[0]:
            scales.append(scale_in(row[0]))
            currencies.append(currency_in(row[0]) if scales[-1] else "")
            if not is_unit_only(row[0]):
                label_parts.append(row[0])
        if not texts:
            continue
        if n_values >= 2 and len(set(texts)) == 1 and len(texts) in (1, n_values):
            captions.append(texts[0])
            scales.append(scale_in(texts[0]))
            currencies.append(currency_in(texts[0]) if scales[-1] else "")
            continue
        if all(is_unit_only(c) for c in texts):
            apart = len({currency_in(c) for c in texts}) > 1  # "€ | US$": the currency is what tells the columns apart
            for j, c in enumerate(cells):
                scales.append(scale_in(c))
                currencies.append(currency_in(c))
                if c and scale_in(c) == "percent":
                    units[j] = "%"
                if c and apart:
                    names[j].append(c)
            continue
        for j, c in enumerate(spread_header(cells, below)):
            if c and (not names[j] or names[j][-1] != c):
                names[j].append(c)
            scales.append(scale_in(c) if is_unit_only(c) else "")
    scale = next((s for s in scales if s and s != "percent"), "")
    currency = next((c for c in currencies if c), "")
    stated = lead_unit(lead) if not scale else ""
    if (lead_scale := scale_in(stated)) not in ("", "percent"):
        scale, currency = lead_scale, currency or currency_in(stated)
    labels = [r[0] for r in body] if first else [""] * len(body)
    sections: list[str] = []
    data_rows: list[list[str]] = []
    data_labels: list[str] = []
    closing: list[bool] = []
    section = heading = ""
    under = False  # the row before was a heading too: "June 30, 2019" over "Financial Assets:"
    for label, row in zip(labels, body, strict=True):
        if first and label and not any(row[first:]):
            heading = label.rstrip(":").strip()
            section = f"{section}: {heading}" if under and section else heading
            under = True
            continue
        under = False
        closes = bool(section) and label_key(label) == label_key(heading)
        sections.append(section)
        closing.append(closes)
        data_rows.append(row[first:])
        data_labels.append(label)
        if closes:  # "Revenue" written again with its figures: the section's total, and its end
            section = ""
    if not data_rows:
        return None
    continental = any(CONTINENTAL.search(c) for r in data_rows for c in r)
    caption_period = _period(captions)
    value_columns: list[ReportColumn] = []
    numeric: list[list[float | None]] = []
    texts: list[list[str]] = []
    unparsed: list[str] = []
    row_marks: list[list[str]] = []
    for j in range(n_values):
        cells = [r[j] for r in data_rows]
        kind, values, mark, cell_currency, bad, cell_marks = _column_values(cells, continental)
        name = HEADER_JOIN.join(_FOOTNOTE_MARK.sub("", p) for p in names[j]) or f"column_{j + first + 1}"
        if _NOTE_COLUMN.fullmatch(name):  # "Note | 3": where a row is explained, no figure of it
            kind, values, bad = "text", [c or None for c in cells], []
        unparsed += bad
        if kind == "number":
            numeric.append(values)
            texts.append(cells)
            row_marks.append(cell_marks)
            mark = mark or units[j] or _named_unit(name)
            currency = currency or cell_currency
        role: Role = "total_value" if is_total_label(name) else "value"
        period = _period(names[j]) or caption_period
        value_columns.append(ReportColumn(name, kind, values, role, mark if kind == "number" else "", period))
    if not numeric:
        return None
    additive = [i for i, c in enumerate(c for c in value_columns if c.kind == "number") if c.unit not in _RATIOS]
    additive = additive if first else []  # without row labels, no row is "unlabelled"
    marks = totals(data_labels, [numeric[i] for i in additive], [texts[i] for i in additive], closing, sections)
    data_labels, sections = unlabelled_totals(data_labels, marks, sections)
    data_labels = _keyed(data_labels, sections)
    columns: list[ReportColumn] = []
    if first:
        label_name = HEADER_JOIN.join(label_parts)
        if not label_name or len(label_name) > _MAX_LABEL_HEADER or _DIGIT.search(label_name):
            captions += [label_name] if label_name else []
            label_name = LABEL
        columns.append(ReportColumn(label_name, "text", [x or None for x in data_labels], "label"))
    if any(sections):
        columns.append(ReportColumn(SECTION, "text", [s or None for s in sections], "section"))
    numbers = [c for c in value_columns if c.kind == "number"]
    per_row = _row_units(
        data_labels, row_marks, [c.unit for c in numbers], [c.name for c in numbers], counted_unit(lead)
    )
    if any(per_row):
        columns.append(ReportColumn(ROW_UNIT, "text", [u or None for u in per_row], "row_unit"))
    columns += value_columns
    columns.append(ReportColumn(TOTAL, "bool", marks, "total_flag"))
    unique = column_labels([c.name for c in columns])
    columns = [replace(c, name=u) if u != c.name else c for c, u in zip(columns, unique, strict=True)]
    if not scale and all(c.unit == "%" for c in value_columns if c.kind == "number"):
        scale = "percent"
    return ReportTable(columns, scale, currency, " ".join(captions)[:200], unparsed)  # type: ignore[arg-type]
