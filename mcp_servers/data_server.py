"""The analyst data server (MCP over stdio): live figures an analyst asks about.

Tools: the clock in any timezone, the machine's load and memory, disk usage, and
queries over the sales dataset that ships with the demo theme.

Run: python mcp_servers/data_server.py            (stdio)
     python mcp_servers/data_server.py --http 8765  (streamable HTTP at http://127.0.0.1:8765/mcp)
"""

from __future__ import annotations

import csv
import logging
import os
import shutil
import statistics
from datetime import datetime
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

logging.basicConfig(level=logging.WARNING)
for noisy in ("mcp", "mcp.server", "httpx"):
    logging.getLogger(noisy).setLevel(logging.WARNING)

DATASET = Path(
    os.environ.get("SALES_CSV", Path(__file__).resolve().parent.parent / "data/themes/handbook/sales_2025.csv")
)
NUMERIC = {"revenue_eur", "units", "margin_pct"}
server = MCPServer("analyst-data")


def _rows() -> list[dict[str, str]]:
    with DATASET.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@server.tool()
def clock(timezone: str = "UTC") -> str:
    """Current date and time in an IANA timezone such as Europe/Paris."""
    try:
        now = datetime.now(ZoneInfo(timezone))
    except (ZoneInfoNotFoundError, ValueError):
        raise ToolError(f"unknown timezone {timezone!r}; use an IANA name like Europe/Paris") from None
    return f"{now.isoformat(timespec='seconds')} ({now.strftime('%A')}, {timezone})"


@server.tool()
def system_load() -> dict:
    """The machine's CPU load averages (1, 5, 15 min), core count and memory in use."""
    load1, load5, load15 = os.getloadavg()
    mem: dict[str, int] = {}
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            key, value = line.split(":", 1)
            mem[key] = int(value.split()[0])
    except OSError:
        pass
    total, available = mem.get("MemTotal", 0), mem.get("MemAvailable", 0)
    used_pct = round(100 * (total - available) / total, 1) if total else None
    return {
        "load_1m": round(load1, 2),
        "load_5m": round(load5, 2),
        "load_15m": round(load15, 2),
        "cores": os.cpu_count(),
        "memory_used_pct": used_pct,
    }


@server.tool()
def disk_usage(path: str = "/") -> dict:
    """Total, used and free disk space (GB) of the filesystem holding a path."""
    usage = shutil.disk_usage(path)
    gb = 1e9
    return {
        "path": path,
        "total_gb": round(usage.total / gb, 1),
        "used_gb": round(usage.used / gb, 1),
        "free_gb": round(usage.free / gb, 1),
    }


@server.tool()
def sales_columns() -> dict:
    """Columns of the 2025 sales dataset and the values of its categorical columns."""
    rows = _rows()
    columns = list(rows[0]) if rows else []
    return {c: sorted({r[c] for r in rows}) if c not in NUMERIC else "number" for c in columns}


@server.tool()
def sales_query(
    metric: Literal["revenue_eur", "units", "margin_pct"] = "revenue_eur",
    aggregate: Literal["sum", "mean", "min", "max", "count"] = "sum",
    group_by: list[Literal["quarter", "region", "product"]] | None = None,
    quarter: str | None = None,
    region: str | None = None,
    product: str | None = None,
) -> dict:
    """Aggregate the 2025 sales dataset (quarter, region, product): e.g. total revenue by region for Q3."""
    filters = {"quarter": quarter, "region": region, "product": product}
    rows = [r for r in _rows() if all(v is None or r[k].lower() == v.lower() for k, v in filters.items())]
    if not rows:
        raise ToolError(
            f"no rows match { ({k: v for k, v in filters.items() if v}) }; call sales_columns for valid values"
        )
    keys = group_by or []
    groups: dict[str, list[float]] = {}
    for row in rows:
        label = " / ".join(row[k] for k in keys) or "all"
        groups.setdefault(label, []).append(float(row[metric]))
    fn = {"sum": sum, "mean": statistics.fmean, "min": min, "max": max, "count": len}[aggregate]
    result = {label: round(fn(values), 2) for label, values in sorted(groups.items())}
    return {"metric": metric, "aggregate": aggregate, "group_by": keys, "rows_used": len(rows), "result": result}


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
