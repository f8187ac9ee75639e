"""The always-available general toolkit besides the calculator: statistics, text
tools, dates and unit conversion. Every misuse raises ToolError saying how to
call the tool correctly."""

from __future__ import annotations

import itertools
import math
import re
import statistics as stats
from datetime import date, datetime
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field

from engine.errors import ToolError
from engine.tools.bounded import BoundedTool
from engine.tools.messages import say

MAX_VALUES = 100_000
MAX_TEXT = 200_000
MAX_OUTPUT_CHARS = 200_000  # a replace may not grow the text past this
MAX_ITEMS = 1_000  # numbers or dates listed by text_tools
MAX_COLUMNS = 200


def _shown(text: object, limit: int = 40) -> str:
    """A short, printable echo of user or model text for an error message."""
    value = "".join(ch if ch.isprintable() else "?" for ch in str(text))
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _finite(values: list[float] | None, key: str) -> None:
    if values and not all(math.isfinite(v) for v in values):
        raise ToolError(say(key))


# ---- statistics ---------------------------------------------------------------------
class StatisticsArgs(BaseModel):
    operation: Literal["summary", "mean", "median", "stdev", "quantiles", "min", "max", "correlation", "regression"] = (
        Field(..., description=say("arg_statistics_operation"))
    )
    values: list[float] | None = Field(None, description=say("arg_statistics_values"))
    y: list[float] | None = Field(None, description=say("arg_statistics_y"))
    table: dict[str, list[float]] | None = Field(None, description=say("arg_statistics_table"))
    x_column: str | None = None
    y_column: str | None = None
    n: int = Field(4, ge=2, le=100, description=say("arg_statistics_n"))


def _series(args: StatisticsArgs) -> tuple[list[float], list[float] | None]:
    x, y = args.values, args.y
    if args.table is not None:
        columns = list(args.table)
        if len(columns) > MAX_COLUMNS or sum(len(v) for v in args.table.values()) > MAX_VALUES:
            raise ToolError(say("stats_table_limit", columns=MAX_COLUMNS, values=MAX_VALUES))
        listed = ", ".join(_shown(c) for c in columns[:20]) + (", …" if len(columns) > 20 else "")
        x_col = args.x_column or (columns[0] if columns else None)
        if x_col not in args.table:
            raise ToolError(say("stats_no_column", column=_shown(x_col), listed=listed))
        x = args.table[x_col]
        if args.y_column or args.operation in ("correlation", "regression"):
            y_col = args.y_column or (columns[1] if len(columns) > 1 else None)
            if y_col not in args.table:
                raise ToolError(say("stats_give_y", listed=listed))
            y = args.table[y_col]
    if not x:
        raise ToolError(say("stats_needs_numbers"))
    if len(x) > MAX_VALUES or (y is not None and len(y) > MAX_VALUES):
        raise ToolError(say("stats_value_limit", limit=MAX_VALUES))
    _finite(x, "stats_x_not_finite")
    _finite(y, "stats_y_not_finite")
    return x, y


def compute_statistics(args: StatisticsArgs) -> dict:
    result = _compute(args)
    flat = [v for value in result.values() for v in (value if isinstance(value, list) else [value])]
    if not all(math.isfinite(v) for v in flat if isinstance(v, float)):
        raise ToolError(say("stats_too_large", operation=args.operation))
    return result


def _compute(args: StatisticsArgs) -> dict:
    x, y = _series(args)
    op = args.operation
    try:
        if op in ("correlation", "regression"):
            if y is None or len(y) != len(x):
                raise ToolError(say("stats_same_length", operation=op))
            if len(x) < 2:
                raise ToolError(say("stats_two_points", operation=op))
            if op == "correlation":
                return {"correlation": round(stats.correlation(x, y), 6), "n": len(x)}
            fit = stats.linear_regression(x, y)
            return {"slope": round(fit.slope, 6), "intercept": round(fit.intercept, 6), "n": len(x)}
        if op == "mean":
            return {"mean": stats.fmean(x)}
        if op == "median":
            return {"median": stats.median(x)}
        if op == "stdev":
            if len(x) < 2:
                raise ToolError(say("stats_stdev_two"))
            return {"stdev": stats.stdev(x)}
        if op == "quantiles":
            if len(x) < 2:
                raise ToolError(say("stats_quantiles_two"))
            return {"quantiles": stats.quantiles(x, n=args.n)}
        if op == "min":
            return {"min": min(x)}
        if op == "max":
            return {"max": max(x)}
        summary = {"n": len(x), "mean": stats.fmean(x), "median": stats.median(x), "min": min(x), "max": max(x)}
        if len(x) > 1:
            summary["stdev"] = stats.stdev(x)
            summary["quartiles"] = stats.quantiles(x, n=4)
        return summary
    except stats.StatisticsError as exc:
        raise ToolError(say("stats_failed", operation=op, detail=exc)) from None
    except (OverflowError, ArithmeticError, ValueError):
        raise ToolError(say("stats_too_large", operation=op)) from None


