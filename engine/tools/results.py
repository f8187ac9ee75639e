"""What a tool returns besides text: the structured parts the engine and the app use.

The model only ever reads ``ToolResult.text``. The engine keeps the rest on the step
record: ``passages`` (document evidence, for citations and quotes), ``table``
(columns and rows, drawn as a sortable table and a chart), and ``computed`` (the
figures in ``text`` were computed by the tool, so they count as evidence).
"""

from __future__ import annotations

import json
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

    def within_bytes(self, max_bytes: int) -> TableData:
        """The first rows whose JSON fits in ``max_bytes`` (linear); ``total_rows`` still counts them all."""
        overhead = len(self.model_copy(update={"rows": []}).model_dump_json().encode())
        budget, kept = max_bytes - overhead - 32, 0  # 32: room for total_rows growing
        for row in self.rows:
            size = len(json.dumps(row, ensure_ascii=False, default=str).encode()) + 1
            if size > budget:
                break
            budget -= size
            kept += 1
        if kept == len(self.rows):
            return self
        total = max(self.total_rows or 0, len(self.rows))
        return self.model_copy(update={"rows": self.rows[:kept], "total_rows": total})


class ToolResult(BaseModel):
    text: str
    passages: list[Passage] = Field(default_factory=list)
    table: TableData | None = None
    computed: bool = False
    # A computation that returned one figure: the figure, and the figure with what it is
    # ("sum of pallets_shipped in shipments where warehouse = Gdansk = 13974").
    value: str | None = None
    statement: str | None = None
