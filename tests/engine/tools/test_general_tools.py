"""Happy path and misuse path of every general tool."""

import json
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import ToolError
from engine.tools.ask_user import AskUser
from engine.tools.general import (
    DateTimeTool,
    Statistics,
    StatisticsArgs,
    TextTools,
    UnitConverter,
    compute_statistics,
    convert_units,
)


def run(tool, **args):
    return tool.run(tool.validate(args))


def test_statistics_happy_paths():
    s = Statistics()
    assert run(s, operation="mean", values=[1, 2, 3, 4]) == {"mean": 2.5}
    assert run(s, operation="median", values=[5, 1, 3]) == {"median": 3}
    assert run(s, operation="quantiles", values=list(range(1, 10)), n=4) == {"quantiles": [2.5, 5.0, 7.5]}
    summary = run(s, operation="summary", values=[2, 4, 4, 4, 5, 5, 7, 9])
    assert summary["n"] == 8 and summary["stdev"] == pytest.approx(2.13809, abs=1e-4)
    assert run(s, operation="correlation", values=[1, 2, 3], y=[2, 4, 6]) == {"correlation": 1.0, "n": 3}
    fit = run(s, operation="regression", table={"x": [1, 2, 3, 4], "y": [3, 5, 7, 9]}, x_column="x", y_column="y")
    assert fit["slope"] == 2.0 and fit["intercept"] == 1.0
    assert run(s, operation="max", table={"revenue": [3, 9, 1]}) == {"max": 9}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"operation": "mean", "values": []}, "statistics needs numbers"),
        ({"operation": "stdev", "values": [1]}, "at least two"),
        ({"operation": "correlation", "values": [1, 2], "y": [1]}, "same length"),
        ({"operation": "correlation", "values": [1, 1, 1], "y": [1, 2, 3]}, "statistics correlation"),
        ({"operation": "mean", "table": {"a": [1]}, "x_column": "b"}, "column 'b' is not in the table"),
    ],
)
def test_statistics_misuse(args, message):
    with pytest.raises(ToolError, match=message):
        run(Statistics(), **args)


def test_statistics_rejects_non_numbers_with_a_readable_message():
    with pytest.raises(ToolError, match="Invalid arguments for statistics: 'values.0'"):
        Statistics().validate({"operation": "mean", "values": ["__import__('os')"]})


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["summary", "mean", "median", "stdev", "quantiles", "min", "max", "correlation", "regression"]),
    st.lists(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12), max_size=30),
    st.lists(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12), max_size=30),
)
def test_statistics_fuzz_only_retry_escapes(operation, values, y):
    args = StatisticsArgs(operation=operation, values=values, y=y)
    try:
        result = compute_statistics(args)
    except ToolError as exc:
        assert exc.message
    else:
        assert isinstance(result, dict) and result
        json.dumps(result)


def test_text_tools():
    t = TextTools()
    assert run(t, operation="count", text="one two  three\nfour") == {"words": 4, "characters": 19, "lines": 2}
    assert run(t, operation="replace", text="a-b-c", find="-", replace_with="+") == {"text": "a+b+c", "replacements": 2}
    numbers = run(t, operation="extract_numbers", text="Revenue 48.2 M€, up 7.4%, 1,250 orders, -3 returns")["numbers"]
    assert numbers == ["48.2", "7.4%", "1,250", "-3"]
    dates = run(t, operation="extract_dates", text="Close on 2026-01-31, review 3 mars 2026 and March 5, 2026.")[
        "dates"
    ]
    assert dates == ["2026-01-31", "3 mars 2026", "March 5, 2026"]
    with pytest.raises(ToolError, match='needs "find"'):
        run(t, operation="replace", text="abc")
    with pytest.raises(ToolError, match="Invalid arguments for text_tools: 'operation'"):
        t.validate({"operation": "translate", "text": "x"})