class Statistics(BoundedTool):
    name = "statistics"
    description = say("describe_statistics")
    Args = StatisticsArgs
    computes = True
    operands_in_input = True

    def run(self, args: StatisticsArgs) -> dict:
        result = compute_statistics(args)
        return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in result.items()}


# ---- text tools -------------------------------------------------------------------------
class TextArgs(BaseModel):
    operation: Literal["count", "replace", "extract_numbers", "extract_dates"]
    text: str = Field(..., max_length=MAX_TEXT)
    find: str | None = Field(None, max_length=MAX_TEXT, description=say("arg_text_find"))
    replace_with: str | None = Field(None, max_length=MAX_TEXT, description=say("arg_text_replace_with"))


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d{1,3}(?:[ ,\u202f]\d{3})+(?:[.,]\d+)?(?![\w])|[-+]?\d+(?:[.,]\d+)?%?")
_DATES = (
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),
    re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b"),
    re.compile(
        r"\b\d{1,2}(?:er)?\s+(?:January|February|March|April|May|June|July|August|September|October|November|December|"
        r"janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre)\s+\d{4}\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},\s+\d{4}\b"
    ),
)


class TextTools(BoundedTool):
    name = "text_tools"
    description = say("describe_text_tools")
    Args = TextArgs

    def run(self, args: TextArgs) -> dict:
        if args.operation == "count":
            return {"words": len(args.text.split()), "characters": len(args.text), "lines": args.text.count("\n") + 1}
        if args.operation == "replace":
            if not args.find:
                raise ToolError(say("text_replace_find"))
            count = args.text.count(args.find)
            replacement = args.replace_with or ""
            size = len(args.text) + count * (len(replacement) - len(args.find))  # known before building it
            if size > MAX_OUTPUT_CHARS:
                raise ToolError(say("text_replace_limit", size=size, limit=MAX_OUTPUT_CHARS))
            return {"text": args.text.replace(args.find, replacement), "replacements": count}
        if args.operation == "extract_numbers":
            numbers = list(itertools.islice((m.group(0) for m in _NUMBER.finditer(args.text)), MAX_ITEMS + 1))
            return _listed("numbers", numbers)
        found: list[tuple[int, str]] = []
        for pattern in _DATES:
            found.extend((m.start(), m.group(0)) for m in itertools.islice(pattern.finditer(args.text), MAX_ITEMS + 1))
        return _listed("dates", [d for _, d in sorted(found)])


def _listed(key: str, items: list[str]) -> dict:
    if len(items) <= MAX_ITEMS:
        return {key: items}
    return {key: items[:MAX_ITEMS], "note": say("text_listed_first", limit=MAX_ITEMS, key=key)}


# ---- dates ----------------------------------------------------------------------------------
class DateTimeArgs(BaseModel):
    operation: Literal["now", "difference", "parse"]
    timezone: str = Field("UTC", description=say("arg_date_time_timezone"))
    start: str | None = Field(None, description=say("arg_date_time_start"))
    end: str | None = Field(None, description=say("arg_date_time_end"))
    value: str | None = Field(None, description=say("arg_date_time_value"))


_ZONE = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+){0,2}")


def _zone(name: str) -> ZoneInfo:
    """An IANA time zone; anything else (a path, a huge name) is refused before any file is opened."""
    if len(name) > 64 or not _ZONE.fullmatch(name):
        raise ToolError(say("date_unknown_zone", zone=_shown(name)))
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ToolError(say("date_unknown_zone", zone=_shown(name))) from None


def _iso(value: str | None, field: str) -> datetime:
    if not value:
        raise ToolError(say("date_needs", field=field))
    text = value.strip()
    if re.fullmatch(r"\d{9,}", text):
        raise ToolError(say("date_timestamp", field=field))
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ToolError(say("date_not_iso", field=field, text=_shown(text))) from None
    return parsed


class DateTimeTool(BoundedTool):
    name = "datetime"
    description = say("describe_date_time_tool")
    Args = DateTimeArgs

    def run(self, args: DateTimeArgs) -> dict:
        if args.operation == "now":
            now = datetime.now(_zone(args.timezone))
            return {"now": now.isoformat(timespec="seconds"), "weekday": now.strftime("%A"), "timezone": args.timezone}
        if args.operation == "difference":
            start, end = _iso(args.start, "start"), _iso(args.end, "end")
            if (start.tzinfo is None) != (end.tzinfo is None):
                start, end = start.replace(tzinfo=None), end.replace(tzinfo=None)
            delta = end - start
            business = _business_days(start.date(), end.date())
            return {
                "days": delta.days,
                "weeks": round(delta.days / 7, 2),
                "business_days": business,
                "seconds": int(delta.total_seconds()),
            }
        parsed = _iso(args.value, "value")
        return {"iso": parsed.isoformat(), "weekday": parsed.strftime("%A"), "iso_week": parsed.isocalendar().week}


