"""The suite, and the product, on any x86-64 CPU, not only this machine's.

A green run on a CPU with AVX-512 once hid a pgvector compiled for it: building an HNSW
index killed PostgreSQL with SIGILL on a CPU without AVX-512. These tests build and
search an HNSW index on the test PostgreSQL, then run the same server, and every other
compiled library the product loads, under QEMU's user-mode emulator with a Haswell CPU
(AVX2, FMA, F16C; no AVX-512, no AVX512-BF16, no AMX), whatever CPU runs the tests.
``make test`` installs QEMU (Debian's ``qemu-user``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parent.parent
QEMU = "qemu-x86_64"
CPU = "Haswell"  # AVX2 without AVX-512: the CPU of many laptops, servers and CI runners
FEATURES = ("avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_bf16", "amx_tile")

HNSW_SQL = """
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE items (id int PRIMARY KEY, embedding vector(16));
INSERT INTO items SELECT i, ARRAY(SELECT sin(i * 7.0 + d) FROM generate_series(1, 16) d)::vector
  FROM generate_series(1, 3000) i;
CREATE INDEX items_hnsw ON items USING hnsw (embedding vector_cosine_ops);
"""
NEAREST_SQL = "SELECT id FROM items ORDER BY embedding <=> (SELECT embedding FROM items WHERE id = 42) LIMIT 10"


def cpu_features() -> str:
    """The features of this CPU that compiled code may assume, as ``/proc/cpuinfo`` lists them."""
    try:
        flags = next(line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags"))
    except (OSError, StopIteration):
        return "unknown (no /proc/cpuinfo)"
    have = set(flags.split(":", 1)[1].split())
    return ", ".join(f"{name} {'yes' if name in have else 'no'}" for name in FEATURES)


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


@pytest.mark.slow
def test_the_test_postgresql_builds_and_searches_an_hnsw_index(pg_server):
    url = _plain(pg_server.create_database("hnsw"))
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(HNSW_SQL)
            conn.execute("SET enable_seqscan = off")
            plan = "\n".join(row[0] for row in conn.execute("EXPLAIN " + NEAREST_SQL))
            found = [row[0] for row in conn.execute(NEAREST_SQL)]
            conn.execute("SET enable_seqscan = on; SET enable_indexscan = off")
            exact = [row[0] for row in conn.execute(NEAREST_SQL)]
    except psycopg.Error as exc:
        pytest.fail(
            f"pgvector could not build or search an HNSW index ({exc}); this CPU has {cpu_features()}. "
            "A pgvector compiled for instructions this CPU lacks dies with SIGILL."
        )
    assert "items_hnsw" in plan
    assert found[0] == 42 and len(found) == 10
    assert len(set(found) & set(exact)) >= 9  # the graph's recall@10 against an exact scan


@pytest.fixture(scope="module")
def emulator() -> str:
    path = shutil.which(QEMU)
    assert path, f"{QEMU} is missing: `make test` installs Debian's qemu-user (apt-get install qemu-user)"
    return path


def _as_server_user(pg_server) -> dict:
    """subprocess arguments that run a command as the test server's system user (PostgreSQL
    refuses to run as root)."""
    return {"user": pg_server.system_user} if pg_server.system_user else {}


@pytest.mark.slow
def test_postgresql_builds_an_hnsw_index_on_a_cpu_without_avx512(pg_server, emulator):
    """The test server's own binaries, in single-user mode under the emulated Haswell CPU:
    ``CREATE INDEX … USING hnsw`` and a nearest-neighbour search complete."""
    root = Path(tempfile.mkdtemp(prefix="pg-haswell-"))
    try:
        os.chmod(root, 0o777)
        data = root / "data"
        as_user = _as_server_user(pg_server)
        subprocess.run(
            [str(pg_server.bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--no-sync"],
            check=True,
            capture_output=True,
            timeout=120,
            **as_user,
        )
        script = HNSW_SQL.replace("\n", " ").replace(";", ";\n") + NEAREST_SQL + ";\n"
        run = subprocess.run(
            [emulator, "-cpu", CPU, str(pg_server.bin_dir / "postgres"), "--single", "-D", str(data), "postgres"],
            input=script,
            capture_output=True,
            text=True,
            timeout=300,
            **as_user,
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    output = run.stdout + run.stderr
    assert "Illegal instruction" not in output, f"pgvector needs an instruction a {CPU} CPU lacks:\n{output[-2000:]}"
    assert run.returncode == 0, output[-2000:]
    assert 'id = "42"' in output  # the nearest neighbour of row 42 is row 42


PROBE_TEST = "test_every_native_library_runs_on_a_cpu_without_avx512"
PROBE_KEY = pytest.StashKey[tuple[subprocess.Popen | None, Path | None, str]]()


def start_probe(config: pytest.Config) -> None:
    """Start ``portability_probe.py`` under the emulator in the background, at low priority.

    Emulated, its imports and model runs take several minutes of one core; started when the
    session's tests are collected, it runs beside the suite instead of after it, and the
    test only collects its result."""
    path = shutil.which(QEMU)
    if path is None:
        config.stash[PROBE_KEY] = (None, None, f"{QEMU} is missing")
        return
    out = Path(tempfile.mkstemp(prefix="portability-", suffix=".log")[1])
    with out.open("w") as sink:
        proc = subprocess.Popen(
            ["nice", "-n", "15", path, "-cpu", CPU, sys.executable, str(ROOT / "tests" / "portability_probe.py")],
            stdout=sink,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    config.stash[PROBE_KEY] = (proc, out, "")


def stop_probe(config: pytest.Config) -> None:
    """End a probe the session no longer waits for (a run cut short with -x or Ctrl-C)."""
    proc, out, _ = config.stash.get(PROBE_KEY, (None, None, ""))
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()
    if out is not None:
        out.unlink(missing_ok=True)


@pytest.mark.slow
def test_every_native_library_runs_on_a_cpu_without_avx512(request, emulator):
    """llama.cpp (built without -march=native), onnxruntime with the default embedding model,
    torch with MiniLM, FAISS, DuckDB and torch's bfloat16 check, each doing real work under the
    emulated CPU. There the bfloat16 embedding route is not taken: the library's float32 runs."""
    if PROBE_KEY not in request.config.stash:
        start_probe(request.config)  # collected without the conftest hook (a single-file run)
    proc, out, problem = request.config.stash[PROBE_KEY]
    assert proc is not None and out is not None, problem
    try:
        code = proc.wait(timeout=1800)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    output = out.read_text(errors="replace")
    out.unlink(missing_ok=True)
    tail = "\n".join(line for line in output.splitlines() if "TCG doesn't support" not in line)[-3000:]
    assert code == 0, f"a native library failed on a {CPU} CPU (rc {code}, -4 is SIGILL):\n{tail}"
    probe = json.loads(output.strip().splitlines()[-1])
    assert probe["cpu"]["AVX2"] and not probe["cpu"]["AVX512F"], probe  # the emulated CPU is what we asked for
    assert probe["bfloat16_native"] is False and probe["minilm_route"] == "float32"
    assert probe["embedding_default"]["name"] == "multilingual-e5-small-q4", probe
    assert probe["embedding_default"]["best"] == 0 and probe["embedding_minilm"]["best"] == 0
    assert probe["faiss_best"] == 0
    assert probe["duckdb"] == 499500
    assert probe["llama_tokens"] >= 1
