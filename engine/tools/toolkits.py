"""Which tools a run gets: the always-on general toolkit, the theme's search_docs, the
table tools over its CSV files and attachments, and the real-time MCP tools. The
context routes among them per question."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from engine.tools.ask_user import AskUser
from engine.tools.base import Tool, ToolRegistry
from engine.tools.calculator import Calculator
from engine.tools.general import DateTimeTool, Statistics, TextTools, UnitConverter

if TYPE_CHECKING:
    from engine.context import EngineContext


def general_toolkit() -> list[Tool]:
    return [Calculator(), AskUser(), Statistics(), TextTools(), DateTimeTool(), UnitConverter()]


def theme_toolkit(context: EngineContext, theme: str | None, attachments_index: Path | None = None) -> list[Tool]:
    """search_docs over the theme, and search_attachments over the conversation's own files."""
    from engine.tools.theme import SearchDocs

    tools: list[Tool] = [SearchDocs(theme, lambda: context.indexes)] if theme else []
    if attachments_index is not None:
        tools.append(SearchDocs("attachments", context.indexes_at(attachments_index), name="search_attachments"))
    return tools


def table_tools(
    context: EngineContext, theme: str | None, attachments: list[Path], small_model: bool, language: str = "en"
) -> list[Tool]:
    """Tools over the theme's tables and the conversation's attached files, whose tables come first."""
    from engine.tools.tables import table_toolkit

    paths = ([context.settings.themes_root / theme] if theme else []) + list(attachments)
    if not paths:
        return []
    catalog = context.table_catalog(paths, preferred=list(attachments))
    return table_toolkit(paths, small_model=small_model, catalog=catalog, language=language)


def builtin_names() -> frozenset[str]:
    """Every built-in tool's name, whatever the theme: reserved, an MCP tool never takes one."""
    from engine.tools.tables.compute_tool import ComputeTable
    from engine.tools.tables.query_tool import QueryTable
    from engine.tools.tables.simple_tools import AggregateTable, LookupTable

    kinds = (Calculator, AskUser, Statistics, TextTools, DateTimeTool, UnitConverter)
    tables = (QueryTable, AggregateTable, LookupTable, ComputeTable)
    return frozenset(k.name for k in (*kinds, *tables)) | {"search_docs", "search_attachments"}


def realtime_tools(context: EngineContext, taken: Iterable[str] = (), token: str | None = None) -> list[Tool]:
    """The MCP tools; with the engine's ``token``, the servers that take it are reached with it."""
    from engine.tools.mcp_tools import realtime_toolkit

    token_hub = context.hub_for(token) if token else None
    return realtime_toolkit(context.hub, builtin_names() | set(taken), token_hub)


def build_registry(
    context: EngineContext,
    theme: str | None = None,
    *,
    attachments: list[Path] = (),
    attachments_index: Path | None = None,
    small_model: bool = False,
    language: str = "en",
    token: str | None = None,
) -> ToolRegistry:
    """The tools for one run, offered through the context's router."""
    tools = general_toolkit() + theme_toolkit(context, theme, attachments_index)
    tools += table_tools(context, theme, list(attachments), small_model, language)
    tools += realtime_tools(context, {t.name for t in tools}, token)
    return ToolRegistry(tools, routed=True)