def _business_days(start: date, end: date) -> int:
    sign = 1
    if end < start:
        start, end, sign = end, start, -1
    days = (end - start).days
    full, rest = divmod(days, 7)
    count = full * 5
    for i in range(rest):
        if (start.weekday() + i) % 7 < 5:
            count += 1
    return sign * count


# ---- unit conversion ------------------------------------------------------------------------
_UNITS: dict[str, tuple[str, float]] = {
    # length, base metre
    "mm": ("length", 0.001), "cm": ("length", 0.01), "m": ("length", 1.0), "km": ("length", 1000.0),
    "in": ("length", 0.0254), "ft": ("length", 0.3048), "yd": ("length", 0.9144), "mi": ("length", 1609.344),
    # mass, base kilogram
    "mg": ("mass", 1e-6), "g": ("mass", 0.001), "kg": ("mass", 1.0), "t": ("mass", 1000.0),
    "oz": ("mass", 0.028349523125), "lb": ("mass", 0.45359237),
    # volume, base litre
    "ml": ("volume", 0.001), "l": ("volume", 1.0), "m3": ("volume", 1000.0), "gal": ("volume", 3.785411784),
    # time, base second
    "s": ("time", 1.0), "min": ("time", 60.0), "h": ("time", 3600.0), "day": ("time", 86400.0), "week": ("time", 604800.0),
    # data, base byte
    "b": ("data", 1.0), "kb": ("data", 1e3), "mb": ("data", 1e6), "gb": ("data", 1e9), "tb": ("data", 1e12),
    "kib": ("data", 1024.0), "mib": ("data", 1024.0**2), "gib": ("data", 1024.0**3),
    # energy, base joule
    "j": ("energy", 1.0), "kj": ("energy", 1e3), "kwh": ("energy", 3.6e6), "mwh": ("energy", 3.6e9),
}  # fmt: skip
_ALIASES = {"meter": "m", "metre": "m", "meters": "m", "kilometer": "km", "mile": "mi", "miles": "mi", "inch": "in",
            "foot": "ft", "feet": "ft", "kilogram": "kg", "kilograms": "kg", "pound": "lb", "pounds": "lb",
            "gram": "g", "litre": "l", "liter": "l", "hour": "h", "hours": "h", "minute": "min", "minutes": "min",
            "days": "day", "weeks": "week", "second": "s", "seconds": "s", "tonne": "t"}  # fmt: skip
_TEMPERATURES = frozenset({"c", "f", "k", "celsius", "fahrenheit", "kelvin"})


class UnitArgs(BaseModel):
    value: float
    from_unit: str = Field(..., description=say("arg_unit_from_unit"))
    to_unit: str = Field(..., description=say("arg_unit_to_unit"))


def _norm_unit(unit: str) -> str:
    key = unit.strip().lower().replace("°", "")
    return _ALIASES.get(key, key)


def convert_units(value: float, from_unit: str, to_unit: str) -> float:
    src, dst = _norm_unit(from_unit), _norm_unit(to_unit)
    if src in _TEMPERATURES and dst in _TEMPERATURES:
        kelvin = {"c": value + 273.15, "f": (value - 32) * 5 / 9 + 273.15, "k": value}[src[0]]
        return {"c": kelvin - 273.15, "f": (kelvin - 273.15) * 9 / 5 + 32, "k": kelvin}[dst[0]]
    if src not in _UNITS or dst not in _UNITS:
        unknown = from_unit if src not in _UNITS else to_unit
        raise ToolError(say("unit_unknown", unit=_shown(unknown), units=", ".join(sorted(_UNITS))))
    (kind_a, factor_a), (kind_b, factor_b) = _UNITS[src], _UNITS[dst]
    if kind_a != kind_b:
        raise ToolError(
            say("unit_mismatch", kind_a=kind_a, from_unit=_shown(from_unit), kind_b=kind_b, to_unit=_shown(to_unit))
        )
    return value * factor_a / factor_b


def _checked_conversion(value: float, from_unit: str, to_unit: str) -> float:
    if not math.isfinite(value):
        raise ToolError(say("unit_not_finite"))
    result = convert_units(value, from_unit, to_unit)
    if not math.isfinite(result):
        raise ToolError(say("unit_too_large", value=value, from_unit=_shown(from_unit), to_unit=_shown(to_unit)))
    return result


class UnitConverter(BoundedTool):
    name = "unit_converter"
    description = say("describe_unit_converter")
    Args = UnitArgs
    computes = True

    def run(self, args: UnitArgs) -> str:
        result = _checked_conversion(args.value, args.from_unit, args.to_unit)
        return f"{args.value:g} {_shown(args.from_unit)} = {result:.6g} {_shown(args.to_unit)}"
