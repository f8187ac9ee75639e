"""``query_table``: one read-only SQL SELECT over the analyst's tables, run by DuckDB."""

from __future__ import annotations

from pydantic import BaseModel, Field

from engine.tools.results import ToolResult
from engine.tools.tables.catalog import TableCatalog
from engine.tools.tables.catalog_tool import CatalogTool
from engine.tools.tables.messages import say
from engine.tools.tables.render import table_data, text_table
from engine.tools.tables.sandbox import run_select, single_select


class QueryTableArgs(BaseModel):
    sql: str = Field(..., description=say("arg_query_table_sql"))


class QueryTable(CatalogTool):
    name = "query_table"
    Args = QueryTableArgs
    intro = say("describe_query_table")

    def __init__(self, catalog: TableCatalog, language: str = "en") -> None:
        super().__init__(catalog)
        self.language = language  # of its sentences about a query stopped or cut

    def run(self, args: QueryTableArgs) -> ToolResult:
        sql = single_select(args.sql, self.catalog.limits)
        out = run_select(self.catalog, sql, language=self.language)
        title = " ".join(sql.split())[:120]
        return ToolResult(text=text_table(out, self.catalog.limits), table=table_data(out, title=title), computed=True)
