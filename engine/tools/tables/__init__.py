"""Tools over the analyst's tables (CSV files, and the tables inside Markdown, HTML and PDF
documents: see ``catalog``), computed by DuckDB.

``table_toolkit(paths, small_model=...)`` is what the registry calls: ``query_table``
(SQL) for models that can write SQL; ``aggregate_table``, ``lookup_table`` and
``compute_table`` (no SQL) for the embedded small model, which cannot; the engine plans
its ``compute_table`` call for it (``question_plan``).
"""

from __future__ import annotations

from pathlib import Path

from engine.tools.base import Tool
from engine.tools.tables.catalog import ColumnInfo, TableCatalog, TableInfo, TableLimits
from engine.tools.tables.compute_tool import ComputeTable
from engine.tools.tables.query_tool import QueryTable
from engine.tools.tables.simple_tools import AggregateTable, LookupTable

__all__ = [
    "AggregateTable",
    "ColumnInfo",
    "ComputeTable",
    "LookupTable",
    "QueryTable",
    "TableCatalog",
    "TableInfo",
    "TableLimits",
    "table_toolkit",
]


def table_toolkit(
    paths: list[Path],
    *,
    small_model: bool,
    limits: TableLimits | None = None,
    catalog: TableCatalog | None = None,
    language: str = "en",
) -> list[Tool]:
    """The table tools for these files; ``[]`` when they hold no table. A CSV that could not
    be read still yields the tools, so the model can tell the analyst why (a document is
    searched by search_docs whether or not its tables could be read).

    A small model gets the three no-SQL tools only: it cannot write SQL, and every extra
    tool description costs it prompt room and choice accuracy. Other models get
    ``query_table`` only, which covers what the simple tools do. ``compute_table`` states
    its results in ``language`` (the answer's)."""
    catalog = catalog if catalog is not None else TableCatalog.from_paths(paths, limits)
    if not len(catalog) and not catalog.problems:
        return []
    if small_model:
        return [AggregateTable(catalog), LookupTable(catalog), ComputeTable(catalog, language)]
    return [QueryTable(catalog, language)]
