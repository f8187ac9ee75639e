"""The tables of one document (Markdown, HTML, PDF) as Arrow tables, ready for the catalog.

Each table found by ``doc_tables`` is read by ``report_reader`` (header, row labels,
periods, units, Total rows) and becomes an Arrow table with typed columns: the label
column as text, figures as doubles, and the boolean ``is_total``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.grounding.units import sentence_spans
from engine.rag.readers import UnreadableFile, read_bytes
from engine.tools.tables.doc_tables import DocumentLimits, document_grids
from engine.tools.tables.report_reader import ReportTable, read_grid

_SQL_TYPES = {"text": "VARCHAR", "number": "DOUBLE", "bool": "BOOLEAN"}


@dataclass(frozen=True)
class DocumentTable:
    position: int  # 1-based, in the document's order
    location: str  # "table 2", "page 3, table 1"
    report: ReportTable
    data: Any  # a pyarrow.Table
    types: list[str]  # the DuckDB type of each column
    lead: str = ""  # the sentence that introduces it ("Property and equipment, net … consists of the following:")


def _arrow(report: ReportTable) -> tuple[Any, list[str]]:
    import pyarrow as pa

    arrow_types = {"text": pa.string(), "number": pa.float64(), "bool": pa.bool_()}
    arrays = [pa.array(c.values, type=arrow_types[c.kind]) for c in report.columns]
    data = pa.Table.from_arrays(arrays, names=[c.name for c in report.columns])
    return data, [_SQL_TYPES[c.kind] for c in report.columns]


def document_tables(
    path: Path, max_bytes: int, limits: DocumentLimits | None = None, language: str = "en"
) -> tuple[list[DocumentTable], list[str]]:
    """The figure tables of the document at ``path`` and one sentence per table or file refused.
    Tables without a figure (layout, lists of names) are left to document search."""
    try:
        data = read_bytes(path, path.name, max_bytes)
    except UnreadableFile as exc:
        return [], [str(exc)]
    grids, problems = document_grids(path.name, path.suffix, data, limits, language)
    tables = []
    for grid in grids:
        report = read_grid(grid.rows, grid.lead)
        if report is None or not report.rows:
            continue
        arrow, types = _arrow(report)
        tables.append(DocumentTable(grid.position, grid.location, report, arrow, types, last_sentence(grid.lead)))
    return tables, problems


def last_sentence(text: str) -> str:
    """The last sentence of ``text``: of the paragraph before a table, the one that introduces it."""
    spans = [(a, b) for a, b in sentence_spans(text, 0, len(text)) if text[a:b].strip()]
    return text[spans[-1][0] : spans[-1][1]].strip() if spans else ""
