"""The analyst data server (MCP over stdio): live figures an analyst asks about.

Tools: the clock in any timezone, the machine's load and memory, disk usage, and
queries over the sales dataset that ships with the demo theme.

Run: python mcp_servers/data_server.py            (stdio)
     python mcp_servers/data_server.py --http 8765  (streamable HTTP at http://127.0.0.1:8765/mcp)
     python mcp_servers/data_server.py --disk-path /srv/data   (disk_usage may report this path too)

``disk_usage`` only reports the configured paths (``/`` and the project's data folder
by default, plus each ``--disk-path``): it never says whether any other path exists.
"""

from __future__ import annotations

import argparse
import csv
import logging
import os
import re
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
PROJECT_DATA = Path(__file__).resolve().parent.parent / "data"
DISK_PATHS: list[str] = ["/", str(PROJECT_DATA)]
_ZONE = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+){0,2}")
server = MCPServer("analyst-data")


def _rows() -> list[dict[str, str]]:
    with DATASET.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@server.tool()
def clock(timezone: str = "UTC") -> str:
    """Current date and time in an IANA timezone such as Europe/Paris."""
    hint = "use an IANA name like Europe/Paris"
    if len(timezone) > 64 or not _ZONE.fullmatch(timezone):
        raise ToolError(f"unknown timezone {timezone[:40]!r}; {hint}")
    try:
        now = datetime.now(ZoneInfo(timezone))
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ToolError(f"unknown timezone {timezone[:40]!r}; {hint}") from None
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
    """Total, used and free disk space (GB) of the filesystem holding one of the configured paths."""
    if path not in DISK_PATHS:
        raise ToolError(f"disk_usage reports only these paths: {', '.join(DISK_PATHS)}")
    try:
        usage = shutil.disk_usage(path)
    except OSError:
        raise ToolError(f"the disk usage of {path} cannot be read right now") from None
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The analyst data MCP server.")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT")
    parser.add_argument("--disk-path", action="append", default=[], help="a path disk_usage may report")
    args = parser.parse_args(argv)
    DISK_PATHS.extend(p for p in args.disk_path if p not in DISK_PATHS)
    if args.http:
        server.run("streamable-http", host="127.0.0.1", port=args.http)
    else:
        server.run()


if __name__ == "__main__":
    main()
