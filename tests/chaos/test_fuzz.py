"""Property-based fuzzing of tool arguments and ingest file names.

Every input must end in a result or one readable sentence (a ToolError, a
skipped line), within a bounded time and memory. Each test prints a one-line count.
"""

from __future__ import annotations

import os
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import ToolError
from engine.rag.ingest import ingest_paths
from engine.rag.manager import IndexManager
from engine.rag.store import ThemeIndex
from engine.tools.base import render_result
from engine.tools.calculator import Calculator
from engine.tools.general import DateTimeTool, Statistics, TextTools, UnitConverter

TOOLS = {t.name: t for t in (Calculator(), Statistics(), TextTools(), DateTimeTool(), UnitConverter())}
HANG_GUARD_S = 20.0  # a hang guard, not a speed claim: a quadratic or unbounded input takes minutes
MAX_PEAK_BYTES = 200_000_000  # working memory of one call
MAX_OUTPUT_CHARS = 250_000

_hostile_text = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "../../etc/passwd",
            "/etc/localtime",
            "Europe/Paris",
            "x" * 5000,
            "\ud800",
            "a\x00b",
            "1 111 111 111 111x",
            "2026-01-31",
            "9" * 5000,
            "(-8)**(1/3)",
            "9**9999",
            "factorial(500)**3",
            "1e308*10",
            "UTC",
            "TB",
            "km",
            "C",
        ]
    ),
    st.integers(1, 40).map(lambda n: "a" * (n * 5000)),
    st.integers(1, 50).map(lambda n: "1 " * (n * 2000) + "x"),
)
_numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**30), 10**30),
    st.sampled_from([1e308, -1e308, 5e-324, 0, float("nan"), float("inf")]),
)
_json = st.recursive(
    st.one_of(st.none(), st.booleans(), _numbers, _hostile_text),
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20,
)
_values = st.one_of(
    st.lists(_numbers, max_size=50),
    st.sampled_from([10, 100_001, 120_000]).map(lambda n: [1.5] * n),
    _json,
)


_plausible = {
    "expression": st.lists(
        st.sampled_from(["17", "*", "23", "(", ")", "/", "4", "**", "0.5", "-", "sqrt(2)", "1e308", "9", "+"]),
        min_size=1,
        max_size=12,
    ).map(" ".join),
    "values": st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=30),
    "y": st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=30),
    "timezone": st.sampled_from(["UTC", "Europe/Paris", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "Mars/Base"]),
    "start": st.dates().map(str),
    "end": st.dates().map(str),
    "value": st.one_of(st.floats(-1e9, 1e9), st.dates().map(str)),
    "from_unit": st.sampled_from(["km", "mi", "kg", "lb", "C", "F", "GiB", "MB", "kwh", "week", "parsec"]),
    "to_unit": st.sampled_from(["m", "ft", "g", "oz", "K", "B", "TB", "J", "day", "l"]),
    "text": st.text(max_size=200),
    "find": st.text(min_size=1, max_size=3),
    "replace_with": st.text(max_size=50),
}


def _field_value(field: str) -> st.SearchStrategy:
    hostile = {
        "values": _values,
        "y": _values,
        "table": st.one_of(st.dictionaries(_hostile_text, _values, max_size=5), _json),
        "value": st.one_of(_numbers, _hostile_text),
        "n": st.one_of(st.integers(-5, 200), _json),
    }.get(field, st.one_of(_hostile_text, _json))
    plausible = _plausible.get(field)
    return hostile if plausible is None else st.one_of(plausible, plausible, hostile)


@st.composite
def tool_calls(draw) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(TOOLS)))
    props = TOOLS[name].json_schema().get("properties", {})
    raw: dict[str, Any] = {}
    for field, prop in props.items():
        if draw(st.integers(0, 9)) == 0:
            continue  # sometimes missing
        if "enum" in prop and draw(st.integers(0, 4)) > 0:
            raw[field] = draw(st.sampled_from(prop["enum"]))
        else:
            raw[field] = draw(_field_value(field))
    if draw(st.integers(0, 9)) == 0:
        raw[draw(st.text(max_size=10))] = draw(_json)  # an unknown argument
    return name, raw


def _one_call(name: str, raw: dict[str, Any]) -> str:
    tool = TOOLS[name]
    try:
        result = render_result(tool.run(tool.validate(raw)))
    except ToolError as exc:
        message = exc.message
        assert message.strip() and "Traceback" not in message, message
        assert len(message) < 2000, (name, len(message))
        return "error"
    assert isinstance(result, str) and len(result) <= MAX_OUTPUT_CHARS, (name, len(result))
    return "result"


