"""What a turn shows beside its answer: a chart of the table result the answer was
built on, chosen from the column types (never HTML: a Vega-Lite spec as JSON)."""

from __future__ import annotations

import json

from engine.react.step import Step
from engine.tools.charts import suggest_chart, to_vega_lite


def chart_payload(steps: list[Step]) -> str | None:
    """The Vega-Lite spec for the run's latest table result, when a chart fits it."""
    tables = [o.table for s in steps for o in s.observations if o.table is not None]
    if not tables or len(tables[-1].rows) < 2:
        return None
    spec = suggest_chart(tables[-1])
    if spec is None:
        return None
    return json.dumps(to_vega_lite(spec, tables[-1]), ensure_ascii=False, default=str)
