"""Regressions of the adversarial pass on ingest, tools and history: one test per scenario."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engine.errors import ToolError
from engine.rag.html_text import html_to_text
from engine.rag.ingest import ingest_paths
from engine.rag.manager import IndexManager
from engine.rag.store import ThemeIndex, theme_dir
from engine.tools.general import TextArgs, TextTools

ROOT = Path(__file__).resolve().parent.parent.parent


def cli(*args: str, env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("MISTRAL_", "OPENAI_"))} | env
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, env=full, capture_output=True, timeout=600, input=stdin
    )


@pytest.fixture(scope="module")
def embedder():
    from engine.rag.embeddings import get_embedder

    return get_embedder()


@pytest.fixture
def roots(tmp_path):
    indexes = tmp_path / "data" / "indexes"
    indexes.mkdir(parents=True)
    return {"INDEX_ROOT": str(indexes), "THEMES_ROOT": str(tmp_path / "data" / "themes")}


def test_scenario_1_theme_names_are_never_paths(tmp_path, roots, embedder):
    indexes = Path(roots["INDEX_ROOT"])
    doc = tmp_path / "doc.md"
    doc.write_text("# Doc\n\nThe hotel cap is 160 euros.\n")
    ingest_paths("other", [doc], manager=IndexManager(root=indexes), embedder=embedder)
    other_gen = {p.name for p in theme_dir("other", indexes).iterdir()}
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "gen-1").mkdir()  # a directory an unchecked clean-up would delete
    for theme in (str(outside), "../x", "", "x" * 300, "other/../other", ".hidden", "a\nb"):
        proc = cli("ingest", "--theme", theme, str(doc), env=roots)
        err = proc.stderr.decode()
        assert proc.returncode == 2, err
        assert err.count("\n") == 1 and err.startswith("error: The theme name") and "Traceback" not in err
    assert (outside / "gen-1").is_dir() and len(list(outside.iterdir())) == 1
    assert not (tmp_path / "data" / "x").exists() and not (indexes / "CURRENT").exists()
    assert {p.name for p in theme_dir("other", indexes).iterdir()} == other_gen
    proc = cli("ask", "hello", "--theme", "../x", env=roots)
    assert proc.returncode == 2 and proc.stderr.decode().startswith("error: The theme name")


def test_scenario_2_two_ingests_at_once_lose_nothing_and_a_damaged_theme_is_repaired(tmp_path, roots):
    indexes = Path(roots["INDEX_ROOT"])
    dirs = {who: tmp_path / who for who in ("left", "right")}
    rounds = 3
    for n in range(rounds):
        for who, folder in dirs.items():
            folder.mkdir(exist_ok=True)
            (folder / f"{who}_{n}.md").write_text(f"# {who} {n}\n\nRound {n} of the {who} writer: figure {n * 7}.\n")
        with ThreadPoolExecutor(2) as pool:
            procs = list(pool.map(lambda d: cli("ingest", "--theme", "shared", str(d), env=roots), dirs.values()))
        for proc in procs:
            assert proc.returncode == 0, proc.stderr.decode()
        index = ThemeIndex.load("shared", indexes)
        expected = {f"{who}_{k}.md" for who in dirs for k in range(n + 1)}
        assert set(index.manifest.documents) == expected
        assert {c.source for c in index.chunks} == expected
    # an app process with the index cached sees the CLI's work, and its next upload keeps it
    app = IndexManager(root=indexes)
    before = app.get("shared")
    extra = tmp_path / "extra" / "late.md"
    extra.parent.mkdir()
    extra.write_text("# Late\n\nA late document.\n")
    assert cli("ingest", "--theme", "shared", str(extra), env=roots).returncode == 0
    assert app.get("shared") is not before and "late.md" in app.get("shared").manifest.documents
    # a damaged current generation (only the manifest left) is repaired by ingesting again
    gen = theme_dir("shared", indexes) / ThemeIndex.load("shared", indexes).generation
    for part in gen.iterdir():
        if part.name != "manifest.json":
            part.unlink()
    proc = cli("ingest", "--theme", "shared", str(dirs["left"]), env=roots)
    assert proc.returncode == 0, proc.stderr.decode()
    assert "rebuilt" in proc.stdout.decode()
    assert set(ThemeIndex.load("shared", indexes).manifest.documents) == {f"left_{k}.md" for k in range(rounds)}


def test_scenario_4_replace_cannot_amplify_memory():
    args = TextArgs(operation="replace", text="a" * 200_000, find="a", replace_with="b" * 10_000)
    tracemalloc.start()
    try:
        with pytest.raises(ToolError, match="over the 200,000 limit"):
            TextTools().run(args)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


@pytest.mark.parametrize("n", [1_000, 12_400])  # within libxml2's depth limit, and far past it (~360 KB)
def test_scenario_5_nested_html_text_is_extracted_once(n):
    html = "".join(f"<ul><li>item{i} " for i in range(n)) + "</li></ul>" * n
    text = html_to_text(html)
    assert text.count("item") == n  # each text once: no li repeats its descendants (the quadratic cause)
    assert text.startswith("item0") and f"item{n - 1}" in text


@pytest.mark.parametrize("status", [400, 500])
def test_scenario_6_a_failed_history_summary_falls_back_to_truncation(fake_server, monkeypatch, status):
    from engine.react.agent import ReActEngine

    monkeypatch.setenv("MISTRAL_API_KEY", "sk-regression-secret")
    monkeypatch.setenv("MISTRAL_SERVER_URL", f"http://127.0.0.1:{fake_server.port}")
    monkeypatch.setenv("LLM_MAX_RETRY_S", "0")
    monkeypatch.setenv("MCP_SERVERS", "off")
    fake_server.script.extend([{"status": status}, {"text": "Answer: the turn went on"}])
    engine = ReActEngine()
    roles = ["user", "assistant"] * 10
    engine.set_history([{"role": r, "content": f"turn {i} " + "words " * 800} for i, r in enumerate(roles)])
    assert len(fake_server.requests) == 1  # the summary call, which failed
    summary = [m for m in engine.history if m["role"] == "system"]
    assert summary and summary[0]["content"].startswith("Summary of the earlier conversation: user: turn")
    text = "".join(engine.stream_sync("What now?"))
    assert engine.result.status == "answered", text
    assert engine.result.answer == "the turn went on"


def test_scenario_7_same_named_files_in_two_folders_do_not_collide(tmp_path, embedder):
    docs = tmp_path / "docs"
    for folder, figure in (("a", 11), ("b", 22)):
        (docs / folder).mkdir(parents=True)
        (docs / folder / "notes.md").write_text(f"# Notes {folder}\n\nThe {folder} figure is {figure}.\n")
    manager = IndexManager(root=tmp_path / "indexes")
    first = ingest_paths("notes", [docs], manager=manager, embedder=embedder)
    again = ingest_paths("notes", [docs], manager=manager, embedder=embedder)
    assert sorted(first.added) == ["a/notes.md", "b/notes.md"]
    assert sorted(again.unchanged) == ["a/notes.md", "b/notes.md"] and again.replaced == []
    index = ThemeIndex.load("notes", tmp_path / "indexes")
    assert {c.source for c in index.chunks} == {"a/notes.md", "b/notes.md"}


def test_scenario_8_a_non_utf8_file_name_is_skipped_and_the_rest_goes_in(tmp_path, roots):
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(9):
        (docs / f"good{n}.md").write_text(f"# Good {n}\n\nGood document number {n}.\n")
    bad = os.path.join(os.fsencode(docs), b"caf\xe9-\xff.md")
    with open(bad, "wb") as fh:
        fh.write(b"# Bad name\n\nThe content is fine, the name is not.\n")
    proc = cli("ingest", "--theme", "names", str(docs), env=roots)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr.decode()
    assert "Traceback" not in proc.stderr.decode()
    skipped = [line for line in out.splitlines() if line.startswith("skipped:")]
    assert len(skipped) == 1 and "not valid UTF-8" in skipped[0] and "caf" in skipped[0]
    assert "9 added" in out and "1 skipped" in out
    index = ThemeIndex.load("names", Path(roots["INDEX_ROOT"]))
    assert set(index.manifest.documents) == {f"good{n}.md" for n in range(9)}
