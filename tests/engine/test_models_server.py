"""``make serve-models``: one model server (llama.cpp's OpenAI-compatible server, our
/v1/embeddings route) and two CLI processes that use it at the same time."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import numpy as np
import pytest

from engine.models_server import client_env

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]

# A client: the CLI in this process, then what it holds (is the model file mapped here? is llama.cpp or e5 loaded?).
CLIENT = """
import json, sys, time
start = time.time()
from engine.cli import main
code = main(sys.argv[1:])
maps = open("/proc/self/maps").read()
status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line)
print(json.dumps({"code": code, "start": start, "end": time.time(), "gguf_mapped": ".gguf" in maps,
                  "llama_cpp": "llama_cpp" in sys.modules, "e5": "engine.rag.e5_onnx" in sys.modules,
                  "hwm_kb": int(status["VmHWM"].split()[0])}))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.fixture(scope="module")
def models_server():
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine.models_server", "--port", str(port), "--n-ctx", "2048"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.5)
        assert proc.poll() is None, "the model server exited"
    else:
        proc.kill()
        raise AssertionError("the model server did not start in 180 s")
    yield proc, port, url
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:  # uvicorn waits for a request still running
        proc.kill()
        proc.wait(timeout=30)


def test_served_embeddings_are_the_local_vectors(models_server):
    from engine.rag.e5_embedder import E5_NAME, E5Embedder

    _, port, url = models_server
    env = client_env("127.0.0.1", port)
    body = {"model": E5_NAME, "input": [env["EMBEDDINGS_PASSAGE_PREFIX"] + "Hotels are capped at 160 euros."]}
    served = np.asarray(httpx.post(f"{url}/embeddings", json=body, timeout=60).json()["data"][0]["embedding"])
    local = E5Embedder().encode(["Hotels are capped at 160 euros."])[0]
    assert served.shape == local.shape and np.abs(served - local).max() < 1e-5  # indexes made locally stay valid
    refused = httpx.post(f"{url}/embeddings", json={"model": "all-MiniLM-L6-v2", "input": ["x"]}, timeout=60)
    assert refused.status_code == 404


def test_two_clients_answer_at_once_and_the_model_is_loaded_once(models_server, tmp_path):
    proc, port, _ = models_server
    env = {**os.environ, **client_env("127.0.0.1", port), "INDEX_ROOT": str(tmp_path / "indexes"), "MCP_SERVERS": "off"}
    ingest = subprocess.run(
        [sys.executable, "-m", "engine", "ingest", "--theme", "handbook", "data/themes/handbook"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ingest.returncode == 0, ingest.stderr
    manifest = json.loads(next((tmp_path / "indexes" / "handbook").rglob("manifest.json")).read_text())
    assert (manifest["embedding_model"], manifest["dim"]) == ("multilingual-e5-small-q4", 384)

    questions = [
        ["ask", "What is 12 times 7?", "--format", "jsonl"],
        ["ask", "Who approves new dashboards?", "--theme", "handbook", "--format", "jsonl"],
    ]
    clients = [
        subprocess.Popen(
            [sys.executable, "-c", CLIENT, *q],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for q in questions
    ]
    server_rss = []
    while any(c.poll() is None for c in clients):
        server_rss.append(_rss_kb(proc.pid))
        time.sleep(0.5)
    outputs = [c.communicate(timeout=600) for c in clients]
    reports, dones = [], []
    for out, err in outputs:
        lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        reports.append(lines[-1])
        dones.append(next(line for line in lines if line.get("type") == "done"))
        assert lines[-1]["code"] == 0, err
    assert "84" in dones[0]["answer"]
    assert dones[1]["status"] == "answered" and dones[1]["answer"]
    assert "Brenner" in dones[1]["answer"] and "faq.html" in dones[1]["answer"]  # the passage, cited
    a, b = reports
    assert a["start"] < b["end"] and b["start"] < a["end"]  # both ran at the same time
    for report in reports:  # neither client loaded a model: the chat and the embedding model live in the server
        assert not report["gguf_mapped"] and not report["llama_cpp"] and not report["e5"]
    server_maps = Path(f"/proc/{proc.pid}/maps").read_text()
    gguf = {line.split()[-1] for line in server_maps.splitlines() if line.endswith(".gguf")}
    assert len(gguf) == 1  # one chat model, mapped once, in the server
    gguf_kb = Path(gguf.pop()).stat().st_size // 1024
    assert min(server_rss) > gguf_kb  # the server holds the model's weights
    assert max(r["hwm_kb"] for r in reports) < max(server_rss)  # each client is lighter than the server
    assert max(server_rss) < min(server_rss) + gguf_kb  # serving two clients did not load the model again
