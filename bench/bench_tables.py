"""`query_table` on a 1,000,000-row CSV against pandas on the same file, same run.

Two questions: the sum of revenue by region for one quarter (group-by) and the number
of rows of one product over a revenue threshold (filter). Each query_table sample is a
whole tool call: argument check, a fresh locked-down DuckDB connection, registration
of the table, the query and the rendering. pandas is timed with the CSV already in
memory, and again including ``read_csv``. Loading the catalog (DuckDB reading the CSV)
is timed against ``pandas.read_csv`` too. Ratios are query_table p95 / pandas p95
(below 1: query_table is faster).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine, percentiles  # noqa: E402
from engine.tools.tables import QueryTable, TableCatalog  # noqa: E402

ROWS = 1_000_000
SAMPLES = 30
READ_SAMPLES = 5
REGIONS = np.array(["France", "Benelux", "United Kingdom", "Export", "Germany", "Iberia"])
PRODUCTS = np.array(["Pipettes", "Microscopes", "Centrifuges", "Incubators", "Balances"])
GROUP_SQL = (
    "SELECT region, sum(revenue) AS revenue FROM sales "
    "WHERE date >= DATE '2025-07-01' AND date < DATE '2025-10-01' GROUP BY region ORDER BY region"
)
FILTER_SQL = "SELECT count(*) AS n FROM sales WHERE product = 'Pipettes' AND revenue > 5000"


def write_csv(path: Path) -> None:
    rng = np.random.default_rng(7)
    days = pd.Timestamp("2025-01-01") + pd.to_timedelta(rng.integers(0, 365, ROWS), unit="D")
    units = rng.integers(1, 200, ROWS)
    frame = pd.DataFrame(
        {
            "date": days.strftime("%Y-%m-%d"),
            "region": REGIONS[rng.integers(0, len(REGIONS), ROWS)],
            "product": PRODUCTS[rng.integers(0, len(PRODUCTS), ROWS)],
            "units": units,
            "revenue": np.round(units * rng.uniform(5, 80, ROWS), 2),
        }
    )
    frame.to_csv(path, index=False)


def pandas_group(df: pd.DataFrame) -> dict[str, float]:
    q3 = df[(df["date"] >= "2025-07-01") & (df["date"] < "2025-10-01")]
    return q3.groupby("region")["revenue"].sum().to_dict()


def pandas_filter(df: pd.DataFrame) -> int:
    return int(((df["product"] == "Pipettes") & (df["revenue"] > 5000)).sum())


def read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, parse_dates=["date"])


def sample(fn, n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def line(label: str, times: list[float]) -> float:
    p50, p95 = percentiles(times)
    print(f"  {label:<44} p50 {p50 * 1000:8.1f} ms   p95 {p95 * 1000:8.1f} ms   (n={len(times)})")
    return p95


def main() -> None:
    print(f"query_table vs pandas on a {ROWS:,}-row CSV — {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sales.csv"
        write_csv(path)
        print(f"  CSV: {path.stat().st_size / 1e6:.1f} MB")

        catalogs: list[TableCatalog] = []
        load_p95 = line(
            "catalog load (DuckDB read_csv_auto)",
            sample(lambda: catalogs.append(TableCatalog.from_paths([path])), READ_SAMPLES),
        )
        read_p95 = line("pandas.read_csv", sample(lambda: read(path), READ_SAMPLES))
        tool = QueryTable(catalogs[-1])
        df = read(path)

        ours_group = {r[0]: r[1] for r in tool.run(tool.Args(sql=GROUP_SQL)).table.rows}
        theirs_group = pandas_group(df)
        assert ours_group.keys() == theirs_group.keys()
        assert all(abs(ours_group[k] - theirs_group[k]) < 1e-6 * abs(theirs_group[k]) for k in ours_group)
        assert tool.run(tool.Args(sql=FILTER_SQL)).table.rows[0][0] == pandas_filter(df)

        for name, sql, fn in (("group-by", GROUP_SQL, pandas_group), ("filter", FILTER_SQL, pandas_filter)):
            print(f" {name}: {sql}")
            ours = line("query_table (whole tool call)", sample(lambda sql=sql: tool.run(tool.Args(sql=sql)), SAMPLES))
            mem = line("pandas, CSV already in memory", sample(lambda fn=fn: fn(df), SAMPLES))
            full = line("pandas including read_csv", sample(lambda fn=fn: fn(read(path)), READ_SAMPLES))
            print(
                f"  ratio query_table / pandas in memory: {ours / mem:.2f}×   / pandas with read_csv: {ours / full:.3f}×"
            )
        print(f"  ratio catalog load / pandas.read_csv: {load_p95 / read_p95:.2f}×")


if __name__ == "__main__":
    main()
