"""What a tool returns besides text: the structured parts the engine and the app use.

The model only ever reads ``ToolResult.text``. The engine keeps the rest on the step
record: ``passages`` (document evidence, for citations and quotes), ``table``
(columns and rows, drawn as a sortable table and a chart), and ``computed`` (the
figures in ``text`` were computed by the tool, so they count as evidence).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Passage(BaseModel):
    """One retrieved piece of a document."""

    source: str
    location: str = ""
    text: str
    score: float | None = None


class TableData(BaseModel):
    """A small result table: column names, their kinds, and rows of JSON values."""

    columns: list[str]
    dtypes: list[str] = Field(default_factory=list)  # "number", "date", "text" per column
    rows: list[list[Any]] = Field(default_factory=list)
    total_rows: int | None = None  # rows before any display cut
    title: str = ""


class ToolResult(BaseModel):
    text: str
    passages: list[Passage] = Field(default_factory=list)
    table: TableData | None = None
    computed: bool = False
    # A computation that returned one figure: the figure, and the figure with what it is
    # ("sum of pallets_shipped in shipments where warehouse = Gdansk = 13974").
    value: str | None = None
    statement: str | None = None