def test_datetime_tool():
    d = DateTimeTool()
    now = run(d, operation="now", timezone="Europe/Paris")
    assert datetime.fromisoformat(now["now"]).utcoffset() is not None
    diff = run(d, operation="difference", start="2026-01-01", end="2026-01-31")
    assert diff["days"] == 30 and diff["business_days"] == 22
    assert run(d, operation="parse", value="2026-03-05T10:00:00Z")["weekday"] == "Thursday"
    with pytest.raises(ToolError, match="not a timestamp"):
        run(d, operation="difference", start="1767225600", end="2026-01-31")
    with pytest.raises(ToolError, match="expects an ISO 8601 date like 2026-01-31"):
        run(d, operation="parse", value="31/01/2026")
    with pytest.raises(ToolError, match="unknown timezone"):
        run(d, operation="now", timezone="Mars/Olympus")


def test_unit_converter():
    u = UnitConverter()
    assert run(u, value=10, from_unit="km", to_unit="mi") == "10 km = 6.21371 mi"
    assert convert_units(100, "C", "F") == pytest.approx(212)
    assert convert_units(1, "GiB", "MB") == pytest.approx(1073.741824)
    assert convert_units(2, "pounds", "kg") == pytest.approx(0.90718474)
    with pytest.raises(ToolError, match="cannot convert length"):
        run(u, value=1, from_unit="km", to_unit="kg")
    with pytest.raises(ToolError, match="unknown unit 'parsec'"):
        run(u, value=1, from_unit="parsec", to_unit="km")


def test_ask_user_arguments():
    tool = AskUser()
    assert tool.validate({"question": "Which year?", "choices": ["2025"]}).choices == ["2025"]
    with pytest.raises(ToolError, match="'question'"):
        tool.validate({"question": ""})


@pytest.mark.parametrize(
    "args",
    [
        {"operation": "mean", "values": [1.0, float("nan")]},
        {"operation": "stdev", "values": [1.0, float("inf")]},
        {"operation": "summary", "values": [float("-inf"), 2.0]},
        {"operation": "correlation", "values": [1.0, 2.0], "y": [float("nan"), 1.0]},
    ],
)
def test_statistics_refuses_non_finite_values_in_one_sentence(args):
    with pytest.raises(ToolError, match="finite numbers"):
        run(Statistics(), **args)


def test_statistics_overflow_and_huge_tables_are_readable():
    with pytest.raises(ToolError, match="too large"):
        run(Statistics(), operation="mean", values=[1e308, 1e308])
    with pytest.raises(ToolError, match="at most"):
        run(Statistics(), operation="mean", table={f"c{i}": [1.0] for i in range(500)})
    with pytest.raises(ToolError) as info:
        run(Statistics(), operation="mean", table={"a" * 5000: [1.0]}, x_column="b" * 5000)
    assert len(info.value.message) < 300


def test_text_tools_bound_their_output():
    with pytest.raises(ToolError, match="over the 200,000 limit"):
        run(TextTools(), operation="replace", text="ab" * 1000, find="a", replace_with="x" * 1000)
    numbers = run(TextTools(), operation="extract_numbers", text="7 " * 5000)
    assert len(numbers["numbers"]) == 1000 and "first 1000" in numbers["note"]
    dates = run(TextTools(), operation="extract_dates", text="2026-01-31 " * 3000)
    assert len(dates["dates"]) == 1000


@pytest.mark.parametrize("zone", ["x" * 300, "../../../../etc/passwd", "/etc/localtime", "Europe/../../x", "a\x00b"])
def test_datetime_refuses_path_like_or_huge_zones_without_echoing_paths(zone):
    with pytest.raises(ToolError) as info:
        run(DateTimeTool(), operation="now", timezone=zone)
    message = info.value.message
    assert message.startswith("unknown timezone") and len(message) < 140 and "site-packages" not in message


def test_unit_converter_refuses_infinite_results():
    with pytest.raises(ToolError, match="too large"):
        run(UnitConverter(), value=1e308, from_unit="TB", to_unit="B")
    with pytest.raises(ToolError, match="finite number"):
        run(UnitConverter(), value=float("nan"), from_unit="km", to_unit="m")
    with pytest.raises(ToolError) as info:
        run(UnitConverter(), value=1, from_unit="q" * 10_000, to_unit="m")
    assert len(info.value.message) < 400
