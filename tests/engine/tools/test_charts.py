"""Chart choice for each combination of column kinds, model-asked specs, and the
Vega-Lite output checked against the Vega-Lite JSON schema shipped with Altair."""

import json
from pathlib import Path

import altair
import jsonschema
import pytest

from engine.errors import ToolError
from engine.tools.charts import ChartSpec, field_ref, period_key, suggest_chart, to_vega_lite, validate_spec
from engine.tools.results import TableData

SCHEMA = json.loads((Path(altair.__file__).parent / "vegalite" / "v6" / "schema" / "vega-lite-schema.json").read_text())


def table(columns, dtypes, rows):
    return TableData(columns=columns, dtypes=dtypes, rows=rows, total_rows=len(rows))


DATES = table(["day", "revenue"], ["date", "number"], [["2025-01-01", 10], ["2025-02-01", 12], ["2025-03-01", 9]])
QUARTERS = table(
    ["quarter", "region", "revenue"],
    ["text", "text", "number"],
    [["Q2", "France", 5], ["Q1", "France", 4], ["Q1", "Benelux", 2], ["Q2", "Benelux", 3]],
)
REGIONS = table(
    ["region", "revenue", "rows_used"], ["text", "number", "number"], [["France", 5e6, 4], ["Benelux", 3e6, 4]]
)
TWO_YEARS = table(
    ["region", "y2024", "y2025"], ["text", "number", "number"], [["France", 90, 100], ["Benelux", 60, 70]]
)
POINTS = table(["units", "revenue"], ["number", "number"], [[1, 10.0], [2, 19.5], [3, 31.0]])
YEARS = table(["year", "revenue"], ["number", "number"], [[2023, 1.0], [2024, 2.0], [2025, 3.0]])
MONTHS_FR = table(["mois", "ventes"], ["text", "number"], [["mars", 3], ["janvier", 1], ["février", 2]])


@pytest.mark.parametrize(
    "data, kind, x, y, color",
    [
        (DATES, "line", "day", ["revenue"], None),
        (QUARTERS, "line", "quarter", ["revenue"], "region"),
        (REGIONS, "bar", "region", ["revenue"], None),  # rows_used is on another scale: left out
        (TWO_YEARS, "bar", "region", ["y2024", "y2025"], None),
        (POINTS, "scatter", "units", ["revenue"], None),
        (YEARS, "line", "year", ["revenue"], None),
        (MONTHS_FR, "line", "mois", ["ventes"], None),
    ],
)
def test_suggest_chart_by_column_kinds(data, kind, x, y, color):
    spec = suggest_chart(data)
    assert (spec.kind, spec.x, spec.y, spec.color) == (kind, x, y, color)


@pytest.mark.parametrize(
    "data",
    [
        table(["region", "note"], ["text", "text"], [["France", "a"], ["Benelux", "b"]]),  # no number
        table(["revenue"], ["number"], [[1], [2]]),  # one number alone
        table(["region", "revenue"], ["text", "number"], [["France", 1]]),  # one row
        table(["id", "revenue"], ["text", "number"], [[f"c{i}", i] for i in range(51)]),  # 51 categories
        table([], [], []),
    ],
)
def test_nothing_sensible_gives_no_chart(data):
    assert suggest_chart(data) is None


@pytest.mark.parametrize(
    "text, key",
    [("Q3", (0, 3)), ("2025-Q2", (2025, 2)), ("T4 2024", (2024, 4)), ("2025-07", (2025, 7)), ("Jan", (0, 1)),
     ("juillet", (0, 7)), ("2024", (2024, 0)), ("Marketing", None), ("France", None)],
)  # fmt: skip
def test_period_keys(text, key):
    assert period_key(text) == key


VALIDATOR = jsonschema.validators.validator_for(SCHEMA)(SCHEMA)


def valid(spec: dict) -> None:
    VALIDATOR.validate(spec)


def test_the_schema_check_can_fail():
    chart = to_vega_lite(suggest_chart(REGIONS), REGIONS)
    chart["mark"] = {"type": "doughnut"}
    with pytest.raises(jsonschema.ValidationError):
        valid(chart)


@pytest.mark.parametrize("data", [DATES, QUARTERS, REGIONS, TWO_YEARS, POINTS, YEARS, MONTHS_FR])
def test_vega_lite_output_is_valid_and_names_real_columns(data):
    spec = suggest_chart(data)
    chart = to_vega_lite(spec, data)
    valid(chart)
    assert chart["$schema"].endswith("/vega-lite/v5.json")
    assert len(chart["data"]["values"]) == len(data.rows)
    assert set(chart["data"]["values"][0]) == set(data.columns)
    folded = {f for t in chart.get("transform", []) for f in t["as"]}
    for channel in chart["encoding"].values():
        assert channel["field"] in data.columns or channel["field"] in folded
    assert json.dumps(chart)  # plain JSON, nothing else


def test_ordered_text_axis_is_sorted_by_period():
    chart = to_vega_lite(suggest_chart(MONTHS_FR), MONTHS_FR)
    assert chart["encoding"]["x"]["sort"] == ["janvier", "février", "mars"]
    assert chart["encoding"]["x"]["type"] == "ordinal"


def test_column_names_with_dots_and_brackets_are_escaped():
    data = table(["a.b [x]", "rev.total"], ["text", "number"], [["p", 1], ["q", 2]])
    chart = to_vega_lite(suggest_chart(data), data)
    valid(chart)
    assert chart["encoding"]["x"]["field"] == r"a\.b \[x\]"
    assert chart["encoding"]["y"]["field"] == r"rev\.total"
    assert field_ref("plain") == "plain"


def test_validate_spec_accepts_loose_names_and_a_single_y():
    spec = validate_spec({"kind": "bar", "x": "Region", "y": "REVENUE", "title": "Revenue"}, REGIONS)
    assert spec == ChartSpec(kind="bar", x="region", y=["revenue"], title="Revenue")
    valid(to_vega_lite(spec, REGIONS))


@pytest.mark.parametrize(
    "spec, said",
    [
        ({"kind": "pie", "x": "region", "y": ["revenue"]}, "'kind'"),
        ({"kind": "bar", "x": "region"}, "'y': Field required"),
        ({"kind": "bar", "x": "country", "y": ["revenue"]}, "no column 'country'"),
        ({"kind": "bar", "x": "revenue", "y": ["region"]}, "region is not one"),
        ({"kind": "bar", "x": "region", "y": ["revenue", "region"]}, "y axis needs number columns"),
        ({"kind": "line", "x": "revenue", "y": ["revenue"]}, "cannot be both"),
        ({"kind": "scatter", "x": "region", "y": ["revenue"]}, "needs a number column on x"),
        ({"kind": "bar", "x": "region", "y": ["revenue", "rows_used"], "color": "region"}, "one y column"),
        ("bar of revenue", "A chart is an object"),
    ],
)
def test_validate_spec_errors_are_readable(spec, said):
    with pytest.raises(ToolError) as info:
        validate_spec(spec, REGIONS)
    assert said in info.value.message


def test_bar_of_too_many_categories_is_refused():
    data = table(["id", "v"], ["text", "number"], [[f"c{i}", i] for i in range(80)])
    with pytest.raises(ToolError, match="80 categories"):
        validate_spec({"kind": "bar", "x": "id", "y": "v"}, data)