def test_fuzz_tool_arguments(capsys):
    counts: Counter[str] = Counter()
    crashes: list[str] = []
    worst = {"peak": 0, "input": ""}

    @settings(max_examples=2400, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(tool_calls())
    def one(call: tuple[str, dict[str, Any]]) -> None:
        name, raw = call
        tracemalloc.start()  # around the call only: tracing hypothesis's own drawing made the test 5x slower
        started = time.monotonic()
        try:
            counts[_one_call(name, raw)] += 1
        except Exception as exc:  # noqa: BLE001 - counted and reported below
            counts["crash"] += 1
            crashes.append(f"{name} {str(raw)[:120]}: {type(exc).__name__}: {str(exc)[:120]}")
        finally:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        elapsed = time.monotonic() - started
        if peak > worst["peak"]:
            worst.update(peak=peak, input=f"{name} {str(raw)[:160]}")
        assert elapsed < HANG_GUARD_S, (name, str(raw)[:200], elapsed)

    one()
    total = sum(counts.values())
    with capsys.disabled():
        print(
            f"\nfuzz: {total} tool inputs, {counts['result']} results, {counts['error']} readable errors, "
            f"{counts['crash']} crashes, worst call {worst['peak'] / 1e6:.0f} MB"
        )
    assert crashes == [], crashes[:5]
    assert total >= 2000 and counts["result"] > 0 and counts["error"] > 0
    assert worst["peak"] < MAX_PEAK_BYTES, worst


_name_bytes = st.one_of(
    st.binary(min_size=1, max_size=40),
    st.text(min_size=1, max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.text(st.characters(codec="utf-8", categories=["L", "N"]), min_size=1, max_size=40).map(str.encode),
    st.integers(200, 250).map(lambda n: b"L" * n),
    st.integers(60, 127).map(lambda n: ("é" * n).encode()),  # multibyte: near NAME_MAX in bytes, not in characters
    st.integers(30, 62).map(lambda n: ("😀" * n).encode()),
    st.sampled_from([b"..", b".", b"-rf", b"CURRENT", b"gen-1", b"a\nb", b"\xff\xfe", b"caf\xc3\xa9", b"..\\x"]),
)
_suffixes = st.sampled_from([b".md", b".txt", b".csv", b".html", b".bin", b"", b".MD", b".pdf"])


@st.composite
def file_sets(draw) -> list[bytes]:
    names = draw(st.lists(st.tuples(_name_bytes, _suffixes), min_size=1, max_size=8))
    out = []
    for stem, suffix in names:
        name = (stem.replace(b"/", b"_").replace(b"\x00", b"_") + suffix)[:250]
        if name not in (b".", b"..") and name not in out:
            out.append(name)
    return out


def test_fuzz_ingest_file_names(tmp_path, capsys):
    from engine.rag.embeddings import get_embedder

    embedder = get_embedder()
    counts: Counter[str] = Counter()
    crashes: list[str] = []
    rounds = {"n": 0}

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(file_sets())
    def one(names: list[bytes]) -> None:
        rounds["n"] += 1
        folder = tmp_path / f"r{rounds['n']}"
        folder.mkdir()
        paths = []
        for i, name in enumerate(names):
            path = os.path.join(os.fsencode(folder), name)
            try:
                with open(path, "wb") as fh:
                    fh.write(f"# Doc {i}\n\nContent number {i}, figure {i * 3}.\n".encode())
            except OSError:
                continue  # a name the filesystem itself refuses is not an ingest input
            paths.append(Path(os.fsdecode(path)))
        manager = IndexManager(root=tmp_path / "indexes")
        started = time.monotonic()
        try:
            report = ingest_paths("fuzz", paths, manager=manager, embedder=embedder)
        except Exception as exc:  # noqa: BLE001 - counted and reported below
            counts["crash"] += 1
            crashes.append(f"{names}: {type(exc).__name__}: {str(exc)[:160]}")
            return
        assert time.monotonic() - started < HANG_GUARD_S * 3
        for line in report.skipped:
            line.encode("utf-8")  # printable, never a lone surrogate
            assert "\n" not in line and len(line) < 600, line
        counts["files"] += len(paths)
        counts["ingested"] += len(report.added) + len(report.replaced) + len(report.unchanged)
        counts["skipped"] += len(report.skipped)
        assert len(report.added) + len(report.replaced) + len(report.unchanged) + len(report.skipped) == len(paths)
        index = ThemeIndex.load("fuzz", tmp_path / "indexes")
        assert set(report.added) <= set(index.manifest.documents)
        assert index.index.ntotal == len(index.chunks)

    one()
    with capsys.disabled():
        print(
            f"\nfuzz: {counts['files']} file names in {rounds['n']} ingests, {counts['ingested']} ingested, "
            f"{counts['skipped']} skipped with one line, {counts['crash']} crashes"
        )
    assert crashes == [], crashes[:5]
    assert counts["ingested"] > 0 and counts["skipped"] > 0


_upload_names = st.one_of(
    st.text(min_size=1, max_size=300),
    st.integers(90, 260).map(lambda n: "é" * n + ".md"),
    st.integers(40, 80).map(lambda n: "😀" * n + ".md"),
    st.integers(1, 300).map(lambda n: "a/" * n + "b.md"),
)


def test_fuzz_upload_names_are_written_or_refused_in_one_line(tmp_path, capsys):
    from engine.rag.uploads import save_uploads

    counts: Counter[str] = Counter()

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.lists(_upload_names, min_size=1, max_size=4))
    def one(names: list[str]) -> None:
        target = tmp_path / f"u{sum(counts.values())}"
        written, refused = save_uploads(target, [(n, b"# x\n\ncontent") for n in names])
        assert len(written) + len(refused) == len(names)
        for line in refused:
            line.encode("utf-8")
            assert "\n" not in line and len(line) < 600, line
        for path in written:
            assert len(os.fsencode(path.name)) <= 200 and path.parent == target
        assert not [p for p in target.iterdir() if p.name.startswith(".upload-")]  # no temporary file left
        counts["written"] += len(written)
        counts["refused"] += len(refused)

    one()
    with capsys.disabled():
        print(f"\nfuzz: {counts['written']} upload names written, {counts['refused']} refused with one line")
    assert counts["written"] > 0 and counts["refused"] > 0


@st.composite
def hostile_documents(draw) -> tuple[str, bytes]:
    from tests.engine.rag.conftest import shared_stream_pdf

    kind = draw(st.sampled_from(["shared_pdf", "own_pdf", "paragraph", "code"]))
    if kind in ("shared_pdf", "own_pdf"):
        pages, lines = draw(st.integers(1, 3000)), draw(st.integers(0, 1500))
        if kind == "own_pdf":
            pages = min(pages, 60)
        return "doc.pdf", shared_stream_pdf(pages, draw(st.integers(1, 120)), lines, shared=kind == "shared_pdf")
    size = draw(st.integers(1, 3_000_000))
    unit = draw(st.sampled_from(["x", "word ", "é", "a. ", "value = f(x)  # no end\n", "\t"]))
    return "doc.md", (unit * (size // len(unit) + 1))[:size].encode()


def test_fuzz_hostile_documents_end_in_bounded_chunks_or_one_line(capsys):
    from engine.rag.chunking import chunk_file
    from engine.rag.cuts import MAX_FILE_CHARS, FileCuts, ReadLimits
    from engine.rag.readers import UnreadableFile, read_document

    counts: Counter[str] = Counter()
    limits = ReadLimits(page_chars=20_000, file_chars=400_000)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(hostile_documents())
    def one(doc: tuple[str, bytes]) -> None:
        name, data = doc
        try:
            reading = read_document(name, Path(name).suffix, data, limits)
        except UnreadableFile as exc:
            assert "\n" not in str(exc) and str(exc).startswith(name)
            counts["refused"] += 1
            return
        chunked = chunk_file(name, reading.sections, max_chunks=300)
        assert sum(len(s.text) for s in reading.sections) <= limits.file_chars <= MAX_FILE_CHARS
        assert all(len(s.text) <= limits.page_chars for s in reading.sections if name.endswith(".pdf"))
        assert len(chunked.chunks) <= 300
        if reading.cuts:
            line = FileCuts(source=name, cuts=reading.cuts).text()
            assert "\n" not in line and line.startswith(f"{name}: indexed in part (")
            counts["cut"] += 1
        counts["capped"] += chunked.capped
        counts["read"] += 1

    one()
    with capsys.disabled():
        print(
            f"\nfuzz: {counts['read']} hostile documents read ({counts['cut']} cut with one line, "
            f"{counts['capped']} at the chunk cap), {counts['refused']} refused"
        )
    assert counts["read"] > 0 and counts["cut"] > 0
