"""Data servers with a token: an HTTP MCP server that refuses calls without it, a
stdio server that receives it in its environment, the engine's own ``token=``, and
the token kept out of every log, stream, result, trace and status."""

import json
import logging
import sys
import time
from pathlib import Path

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from engine.context import EngineContext
from engine.llm.scripted import ScriptedLLM
from engine.react.agent import ReActEngine
from engine.react.parser import parse_blocks
from engine.react.types import ReActType
from engine.settings import EngineConfig, Settings
from engine.tools.mcp_toolkit import MCPHub, ServerSpec, load_specs
from engine.tools.mcp_tools import realtime_toolkit
from engine.tools.toolkits import general_toolkit
from engine.tracing import RunTracer
from tests.helpers import call
from tests.mcp_servers.token_server import running

ROOT = Path(__file__).resolve().parents[3]
SERVER = str(ROOT / "tests/mcp_servers/token_server.py")
TOKEN = "tok-7f3a9c-very-secret"


@pytest.fixture(scope="module")
def guarded_url():
    with running(TOKEN) as url:
        yield url


def hub_of(spec: ServerSpec, token: str | None = None) -> MCPHub:
    return MCPHub([spec], token=token).start(wait_s=20)


def observations(text):
    return [b.content for b in parse_blocks(text) if b.type is ReActType.OBSERVATION]


def test_without_the_token_the_server_is_unauthorised_in_one_sentence(guarded_url):
    hub = hub_of(ServerSpec(name="guarded", url=guarded_url, timeout_s=10))
    try:
        status = hub.status["guarded"]
        assert status.state == "unauthorised" and "401" in status.reason
        import asyncio

        answer = asyncio.run(hub.call("guarded", "secret_figure", {"region": "north"}))
        assert answer == "Error: the real-time data server 'guarded' refused our credential; answer without it."
    finally:
        hub.close()


def test_a_wrong_token_is_refused_and_never_shown(guarded_url, monkeypatch):
    monkeypatch.setenv("GUARDED_TOKEN", "tok-wrong-0000")
    hub = hub_of(ServerSpec(name="guarded", url=guarded_url, token_env="GUARDED_TOKEN", timeout_s=10))
    try:
        status = hub.status["guarded"]
        assert status.state == "unauthorised" and "403" in status.reason
        assert "tok-wrong-0000" not in status.model_dump_json() + repr(hub) + repr(hub.specs)
    finally:
        hub.close()


def test_the_token_named_by_the_file_reaches_the_http_server_and_stays_out_of_everything(
    guarded_url, monkeypatch, tmp_path, caplog
):
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("GUARDED_TOKEN", TOKEN)
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"servers": [{"name": "guarded", "url": guarded_url, "token_env": "GUARDED_TOKEN"}]}))
    assert TOKEN not in config.read_text()
    hub = MCPHub(load_specs(config)).start(wait_s=20)
    try:
        assert hub.status["guarded"].state == "up"
        exporter = InMemorySpanExporter()
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        llm = ScriptedLLM([call("secret_figure", {"region": "north"}), "Thought: done\nAnswer: North made 1234 EUR."])
        engine = ReActEngine(
            config=EngineConfig(),
            llm=llm,
            tools=general_toolkit() + realtime_toolkit(hub),
            tracer=RunTracer(provider.get_tracer("t"), capture_content=True),
        )
        text = "".join(engine.stream_sync("North revenue?"))
        assert observations(text) == ["north: 1234 EUR"]
        spans = " ".join(json.dumps(dict(s.attributes)) for s in exporter.get_finished_spans())
        everything = text + engine.result.model_dump_json() + spans + caplog.text + json.dumps(llm.calls)
        assert TOKEN not in everything
    finally:
        hub.close()


def test_the_engine_token_reaches_the_servers_that_take_it(guarded_url, tmp_path):
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"servers": [{"name": "guarded", "url": guarded_url, "engine_token": True}]}))
    context = EngineContext(Settings.from_env({"MCP_SERVERS_JSON": str(config)}))
    try:
        assert context.hub.status["guarded"].state == "unauthorised"  # the shared sessions have no token
        llm = ScriptedLLM([call("secret_figure", {"region": "south"}), "Thought: done\nAnswer: South made 1234 EUR."])
        engine = ReActEngine(EngineConfig(), None, TOKEN, {}, llm=llm, context=context)
        text = "".join(engine.stream_sync("South revenue?"))
        assert observations(text) == ["south: 1234 EUR"]
        assert TOKEN not in text + engine.result.model_dump_json() + repr(context.hub_for(TOKEN))
        assert context.hub_for(TOKEN) is context.hub_for(TOKEN)  # one set of sessions per token
    finally:
        context.close()


def test_a_stdio_server_receives_the_token_in_its_environment(monkeypatch, tmp_path):
    import asyncio

    monkeypatch.setenv("ANALYST_DATA_TOKEN", TOKEN)
    spec = ServerSpec(
        name="local",
        command=sys.executable,
        args=[SERVER, "stdio"],
        env={"EXPECTED_TOKEN": TOKEN},
        token_env="ANALYST_DATA_TOKEN",
        timeout_s=10,
    )
    log = tmp_path / "mcp.log"
    hub = MCPHub([spec], errlog_path=log).start(wait_s=20)
    try:
        assert asyncio.run(hub.call("local", "whoami", {})) == "token received"
        assert asyncio.run(hub.call("local", "leak", {})) == "my token is [redacted]"  # a server echoing it
    finally:
        hub.close()
    deadline = time.monotonic() + 5
    while "debug: token" not in (log.read_text() if log.exists() else "") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "debug: token [redacted]" in log.read_text() and TOKEN not in log.read_text()  # its stderr too
    monkeypatch.delenv("ANALYST_DATA_TOKEN")
    hub = hub_of(spec)
    try:
        assert asyncio.run(hub.call("local", "whoami", {})) == "no token"
    finally:
        hub.close()


def test_a_secret_in_the_file_is_not_a_variable_name():
    with pytest.raises(ValueError):
        ServerSpec(name="x", url="http://h/mcp", token_env="Bearer abc.def-123")
