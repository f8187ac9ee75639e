"""@tool turns a typed function into a Tool with the same schema a hand-written class has."""

import asyncio
from typing import Annotated

import pytest
from pydantic import Field

from engine.errors import ToolError
from engine.tools.function_tool import FunctionTool, tool


@tool
def add(a: int, b: Annotated[int, Field(description="second term")] = 0) -> int:
    """Adds two integers.

    Longer notes stay out of the description."""
    return a + b


@tool(name="fetch_quote", always_on=True, computes=True)
async def fetch(symbol: str) -> str:
    """Looks up a price."""
    return f"{symbol}: 1.5"


def test_schema_and_description_come_from_the_function():
    assert isinstance(add, FunctionTool) and add.name == "add" and add.description == "Adds two integers."
    schema = add.json_schema()
    assert schema["required"] == ["a"]
    assert schema["properties"]["b"] == {"default": 0, "description": "second term", "type": "integer"}
    assert add.function_schema()["function"]["name"] == "add"
    assert '"a": integer' in add.text_description()


def test_sync_and_async_functions_run():
    assert asyncio.run(add.acall({"a": 2, "b": 3}, 5)) == "5"
    assert asyncio.run(fetch.acall({"symbol": "ACME"}, 5)) == "ACME: 1.5"
    assert fetch.name == "fetch_quote" and fetch.always_on and fetch.computes


def test_bad_arguments_are_a_readable_retry():
    with pytest.raises(ToolError, match="Invalid arguments for add: 'a'"):
        asyncio.run(add.acall({"a": "many"}, 5))


def test_a_function_with_star_args_is_refused():
    with pytest.raises(TypeError, match="named parameters only"):

        @tool
        def spread(*values: int) -> int:
            return sum(values)
