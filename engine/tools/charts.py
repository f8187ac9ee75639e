"""Which chart fits a result table, and its Vega-Lite form.

``suggest_chart`` picks from the column kinds: a date or ordered column and a number
→ line; a text category and a number → bar (at most 50 categories); two numbers →
scatter; otherwise no chart. ``validate_spec`` checks a chart the model asked for
against the real columns. ``to_vega_lite`` builds a Vega-Lite v5 spec with inline data
for ``st.vega_lite_chart``: only fields, marks and encodings, never HTML or links.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from engine.errors import ToolError
from engine.tools.base import describe_validation_error
from engine.tools.messages import say
from engine.tools.results import TableData
from engine.tools.tables.naming import match_name

MAX_CATEGORIES = 50
MAX_COLORS = 12
VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")  # fmt: skip
_MOIS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
         "novembre", "décembre")  # fmt: skip
_PERIOD = re.compile(r"^(?:(\d{4})[-\s/]?)?[QqTt]([1-4])(?:[-\s/]?(\d{4}))?$|^(\d{4})-(\d{2})$|^(\d{4})$")
_TIME_NAMES = re.compile(
    r"^(year|année|annee|an|month|mois|week|semaine|quarter|trimestre|day|jour|date|period)s?$", re.I
)


class ChartSpec(BaseModel):
    kind: Literal["bar", "line", "scatter"]
    x: str
    y: list[str] = Field(..., min_length=1, max_length=6)
    color: str | None = None
    title: str = Field("", max_length=200)

    @field_validator("y", mode="before")
    @classmethod
    def _one_or_more(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


# ---- column facts ---------------------------------------------------------------------
def _values(table: TableData, column: str) -> list[Any]:
    i = table.columns.index(column)
    return [row[i] for row in table.rows if i < len(row) and row[i] is not None]


def _kind(table: TableData, column: str) -> str:
    i = table.columns.index(column)
    return table.dtypes[i] if i < len(table.dtypes) else "text"


def period_key(value: Any) -> tuple[int, int] | None:
    """A sort key for quarter, month or year labels (Q3, 2025-Q3, T2, Jan, janvier, 2025-01), else None."""
    text = str(value).strip().lower().rstrip(".")
    m = _PERIOD.match(text)
    if m:
        if m.group(2):
            return (int(m.group(1) or m.group(3) or 0), int(m.group(2)))
        if m.group(4):
            return (int(m.group(4)), int(m.group(5)))
        return (int(m.group(6)), 0)
    if len(text) >= 3:
        for names in (_MONTHS, _MOIS):
            for n, name in enumerate(names):
                if name.startswith(text):
                    return (0, n + 1)
    return None


def _is_ordered(table: TableData, column: str) -> bool:
    kind, values = _kind(table, column), _values(table, column)
    if kind == "date":
        return True
    if not values:
        return False
    if kind == "number":
        return bool(_TIME_NAMES.match(column)) and all(float(v).is_integer() for v in values)
    return all(period_key(v) is not None for v in values)


def _distinct(table: TableData, column: str) -> int:
    return len({str(v) for v in _values(table, column)})


def _similar_numbers(table: TableData, numbers: list[str]) -> list[str]:
    """The first number column and the others on the same scale (within 10×)."""

    def top(column: str) -> float:
        return max((abs(float(v)) for v in _values(table, column)), default=0.0)

    first = top(numbers[0]) or 1.0
    return [numbers[0]] + [c for c in numbers[1:4] if 0.1 <= (top(c) or 0.0) / first <= 10]


# ---- choice ---------------------------------------------------------------------------
def suggest_chart(table: TableData) -> ChartSpec | None:
    """The chart that fits the table's column kinds, or None when nothing sensible does."""
    if len(table.rows) < 2 or not table.columns:
        return None
    ordered = [c for c in table.columns if _is_ordered(table, c)]
    numbers = [c for c in table.columns if _kind(table, c) == "number" and c not in ordered]
    texts = [c for c in table.columns if _kind(table, c) == "text" and c not in ordered]
    categories = [c for c in texts if 2 <= _distinct(table, c) <= MAX_COLORS]
    if ordered and numbers:
        x, ys = ordered[0], _similar_numbers(table, numbers)
        color = categories[0] if len(ys) == 1 and categories else None
        return ChartSpec(kind="line", x=x, y=ys, color=color, title=_title(ys, x, color))
    if texts and numbers:
        x = texts[0]
        if _distinct(table, x) > MAX_CATEGORIES:
            return None
        others = [c for c in categories if c != x]
        ys = [numbers[0]] if others else _similar_numbers(table, numbers)
        color = others[0] if others else None
        return ChartSpec(kind="bar", x=x, y=ys, color=color, title=_title(ys, x, color))
    if len(numbers) >= 2:
        color = categories[0] if categories else None
        return ChartSpec(
            kind="scatter",
            x=numbers[0],
            y=[numbers[1]],
            color=color,
            title=say("chart_title_scatter", y=numbers[1], x=numbers[0]),
        )
    return None


