"""The Tool base and the ToolRegistry.

A tool is a name, a one-line description, a pydantic argument model and a sync or
async ``run``. The native function-calling schema and the text-mode description both
come from the same class, so they can never disagree.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from engine.errors import ToolError
from engine.tools.messages import say
from engine.tools.results import ToolResult


def describe_validation_error(tool: str, error: ValidationError) -> str:
    """One readable sentence per problem, naming the argument and what was wrong."""
    problems = []
    for err in error.errors():
        where = ".".join(str(p) for p in err.get("loc", ())) or "input"
        problems.append(say("args_problem", where=where, problem=err.get("msg", "invalid")))
    return say("args_invalid", tool=tool, problems="; ".join(problems))


@cache
def _schema_of(args: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of an argument model without pydantic's titles. Derived from the
    class alone, so it is computed once per class (a memo, not run state); callers only
    read it."""
    schema = args.model_json_schema()
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    return schema


class Tool:
    """Subclass and set ``name``, ``description``, ``Args`` and ``run``."""

    name: ClassVar[str]
    description: ClassVar[str]
    Args: ClassVar[type[BaseModel]]
    toolkit: ClassVar[str] = "general"
    always_on: ClassVar[bool] = False
    computes: ClassVar[bool] = False  # its results are computed figures, which count as evidence
    # its input holds the figures it computes with (an expression, a list of values): a result
    # is evidence only when they come from the question or from what the run saw before
    operands_in_input: ClassVar[bool] = False
    server: str | None = None  # the MCP server that provides it; None for a built-in tool
    reaches_outside: ClassVar[bool] = False  # reaches past the theme (machine, network, live data): guarded

    def run(self, args: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    # ---- schemas ----------------------------------------------------------
    def json_schema(self) -> dict[str, Any]:
        """The arguments' JSON schema (computed once per argument model; read-only)."""
        return _schema_of(self.Args)

    def function_schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.json_schema()},
        }

    def text_description(self) -> str:
        props = self.json_schema().get("properties", {})
        required = set(self.json_schema().get("required", []))
        fields = []
        for key, prop in props.items():
            kind = prop.get("type") or "/".join(p.get("type", "any") for p in prop.get("anyOf", [])) or "any"
            fields.append(f'"{key}": {kind}{"" if key in required else " (optional)"}')
        return f"- {self.name}: {self.description} Input: {{{', '.join(fields)}}}"

    @property
    def single_string_field(self) -> str | None:
        """The field a bare, non-JSON Action Input fills, when there is exactly one string field."""
        props = self.json_schema().get("properties", {})
        if len(props) == 1:
            key, prop = next(iter(props.items()))
            if prop.get("type") == "string":
                return key
        return None

    # ---- calling ----------------------------------------------------------
    def validate(self, raw: dict[str, Any]) -> BaseModel:
        try:
            return self.Args.model_validate(raw)
        except ValidationError as exc:
            raise ToolError(describe_validation_error(self.name, exc)) from None

    async def acall(self, raw: dict[str, Any], timeout_s: float) -> str | ToolResult:
        """Validate, run (off the event loop when sync); text, or a ToolResult with its structured parts."""
        args = self.validate(raw)
        if inspect.iscoroutinefunction(self.run):
            result = await asyncio.wait_for(self.run(args), timeout_s)
        else:
            result = await asyncio.wait_for(asyncio.to_thread(self.run, args), timeout_s)
        return result if isinstance(result, ToolResult) else render_result(result)


def render_result(result: Any) -> str:
    if isinstance(result, str):
        return result
    if isinstance(result, ToolResult):
        return result.text
    if isinstance(result, BaseModel):
        return result.model_dump_json(indent=1)
    try:
        return json.dumps(result, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(result)


class DuplicateTool(ValueError):
    """A second tool with a name the registry already offers."""


class ToolRegistry:
    """The tools offered to one run, by name."""

    def __init__(self, tools: Iterable[Tool] = (), routed: bool = False) -> None:
        self._tools: dict[str, Tool] = {}
        self.routed = routed  # offered through a ToolRouter (the full toolkits); a subset is not routed again
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        """Add ``tool``; a name already offered is never replaced (an MCP server naming a tool
        ``calculator`` must not stand in for the real one): ``DuplicateTool``."""
        if tool.name in self._tools:
            raise DuplicateTool(say("tool_duplicate", name=tool.name))
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def subset(self, names: Iterable[str]) -> ToolRegistry:
        return ToolRegistry(self._tools[n] for n in names if n in self._tools)

    def function_schemas(self) -> list[dict[str, Any]]:
        return [t.function_schema() for t in self]

    def text_descriptions(self) -> str:
        return "\n".join(t.text_description() for t in self)
