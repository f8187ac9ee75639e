"""Which tools a run gets: the always-on general toolkit, the theme's search_docs,
and the real-time MCP tools, behind a ToolRouter."""

from __future__ import annotations

from typing import Any

from engine.tools.ask_user import AskUser
from engine.tools.base import Tool, ToolRegistry
from engine.tools.calculator import Calculator
from engine.tools.general import DateTimeTool, Statistics, TextTools, UnitConverter
from engine.tools.router import ToolRouter

_ROUTER = ToolRouter()  # caches tool-description embeddings for the whole process


def general_toolkit() -> list[Tool]:
    return [Calculator(), AskUser(), Statistics(), TextTools(), DateTimeTool(), UnitConverter()]


def theme_toolkit(theme: str | None) -> list[Tool]:
    if not theme:
        return []
    from engine.tools.theme import SearchDocs

    return [SearchDocs(theme)]


def realtime_tools() -> list[Tool]:
    from engine.settings import current

    if not current().mcp_servers_enabled:
        return []
    from engine.tools.mcp_toolkit import get_hub, realtime_toolkit

    return realtime_toolkit(get_hub())


def build_registry(ragkwargs: dict[str, Any] | None = None) -> ToolRegistry:
    """The tools for one run. ``ragkwargs`` carries the theme, language and detail."""
    ragkwargs = ragkwargs or {}
    tools = general_toolkit() + theme_toolkit(ragkwargs.get("theme")) + realtime_tools()
    return ToolRegistry(tools, router=_ROUTER)


def shared_router() -> ToolRouter:
    return _ROUTER