def _title(ys: list[str], x: str, color: str | None) -> str:
    if color:
        return say("chart_title_coloured", ys=", ".join(ys), x=x, color=color)
    return say("chart_title", ys=", ".join(ys), x=x)


# ---- a model's spec --------------------------------------------------------------------
def validate_spec(spec: dict[str, Any], table: TableData) -> ChartSpec:
    """The model's chart request checked against the table's columns; ToolError says what is wrong."""
    if not isinstance(spec, dict):
        raise ToolError(say("chart_not_object"))
    try:
        chart = ChartSpec.model_validate(spec)
    except ValidationError as exc:
        raise ToolError(describe_validation_error("chart", exc)) from None
    columns = table.columns
    x, _ = match_name(chart.x, columns, "column")
    ys = [match_name(y, columns, "column")[0] for y in chart.y]
    color = match_name(chart.color, columns, "column")[0] if chart.color else None
    not_numbers = [y for y in ys if _kind(table, y) != "number"]
    if not_numbers:
        numbers = [c for c in columns if _kind(table, c) == "number"]
        raise ToolError(
            say("chart_y_numbers", columns=", ".join(not_numbers), numbers=", ".join(numbers) or say("none"))
        )
    if x in ys:
        raise ToolError(say("chart_x_is_y", x=x))
    if chart.kind == "scatter" and _kind(table, x) != "number":
        raise ToolError(say("chart_scatter_x", x=x))
    if chart.kind == "bar" and _distinct(table, x) > MAX_CATEGORIES:
        raise ToolError(say("chart_bar_categories", n=_distinct(table, x), limit=MAX_CATEGORIES))
    if color and len(ys) > 1:
        raise ToolError(say("chart_colour_one_y"))
    return ChartSpec(kind=chart.kind, x=x, y=ys, color=color, title=chart.title or _title(ys, x, color))


# ---- Vega-Lite -------------------------------------------------------------------------
def field_ref(name: str) -> str:
    """A column name as a Vega-Lite field: dots and brackets would mean nested access."""
    return re.sub(r"([\\.\[\]])", r"\\\1", name)


def _encoding_type(table: TableData, column: str) -> str:
    kind = _kind(table, column)
    if kind == "date":
        return "temporal"
    if _is_ordered(table, column):
        return "ordinal"
    return "quantitative" if kind == "number" else "nominal"


def _axis(table: TableData, column: str) -> dict[str, Any]:
    enc: dict[str, Any] = {"field": field_ref(column), "type": _encoding_type(table, column), "title": column}
    if enc["type"] == "ordinal" and _kind(table, column) == "text":
        enc["sort"] = sorted({str(v) for v in _values(table, column)}, key=lambda v: period_key(v) or (0, 0))
    return enc


def to_vega_lite(spec: ChartSpec, table: TableData) -> dict[str, Any]:
    """A Vega-Lite v5 spec with the table's rows inline."""
    values = [dict(zip(table.columns, row, strict=False)) for row in table.rows]
    mark: dict[str, Any] = {"type": "point" if spec.kind == "scatter" else spec.kind, "tooltip": True}
    if spec.kind == "line":
        mark["point"] = True
    encoding: dict[str, Any] = {"x": _axis(table, spec.x)}
    chart: dict[str, Any] = {"$schema": VEGA_LITE_SCHEMA, "title": spec.title or _title(spec.y, spec.x, spec.color)}
    chart["data"] = {"values": values}
    if len(spec.y) == 1:
        encoding["y"] = {"field": field_ref(spec.y[0]), "type": "quantitative", "title": spec.y[0]}
        if spec.color:
            encoding["color"] = {"field": field_ref(spec.color), "type": _encoding_type(table, spec.color),
                                 "title": spec.color}  # fmt: skip
    else:
        chart["transform"] = [{"fold": [field_ref(y) for y in spec.y], "as": ["__series", "__value"]}]
        encoding["y"] = {"field": "__value", "type": "quantitative", "title": ", ".join(spec.y)}
        encoding["color"] = {"field": "__series", "type": "nominal", "title": say("chart_series")}
        if spec.kind == "bar":
            encoding["xOffset"] = {"field": "__series", "type": "nominal"}
    if spec.kind == "bar" and spec.color:
        encoding["xOffset"] = {"field": field_ref(spec.color), "type": "nominal"}
    chart["mark"] = mark
    chart["encoding"] = encoding
    return chart
