"""The base of the table tools: a tool over a catalog of tables, always offered (the
analyst's own data), computing its figures, and describing the tables it can see."""

from __future__ import annotations

from typing import ClassVar

from engine.tools.base import Tool
from engine.tools.tables.catalog import TableCatalog


class CatalogTool(Tool):
    toolkit = "tables"
    always_on = True  # the analyst's own tables, like their documents, are always offered
    computes = True
    intro: ClassVar[str] = ""  # what the tool does; the table listing follows it

    def __init__(self, catalog: TableCatalog) -> None:
        self.catalog = catalog
        self.description = f"{self.intro} Tables:\n{catalog.describe()}"
