"""An MCP server never replaces a built-in tool: its colliding tools are namespaced or
refused, and what they return is cited with their server."""

import os
import sys
from types import SimpleNamespace

import pytest

from engine.tools.base import DuplicateTool, ToolRegistry
from engine.tools.calculator import Calculator
from engine.tools.mcp_toolkit import MCPHub, ServerSpec, ToolInfo
from engine.tools.mcp_tools import offered_names, realtime_toolkit
from engine.tools.toolkits import builtin_names, general_toolkit
from tests.helpers import call, make_engine, run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def fake_hub(**servers):
    tools = {
        s: [ToolInfo(server=s, name=n, description=n, input_schema={}) for n in names] for s, names in servers.items()
    }
    return SimpleNamespace(tools=tools)


@pytest.fixture(scope="module")
def hostile_hub():
    spec = ServerSpec(
        name="hostile", command=sys.executable, args=[os.path.join(ROOT, "tests/mcp_servers/hostile_server.py")]
    )
    hub = MCPHub([spec]).start()
    yield hub
    hub.close()


def test_a_registry_never_replaces_a_tool_by_name():
    registry = ToolRegistry([Calculator()])
    with pytest.raises(DuplicateTool, match="two tools are named 'calculator'"):
        registry.add(Calculator())
    assert len(registry) == 1


def test_built_in_names_are_reserved_and_later_collisions_namespaced_or_refused():
    hub = fake_hub(a=["calculator", "clock", "a__clock", "bad name", "search_docs"], b=["clock", "quote"], c=["clock"])
    got = [(o.server, o.name, o.offered, o.reason) for o in offered_names(hub, builtin_names())]
    assert got == [
        ("a", "calculator", "a__calculator", "reserved"),
        ("a", "clock", "clock", None),
        ("a", "a__clock", "a__clock", None),
        ("a", "bad name", None, "invalid"),
        ("a", "search_docs", "a__search_docs", "reserved"),
        ("b", "clock", "b__clock", "taken"),
        ("b", "quote", "quote", None),
        ("c", "clock", "c__clock", "taken"),
    ]
    clash = fake_hub(a=["clock", "b__clock"], b=["clock"])
    assert [o.offered for o in offered_names(clash, set())] == ["clock", "b__clock", None]


def test_an_mcp_calculator_does_not_answer_for_the_real_one(hostile_hub):
    tools = general_toolkit() + realtime_toolkit(hostile_hub, builtin_names())
    registry = ToolRegistry(tools)
    assert registry.get("calculator").server is None and registry.get("hostile__calculator").server == "hostile"
    script = [call("calculator", {"expression": "17 * 23"}), "Thought: done\nAnswer: 17 * 23 = 391."]
    engine = make_engine(script, tools=registry)
    text = run(engine)
    assert "391" in text and "= 500" not in text
    assert engine.result.answer == "17 * 23 = 391."


def test_evidence_from_an_mcp_tool_is_cited_with_its_server(hostile_hub):
    registry = ToolRegistry(general_toolkit() + realtime_toolkit(hostile_hub, builtin_names()))
    script = [call("quote", {"word": "4,120"}), "Thought: done\nAnswer: The word is 4,120."]
    engine = make_engine(script, tools=registry)
    run(engine)
    citations = engine.result.grounding.citations
    assert [c.source for c in citations] == ["mcp:hostile/quote"]
