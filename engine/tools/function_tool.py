"""``@tool``: a Tool made from a typed function.

The function's parameters become the argument model (their annotations and
defaults; ``Annotated[..., Field(description=...)]`` works too), its docstring's
first paragraph the description::

    @tool
    def add(a: int, b: int = 0) -> int:
        "Adds two integers."
        return a + b
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, get_type_hints

from pydantic import BaseModel, create_model

from engine.tools.base import Tool


class FunctionTool(Tool):
    """A Tool whose ``run`` calls a plain (sync or async) function with the validated arguments."""

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        toolkit: str = "general",
        always_on: bool = False,
        computes: bool = False,
    ) -> None:
        self.func = func
        self.name = name or func.__name__
        doc = inspect.getdoc(func) or ""
        self.description = description or doc.split("\n\n")[0].replace("\n", " ").strip() or self.name
        self.toolkit = toolkit
        self.always_on = always_on
        self.computes = computes
        self.Args = _args_model(func, self.name)
        if inspect.iscoroutinefunction(func):
            self.run = self._arun  # type: ignore[method-assign]

    def run(self, args: BaseModel) -> Any:
        return self.func(**args.model_dump())

    async def _arun(self, args: BaseModel) -> Any:
        return await self.func(**args.model_dump())


def _args_model(func: Callable[..., Any], name: str) -> type[BaseModel]:
    hints = get_type_hints(func, include_extras=True)
    fields: dict[str, Any] = {}
    for param in inspect.signature(func).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"@tool functions take named parameters only ({name}: *{param.name})")
        annotation = hints.get(param.name, Any)
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (annotation, default)
    model_name = "".join(part.title() for part in name.split("_")) + "Args"
    return create_model(model_name, **fields)


def tool(
    func: Callable[..., Any] | None = None, **options: Any
) -> FunctionTool | Callable[[Callable[..., Any]], FunctionTool]:
    """Decorator: ``@tool`` or ``@tool(name=..., description=..., always_on=...)``."""
    if func is not None:
        return FunctionTool(func, **options)
    return lambda f: FunctionTool(f, **options)
