"""Running ``python -m engine`` for the report benchmark: in this process, or one process per call.

In-process (the default) calls ``engine.cli.main`` with the argv a user would type, its
stdout and stderr captured: the same parser, ``_ask`` and ``done`` object as the
command, while the models load once for the whole run (they are process-wide in
``engine.llm.embedded`` and ``engine.rag.embeddings``). Each call still builds its own
``EngineContext``, indexes and tools, as a fresh command does. ``per_process=True`` runs
each call as ``python -m engine ...`` in a subprocess instead, model load included.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel

QUESTION_TIMEOUT_S = 900


class Run(BaseModel):
    exit_code: int
    done: dict[str, Any]
    blocks: list[dict[str, Any]]
    seconds: float
    cpu_seconds: float = 0.0  # CPU time of the call, every thread (and the child process, per process)
    stderr: str = ""


def _parse(stdout: str, stderr: str, exit_code: int, seconds: float, cpu: float = 0.0) -> Run:
    lines = []
    for line in stdout.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue  # a stray print is not a block
    if lines and isinstance(lines[-1], dict) and lines[-1].get("type") == "done":
        done, blocks = lines[-1], lines[:-1]
    else:
        reason = (stderr.strip().splitlines() or [f"exit {exit_code}, no done object"])[-1]
        done, blocks = {"type": "done", "status": "error", "answer": "", "error": reason}, lines
    return Run(
        exit_code=exit_code, done=done, blocks=blocks, seconds=seconds, cpu_seconds=round(cpu, 2), stderr=stderr[-2000:]
    )


class CLI:
    """``python -m engine`` with a fixed environment and working directory."""

    def __init__(self, env: dict[str, str], cwd: Path, per_process: bool = False) -> None:
        self.env = env
        self.cwd = cwd
        self.per_process = per_process

    def __call__(self, argv: list[str]) -> Run:
        start = time.perf_counter()
        if self.per_process:
            children = _children_cpu()
            try:
                proc = subprocess.run(
                    [sys.executable, "-m", "engine", *argv],
                    cwd=self.cwd, env=self.env, capture_output=True, text=True, timeout=QUESTION_TIMEOUT_S,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                return _parse("", f"timed out after {QUESTION_TIMEOUT_S} s", 1, time.perf_counter() - start)
            cpu = _children_cpu() - children
            return _parse(proc.stdout, proc.stderr, proc.returncode, time.perf_counter() - start, cpu)
        return self._in_process(argv, start)

    def _in_process(self, argv: list[str], start: float) -> Run:
        from engine.cli import main

        out, err = io.StringIO(), io.StringIO()
        cpu = time.process_time()
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(self.env)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main(argv)
                except SystemExit as exc:  # the argument parser's exit on bad input
                    code = exc.code if isinstance(exc.code, int) else 2
                except Exception as exc:  # noqa: BLE001 - one failing question must not end the run; it is recorded
                    print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
                    code = 1
        finally:
            os.environ.clear()
            os.environ.update(saved)
        cpu = time.process_time() - cpu
        return _parse(out.getvalue(), err.getvalue(), code, time.perf_counter() - start, cpu)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_env(root: Path, server_url: str | None = None) -> dict[str, str]:
    """The environment of every CLI call: data, indexes and database under ``root``, MCP off, no
    backend variable unless ``server_url`` (the fake Mistral server: the strong model)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MISTRAL_", "OPENAI_"))}
    env.update(
        INDEX_ROOT=str(root / "indexes"),
        THEMES_ROOT=str(root / "themes"),
        DATABASE_URL=f"sqlite:///{root / 'app.db'}",
        MODELS_JSON=str(root / "models.json"),  # absent: the default backend, whatever the working directory holds
        VECTOR_STORE="faiss",
        MCP_SERVERS="off",
        HF_HUB_OFFLINE="1",
        PYTHONUNBUFFERED="1",
    )
    if server_url:
        env.update(MISTRAL_API_KEY="bench-key", MISTRAL_SERVER_URL=server_url, LLM_MAX_RETRY_S="1")
    return env
