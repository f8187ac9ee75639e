"""Which tools a run gets: the always-on general toolkit, the theme's search_docs,
and the real-time MCP tools. The context routes among them per question."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.tools.ask_user import AskUser
from engine.tools.base import Tool, ToolRegistry
from engine.tools.calculator import Calculator
from engine.tools.general import DateTimeTool, Statistics, TextTools, UnitConverter

if TYPE_CHECKING:
    from engine.context import EngineContext


def general_toolkit() -> list[Tool]:
    return [Calculator(), AskUser(), Statistics(), TextTools(), DateTimeTool(), UnitConverter()]


def theme_toolkit(context: EngineContext, theme: str | None) -> list[Tool]:
    if not theme:
        return []
    from engine.tools.theme import SearchDocs

    return [SearchDocs(theme, context.indexes)]


def realtime_tools(context: EngineContext) -> list[Tool]:
    from engine.tools.mcp_toolkit import realtime_toolkit

    return realtime_toolkit(context.hub)


def build_registry(context: EngineContext, theme: str | None = None) -> ToolRegistry:
    """The tools for one run, offered through the context's router."""
    tools = general_toolkit() + theme_toolkit(context, theme) + realtime_tools(context)
    return ToolRegistry(tools, routed=True)
