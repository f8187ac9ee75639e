"""A query result as the model sees it (a small aligned text table, bounded) and as
the app keeps it (``TableData`` with JSON values)."""

from __future__ import annotations

import datetime as dt
import decimal
import math
from typing import Any

from engine.tools.results import TableData
from engine.tools.tables.catalog import TableLimits, kind_of
from engine.tools.tables.messages import say
from engine.tools.tables.sandbox import QueryOutput

_CELL_CHARS = 40


def json_value(value: Any) -> Any:
    """A cell as a JSON value: dates as ISO text, decimals as numbers, NaN/inf as null."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def cell_text(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.4f}".rstrip("0").rstrip(".") if abs(value) >= 1e-4 else f"{value:.6g}"
    text = " ".join(str(value).split())
    return text if len(text) <= _CELL_CHARS else text[: _CELL_CHARS - 1] + "…"


def table_data(out: QueryOutput, title: str = "") -> TableData:
    rows = [[json_value(v) for v in row] for row in out.rows]
    return TableData(columns=out.columns, dtypes=[kind_of(t) for t in out.types], rows=rows,
                     total_rows=out.total_rows, title=title)  # fmt: skip


def text_table(out: QueryOutput, limits: TableLimits, heading: str = "") -> str:
    """Aligned columns separated by " | ", cut by rows and characters with a note."""
    if not out.columns:
        return (heading + "\n" if heading else "") + "(no columns)"
    cells = [[cell_text(v) for v in row] for row in out.rows[: limits.model_rows]]
    header = [cell_text(c) for c in out.columns]
    widths = [max([len(header[i])] + [len(r[i]) for r in cells]) for i in range(len(header))]

    def line(values: list[str]) -> str:
        return " | ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    lines = [heading] if heading else []
    lines.append(line(header))
    cut = say("cut_note", note=out.note) if out.note else ""
    budget = limits.model_chars - sum(len(x) + 1 for x in lines) - 120 - len(cut)  # room for the notes
    shown = 0
    for row in cells:
        text = line(row)
        if budget - len(text) - 1 < 0:
            break
        lines.append(text)
        budget -= len(text) + 1
        shown += 1
    if out.total_rows == 0:
        lines.append(say("no_rows"))
    elif shown < out.total_rows:
        kept = len(out.rows)
        if kept < out.total_rows:
            lines.append(say("rows_shown_kept", shown=shown, total=out.total_rows, kept=kept))
        else:
            lines.append(say("rows_shown", shown=shown, total=out.total_rows))
    if cut:
        lines.append(cut)
    return "\n".join(lines)
