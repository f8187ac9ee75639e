"""How a table is laid out, as the planner reads it: the column naming its rows (a
report's labels) and those labels, the columns of each year ("2019", "FY19", "December
31, 2019"), the column dating its records (a date, or text such as 2025-03), a column of
quarters or of month names, and the listed values a question names. What is read from
the data is kept in the catalog's ``memo``, once per catalog."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from engine.grounding.answer_kinds import fold
from engine.grounding.dates import MONTHS
from engine.grounding.layout import pairs_as_end_years
from engine.grounding.periods_due import AFTER_YEAR, span_due, spans_due, within
from engine.grounding.report_table import COMPARISON_COLUMN
from engine.grounding.stems import words
from engine.grounding.totals import is_total_label
from engine.tools.tables.catalog import ColumnInfo, TableCatalog, TableInfo
from engine.tools.tables.label_match import HYPHENATED, label_text, label_words
from engine.tools.tables.report_cells import is_period_header, read_cell

_DATING = frozenset("year years ended ending fiscal financial as at of on for the fy".split())  # "Year ended 30 June"

LABELLED_MAX_ROWS = 5000  # a table of labelled rows is read whole; larger ones are records
UNIQUE_LABELS = 0.9  # a first text column this unique names rows; else the table holds records

PERIOD_COLUMN = re.compile(r"(?i)date|month|year|period|quarter|week|day|mois|annee|année|trimestre|semaine|jour")
DATE_VALUE = re.compile(r"\d{4}-\d{2}(?:-\d{2})?")
YEAR_IN_NAME = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)|(?i:\bfy\s?'?)(\d\d)\b")
# A column dated month/day/two-digit year ("12/31/06": 2006, "6/30/99": 1999), as a performance graph's table writes
_DATED_COLUMN = re.compile(r"^\W*[01]?\d/[0-3]?\d/(\d\d)\W*$")
QUARTER_VALUE = re.compile(r"(?i)(?:^|\W)[QT][1-4](?:\W|$)")


def column_values(info: TableInfo, column: ColumnInfo) -> list[Any]:
    return info.data.column(column.name).to_pylist()


def without_wholes(info: TableInfo, label: ColumnInfo, rows: list[str], column: ColumnInfo) -> list[str]:
    """``rows`` less each one that adds up the rows above it, directly or through subtotals,
    when one of those is among ``rows`` too: "the total revenue from Healthcare" names
    "Segment revenue" (External revenue + Inter-segment sales, External revenue the sum of
    the sectors) and "Healthcare", and a part is never added to its whole."""
    labels = [str(v).strip() if v is not None else "" for v in column_values(info, label)]
    values = column_values(info, column)
    covers: dict[int, set[int]] = {}
    for i, total in enumerate(values):
        run = 0.0
        for j in range(i - 1, -1, -1):
            if not isinstance(total, int | float) or not isinstance(values[j], int | float):
                break
            run += values[j]
            if i - j >= 2 and abs(run - total) <= max(abs(total) * 1e-4, 1e-9):
                covers[i] = set(range(j, i)).union(*(covers.get(k, set()) for k in range(j, i)))
                break
    at = {r: labels.index(r.strip()) for r in rows if r.strip() in labels}
    wholes = {r for r in at if any(at[o] in covers.get(at[r], ()) for o in at if o != r)}
    return [r for r in rows if r not in wholes]


def year_rows(labels: list[str], years: list[str], asked: set[str]) -> list[str]:
    """The row of each year asked when a table runs its periods down its rows ("Fiscal Year
    2018", "Fiscal Year 2019"), the later year first: of ``labels`` (``row_labels``: each once,
    on a row holding figures), one a year naming nothing the question does not beside its date
    ("Year ended 30 June 2019: Leasehold" for "the leasehold … from 2018 to 2019"); [] when a
    year has no such row, or several."""
    out = []
    for year in sorted(set(years), reverse=True):
        found = [row for row in labels if years_of(row) == [year] and words(_undated(row)) <= asked]
        if len(found) != 1:
            return []
        out.append(found[0])
    return out


def dated_rows(
    labels: list[str],
    rows: list[str],
    years: Sequence[str],
    question: str,
    asked: set[str],
    column_words: set[str],
    op: str | None = None,
) -> list[str] | None:
    """The rows asked of a table whose periods run down its rows: the row of each year asked
    (``year_rows``), unless the question names a row no year dates ("the non-vested shares granted
    in 2019": the year's "Granted", not "Non-vested at December 31, 2019"; a word of a hyphenated
    word or of the column asked names none), or ``rows`` are already those of the years asked
    ("As at 31 December 2019: Monetary assets, current"). A change asked of one year ("the
    net change in net revenue during 2015") is from the year before: "2015 net revenue" and
    "2014 net revenue". "Due after 2020" is the one row written for the years after ("2021 -
    thereafter"), or None; a share of one year's row is of the table's Total ("what percentage of
    the payments are due in 2018", "the percent of the total debt maturities due in 2009": a Total
    named is the whole, no row asked). ``asked``: the question's words without its years."""
    if op in ("change", "percent_change") and len(years) == 1:
        years = [years[0], str(int(years[0]) - 1)]
    apart = words(HYPHENATED.sub(" ", question)) - column_words
    of_total = op == "share" and bool(rows) and all(is_total_label(r) for r in rows)  # "the total debt": the whole
    if not of_total and any(not years_of(r) and label_words(r) <= apart for r in rows):
        return rows
    if rows and {y for r in rows for y in years_of(r)} == set(years):
        return rows
    dated = year_rows(labels, list(years), asked) or rows
    if of_total and dated == rows:
        return None  # the years asked date no row: the whole alone is no share
    if AFTER_YEAR.search(question):
        later = [r for r in labels if LATER.search(fold(r))]
        if len(later) != 1 or len(dated) != 1:
            return None
        dated = later
    if op == "share" and len(dated) == 1 and (totals := [r for r in labels if is_total_label(r)]):
        dated = [dated[0], totals[-1]]
    return dated


LATER = re.compile(r"\b(?:thereafter|after|beyond|later)\b")  # "2021 - thereafter", "Thereafter", "Later years"


def _undated(label: str) -> str:
    """A row label without the date it is dated by: "Year ended 30 June 2019: Leasehold" → "Leasehold"."""
    text = fold(YEAR_IN_NAME.sub(" ", label_text(label)))
    return " ".join(w for w in text.split() if w not in MONTHS and w not in _DATING and not w.isdigit())


def years_of(name: str) -> list[str]:
    """The years a column name holds: "2019", "December 31, 2019", "FY19", "12/31/06"; a fiscal
    year over two calendar years ("2018/2019", "2018/19") is its last year."""
    if dated := _DATED_COLUMN.match(name):
        return [f"{19 if int(dated.group(1)) >= 50 else 20}{dated.group(1)}"]
    return [full or f"20{short}" for full, short in YEAR_IN_NAME.findall(pairs_as_end_years(name))]


def period_name(name: str) -> str:
    """The period a column is named by, as the column writes it: "FY19", "2018/2019", the
    "2019" of "Year Ended December 31, · 2019"; the name itself when it holds no year."""
    found = list(YEAR_IN_NAME.finditer(name))
    if not found:
        return name
    last = found[-1]
    paired = len(found) > 1 and name[found[-2].end() : last.start()].strip() == "/"
    return name[(found[-2] if paired else last).start() : last.end()].strip()


def label_column(info: TableInfo, catalog: TableCatalog) -> ColumnInfo | None:
    """The first text column, when its values name the rows: nearly all distinct, or
    beside columns named by years (a report's table); not a column of figures kept as text."""
    key = ("label_column", info.name)
    if key not in catalog.memo:
        found = None
        texts = [c for c in info.columns if c.kind == "text"]
        numbers = [c for c in info.columns if c.kind == "number"]
        if texts and numbers and info.rows <= LABELLED_MAX_ROWS:
            values = [v for v in column_values(info, texts[0]) if v not in (None, "")]
            unique = bool(values) and len(set(values)) >= UNIQUE_LABELS * len(values)
            figures = all(read_cell(str(v)).kind in ("number", "zero") and not is_period_header(str(v)) for v in values)
            found = texts[0] if (unique or year_columns(numbers)) and not figures else None  # "$17,430.8", "(184.1)"
        catalog.memo[key] = found
    return catalog.memo[key]


def figure_rows(info: TableInfo, numbers: list[ColumnInfo]) -> list[bool]:
    """For each row, whether it holds a figure in one of ``numbers`` (a heading holds none)."""
    return [any(v is not None for v in row) for row in zip(*(column_values(info, c) for c in numbers), strict=True)]


def filled_at(info: TableInfo, label: ColumnInfo, rows: list[str]) -> Callable[[ColumnInfo], bool]:
    """Whether a column holds a figure at each of ``rows`` (none named: no column does)."""
    keys = [str(v).strip() if v is not None else "" for v in column_values(info, label)]

    def filled(col: ColumnInfo) -> bool:
        held = {k for k, v in zip(keys, column_values(info, col), strict=True) if v is not None}
        return bool(rows) and all(r in held for r in rows)

    return filled


def row_labels(info: TableInfo, label: ColumnInfo, numbers: list[ColumnInfo], catalog: TableCatalog) -> list[str]:
    """The row labels a question can name: each once in the table, on a row holding a figure."""
    key = ("labels", info.name)
    if key not in catalog.memo:
        catalog.memo[key] = read_labels(info, label, numbers)
    return catalog.memo[key]


def read_labels(info: TableInfo, label: ColumnInfo, numbers: list[ColumnInfo]) -> list[str]:
    texts = [str(v).strip() if v is not None else "" for v in column_values(info, label)]
    held = figure_rows(info, numbers)
    counts: dict[str, int] = {}
    for text in texts:
        counts[text] = counts.get(text, 0) + 1
    return [t for t, figures in zip(texts, held, strict=True) if t and figures and counts[t] == 1]


def date_column(info: TableInfo) -> ColumnInfo | None:
    """A column dating the rows: a date, or text such as 2025-03 under a period name."""
    for col in info.columns:
        if col.kind == "date":
            return col
    for col in info.columns:
        if col.kind == "text" and PERIOD_COLUMN.search(col.name):
            sample = [v for v in column_values(info, col)[:20] if v]
            if sample and all(DATE_VALUE.match(str(v)) for v in sample):
                return col
    return None


def quarter_column(info: TableInfo) -> ColumnInfo | None:
    """A text column of quarters ("Q2", "T2", "2025-Q2")."""
    return next(
        (
            c
            for c in info.columns
            if c.kind == "text" and c.examples and all(QUARTER_VALUE.search(v) for v in c.examples)
        ),
        None,
    )


def month_value(info: TableInfo, month: int) -> tuple[ColumnInfo, str] | None:
    """A text column of month names and its value for ``month`` ("March", "mars")."""
    for col in info.columns:
        names = {MONTHS.get(fold(v).strip(".")) for v in col.examples} if col.kind == "text" else set()
        if col.examples and None not in names:
            return next(((col, v) for v in col.examples if MONTHS.get(fold(v).strip(".")) == month), None)
    return None


def named_values(question: str, info: TableInfo) -> list[tuple[ColumnInfo, str]]:
    """(column, value) for every listed value of a text column that the question names.
    Short values ("IT", "Q2") must stand in the question as written; longer ones are
    matched without case or accents, as whole words."""
    folded = fold(question)
    found = []
    for col in info.columns:
        for value in col.examples:
            if len(value) < 2:
                continue
            if len(value) <= 3:
                hit = re.search(rf"(?<!\w){re.escape(value)}(?!\w)", question)
            else:
                hit = re.search(rf"(?<!\w){re.escape(fold(value))}(?!\w)", folded)
            if hit:
                found.append((col, value))
    return found


def period_columns(numbers: list[ColumnInfo]) -> list[ColumnInfo]:
    """The columns of a period, in the table's order: those naming a year, but not a
    comparison of two ("2019 vs. 2018")."""
    return [c for c in numbers if years_of(c.name) and not COMPARISON_COLUMN.search(c.name)]


def _column_words(col: ColumnInfo) -> set[str]:
    return words(YEAR_IN_NAME.sub(" ", label_text(col.name)))


def year_columns(
    numbers: list[ColumnInfo],
    question: str = "",
    percent: bool | None = None,
    row_words: frozenset[str] = frozenset(),
    filled: Callable[[ColumnInfo], bool] | None = None,
) -> dict[str, ColumnInfo | None]:
    """The column of each year; None when several columns hold a year ("Pension 2018",
    "Other 2018") and the question's words do not pick one. When ``percent`` is False (the
    question asks no percentage), a year's percent columns ("2019 · % of revenues") are
    left out first, so "2019 · RMB" is its column; when it is True, they are the ones kept.

    Words the rows hold (``row_words``) do not pick a column: in "Cash dividends within
    Appropriation of earnings", "cash dividends" names the row, not the column "Cash
    dividend per share". When no word picks one, the one column ``filled`` at the rows
    asked is the year's ("Legal reserve" has a 2019 figure only under "Appropriation")."""
    held: dict[str, list[ColumnInfo]] = {}
    for col in numbers:
        if COMPARISON_COLUMN.search(col.name):
            continue  # "2019 vs. 2018 · Variance in Percent" compares two years: it is neither
        for year in years_of(col.name):
            held.setdefault(year, []).append(col)
    asked = words(question)
    by_year: dict[str, ColumnInfo | None] = {}
    for year, cols in held.items():
        if len(cols) > 1 and percent is False:  # an amount asked: not the year's percent column
            cols = [c for c in cols if not (c.unit == "%" or "%" in c.name)] or cols
        elif len(cols) > 1 and percent:  # "the percent of total sales": the year's percent column
            cols = [c for c in cols if c.unit == "%" or "%" in c.name] or cols
        if len(cols) > 1:
            named = [c for c in cols if _column_words(c) & asked]
            if len(named) > 1:
                named = [c for c in named if (_column_words(c) - row_words) & asked] or named
            if len(named) > 1:  # "the total gross goodwill": the word that tells "Gross Goodwill" from "Net Goodwill"
                common = frozenset.intersection(*(frozenset(_column_words(c)) for c in named))
                named = [c for c in named if (_column_words(c) - common - row_words) & asked] or named
            if len(named) != 1 and filled is not None:
                named = [c for c in (named or cols) if filled(c)]
            cols = named if len(named) == 1 else [None]
        by_year[year] = cols[0]
    return by_year


PERIOD_DIMENSIONS = frozenset("year years fy annee month mois quarter trimestre period periode".split())
_FISCAL_TOKEN = re.compile(r"(?i)FY'?(?:19|20)?\d\d|fiscal|years?|end(?:ed|ing)|quarters?|months?")  # periods, no names


def without_words(text: str, values: list[str]) -> str:
    """``text`` without the words of ``values`` (the rows or filter values it names)."""
    taken = {w for v in values for w in words(v)}
    return " ".join(t for t in text.split() if not words(t) & taken)


def unknown_names(
    question: str, info: TableInfo, filters: list[dict[str, Any]] = (), held: frozenset[str] = frozenset()
) -> list[str]:
    """The names the question gives (capitalised words inside it) that are neither a filter value,
    a column, a month, a quarter nor one of the ``held`` words of this table."""
    known = {w for f in filters if "value" in f for w in words(f["value"])} | held
    known |= {w for c in info.columns for w in words(label_text(c.name))} | words(info.source) | words(info.caption)
    out = []
    for token in re.findall(r"(?<=\s)[A-ZÀ-Ý][\w'-]{2,}", question):
        if (
            fold(token) not in MONTHS
            and not words(token) <= known
            and not QUARTER_VALUE.search(token)
            and not _FISCAL_TOKEN.fullmatch(token)
        ):
            out.append(token)
    return out


def columns_due(question: str, numbers: list[ColumnInfo]) -> list[ColumnInfo]:
    """The columns of payments due that make up the span of years the question asks, in order
    ("within 5 years": up to 1, 1 to 3 and 3 to 5 years), or [] when they do not make it up."""
    named = spans_due(question)
    asked = named[0] if len(named) == 1 else None  # "less than one year and between 2-5 years": two, none planned
    spans = (
        [(span, c) for c in numbers if (span := span_due(c.name)) is not None and within(span, asked)] if asked else []
    )
    spans.sort(key=lambda sc: sc[0])
    ends = [asked[0] if asked else 0.0, *(span[1] for span, _ in spans)]
    joined = all(span[0] == end for (span, _), end in zip(spans, ends, strict=False))
    return [c for _, c in spans] if spans and joined and asked and ends[-1] == asked[1] else []


def total_of(row: str, question: str) -> bool:
    """Whether the question writes "total" right before the row's first word ("total flight attendants")."""
    first = re.findall(r"[a-z0-9]+", fold(row))[:1]
    return bool(first) and re.search(rf"\btotal {first[0]}", fold(question)) is not None


_TOTAL_OF = re.compile(
    r"\btotal (?:amount of |value of )?(?:the )?([a-z][\w -]*)"
    r"|\b(?:percent(?:age)?|portion|share|proportion|fraction) of (?:the )?([a-z][\w -]*?) (?:is|are|was|were|will be) "
    r"(?:due|payable|scheduled|to be paid)\b"
)  # "… in the total operating leases"; "what percentage of long-term debt is due after 2021": of the row's Total


def row_whole(question: str, rows: list[str], part: ColumnInfo, numbers: list[ColumnInfo]) -> ColumnInfo | None:
    """The row's own Total column, when a share is of "the total <the row>": in "the operating
    leases of more than 5 years in the total operating leases" the whole is Operating leases'
    Total, not the Total row's figure in the same column; so too in "what percentage of
    long-term debt is due after 2021"."""
    named = [r for r in rows if not is_total_label(r)]
    said = _TOTAL_OF.search(fold(question))
    if len(named) != 1 or not said or not label_words(named[0]) <= words(said.group(1) or said.group(2)):
        return None
    wholes = [c for c in numbers if is_total_label(c.name) and c is not part]
    return wholes[0] if len(wholes) == 1 and not is_total_label(part.name) else None


def total_whole(
    row: str, subject: frozenset[str], info: TableInfo, label: ColumnInfo, column: ColumnInfo
) -> str | None:
    """The table's one Total row as the whole of a share asked of one row, when the question's
    other words name what the table is of, in its lead or the header over its columns ("what
    portion of the revised purchase price of kichler is dedicated to goodwill?": the Total of
    "the allocation of the acquisition of kichler", column Revised). None when the Total is 100
    (each row is its share) or the table has several rows named "Total" (which one is not said)."""
    names = [str(v).strip() for v in column_values(info, label)]
    bare = [i for i, name in enumerate(names) if fold(name).strip(" :.") == "total"]
    if is_total_label(row) or len(bare) != 1 or column_values(info, column)[bare[0]] in (None, 100):
        return None
    rest = subject - label_words(row) - label_words(column.name)
    return names[bare[0]] if rest & words(info.caption) else None
