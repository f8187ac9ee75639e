"""Which tools a run gets: the always-on general toolkit, plus per-theme and
real-time toolkits as they are configured."""

from __future__ import annotations

from typing import Any

from engine.tools.ask_user import AskUser
from engine.tools.base import Tool, ToolRegistry
from engine.tools.calculator import Calculator


def general_toolkit() -> list[Tool]:
    return [Calculator(), AskUser()]


def build_registry(ragkwargs: dict[str, Any] | None = None) -> ToolRegistry:
    """The tools for one run. ``ragkwargs`` carries the theme, language and detail."""
    return ToolRegistry(general_toolkit())
