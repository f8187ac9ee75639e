"""The real MCP servers over stdio: the shipped data server and a server that dies."""

import json
import os
import signal
import sys
from pathlib import Path

import pytest

from engine.react.parser import parse_blocks
from engine.react.types import ReActType
from engine.tools.mcp_toolkit import MCPHub, ServerSpec, load_specs
from engine.tools.mcp_tools import realtime_toolkit
from engine.tools.toolkits import general_toolkit
from tests.helpers import assert_well_ended, call, make_engine, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


@pytest.fixture(scope="module")
def data_hub():
    hub = MCPHub(load_specs(Path(ROOT, "mcp_servers.json"))).start()
    yield hub
    hub.close()


@pytest.fixture
def flaky_hub():
    spec = ServerSpec(
        name="flaky",
        command=sys.executable,
        args=[os.path.join(ROOT, "tests/mcp_servers/flaky_server.py")],
        timeout_s=10,
    )
    hub = MCPHub([spec]).start()
    yield hub
    hub.close()


def observations(text):
    return [b.content for b in parse_blocks(text) if b.type is ReActType.OBSERVATION]


def test_data_server_tools_are_listed_with_schemas(data_hub):
    assert data_hub.status["analyst-data"].state == "up"
    tools = {t.name: t for t in realtime_toolkit(data_hub)}
    assert set(tools) == {"clock", "system_load", "disk_usage", "sales_columns", "sales_query"}
    schema = tools["sales_query"].json_schema()
    assert schema["properties"]["metric"]["enum"] == ["revenue_eur", "units", "margin_pct"]
    assert tools["sales_query"].function_schema()["function"]["name"] == "sales_query"


def test_mcp_tools_called_through_the_engine(data_hub):
    tools = general_toolkit() + realtime_toolkit(data_hub)
    script = [
        call("sales_query", {"group_by": ["region"], "quarter": "Q3"}),
        call("clock", {"timezone": "Europe/Paris"}),
        call("sales_query", {"quarter": "Q9"}),
        "Thought: done\nAnswer: France led Q3.",
    ]
    engine = make_engine(script, tools=tools)
    text = run(engine)
    obs = observations(text)
    result = json.loads(obs[0])["result"]
    assert set(result) == {"Benelux", "Export", "France", "United Kingdom"} and max(result, key=result.get) == "France"
    assert "Europe/Paris" in obs[1]
    assert obs[2].startswith("Error: sales_query refused the call") and "no rows match" in obs[2]
    assert engine.result.answer == "France led Q3."


def test_server_killed_mid_run_gives_a_readable_observation_and_is_marked_down(flaky_hub):
    tools = realtime_toolkit(flaky_hub)
    pid_box = {}

    def kill_then_call(messages, kw):
        pid_box["pid"] = int(messages[-1]["content"].split("Observation: ")[1])
        os.kill(pid_box["pid"], signal.SIGKILL)
        return call("echo", {"text": "still there?"})

    script = [call("pid", {}), kill_then_call, call("echo", {"text": "again"}), "Thought: ok\nAnswer: the server died."]
    engine = make_engine(script, tools=tools)
    text = run(engine)
    assert_well_ended(text)
    obs = observations(text)
    assert "stopped responding" in obs[1] or "is down" in obs[1]
    assert obs[2].startswith("Error: the real-time data server 'flaky' is down")
    assert flaky_hub.status["flaky"].state == "down" and flaky_hub.status["flaky"].reason
    assert engine.result.answer == "the server died."


def test_server_dying_inside_a_call(flaky_hub):
    tools = realtime_toolkit(flaky_hub)
    engine = make_engine([call("crash", {}), "Answer: handled"], tools=tools)
    text = run(engine)
    assert "flaky" in observations(text)[0] and observations(text)[0].startswith("Error:")
    assert flaky_hub.status["flaky"].state == "down"
    assert flaky_hub.restart("flaky").state == "up"
    engine = make_engine([call("echo", {"text": "back"}), "Answer: ok"], tools=realtime_toolkit(flaky_hub))
    assert observations(run(engine)) == ["echo: back"]


def test_missing_argument_is_a_retry_with_the_schema(flaky_hub):
    engine = make_engine([call("echo", {}), "Answer: ok"], tools=realtime_toolkit(flaky_hub))
    text = run(engine)
    assert "echo needs 'text'" in observations(text)[0]


def test_server_that_fails_to_start_is_down_and_the_rest_works():
    specs = [ServerSpec(name="ghost", command="/nonexistent/binary", timeout_s=5)]
    hub = MCPHub(specs).start(wait_s=10)
    try:
        assert hub.status["ghost"].state == "down" and "failed" in hub.status["ghost"].reason
        assert realtime_toolkit(hub) == []
    finally:
        hub.close()


def test_streamable_http_server_by_url():
    import socket
    import subprocess
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "mcp_servers/data_server.py"), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        hub = MCPHub([ServerSpec(name="http-data", url=f"http://127.0.0.1:{port}/mcp")]).start()
        try:
            assert hub.status["http-data"].state == "up"
            engine = make_engine([call("sales_columns", {}), "Answer: ok"], tools=realtime_toolkit(hub))
            obs = observations(run(engine))
            assert "Benelux" in obs[0] and "quarter" in obs[0]
        finally:
            hub.close()
    finally:
        proc.terminate()
        proc.wait(10)


def _hub_call(hub, server, tool, args, timeout_s):
    import asyncio

    return asyncio.run(hub.call(server, tool, args, timeout_s=timeout_s))


def test_a_hung_server_is_marked_down_and_later_calls_fail_fast(flaky_hub, monkeypatch):
    pid = int(_hub_call(flaky_hub, "flaky", "pid", {}, 10))
    os.kill(pid, signal.SIGSTOP)
    try:
        first = _hub_call(flaky_hub, "flaky", "echo", {"text": "hello?"}, 1.0)
        assert "did not answer echo within 1 s" in first and "marked down" in first
        assert flaky_hub.status["flaky"].state == "down"
        sent = []
        real_call = flaky_hub._call
        monkeypatch.setattr(flaky_hub, "_call", lambda *a: sent.append(a) or real_call(*a))
        second = _hub_call(flaky_hub, "flaky", "echo", {"text": "again"}, 10)
        assert second.startswith("Error: the real-time data server 'flaky' is down (did not answer echo")
        assert sent == []  # failed at once: nothing was sent to the hung server
        monkeypatch.undo()
    finally:
        os.kill(pid, signal.SIGKILL)
    assert flaky_hub.health_check("flaky", timeout_s=20).state == "up"
    assert _hub_call(flaky_hub, "flaky", "echo", {"text": "back"}, 10) == "echo: back"
    assert flaky_hub.health_check("flaky").state == "up"  # a ping of a healthy server keeps it up


def test_disk_usage_reports_only_configured_paths(data_hub):
    root = _hub_call(data_hub, "analyst-data", "disk_usage", {"path": "/"}, 20)
    assert json.loads(root)["total_gb"] > 0
    for probe in ("/etc", "/nonexistent/secret", "/root/.ssh"):
        answer = _hub_call(data_hub, "analyst-data", "disk_usage", {"path": probe}, 20)
        assert answer.startswith("Error: disk_usage refused the call") and "reports only these paths" in answer
    clock = _hub_call(data_hub, "analyst-data", "clock", {"timezone": "../../" + "x" * 300}, 20)
    assert "unknown timezone" in clock and "site-packages" not in clock
