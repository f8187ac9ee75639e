"""ToolRouter with 30+ tools: the right tool is in the top k."""

import pytest
from pydantic import BaseModel

from engine.rag.embeddings import get_embedder
from engine.tools.base import Tool, ToolRegistry
from engine.tools.router import ToolRouter
from engine.tools.toolkits import general_toolkit

DESCRIPTIONS = {
    "weather_forecast": "Gets the weather forecast (temperature, rain, wind) for a city.",
    "stock_price": "Returns the latest stock market price of a listed company by ticker symbol.",
    "currency_rates": "Converts money between currencies using today's exchange rates.",
    "flight_status": "Tells whether a flight is on time, delayed or cancelled.",
    "send_email": "Sends an email message to a colleague.",
    "calendar_events": "Lists meetings and events in the user's calendar.",
    "translate_text": "Translates text from one language to another.",
    "crm_accounts": "Looks up customer accounts, contacts and deal stages in the CRM.",
    "invoice_lookup": "Finds invoices by number, customer or due date.",
    "inventory_levels": "Reports warehouse stock levels for a product SKU.",
    "payroll_summary": "Summarises payroll costs by department.",
    "web_traffic": "Website visits, bounce rate and conversions from the analytics platform.",
    "ticket_search": "Searches support tickets by keyword and status.",
    "git_commits": "Lists recent commits in a code repository.",
    "server_uptime": "Checks whether production servers are up and their uptime.",
    "shipping_tracker": "Tracks a parcel shipment by tracking number.",
    "tax_rates": "Returns VAT and sales tax rates for a country.",
    "news_headlines": "Fetches today's news headlines on a topic.",
    "map_directions": "Gives driving directions and travel time between two addresses.",
    "energy_prices": "Returns electricity and gas spot prices.",
    "hr_directory": "Finds an employee's team, manager and phone number.",
    "contract_search": "Searches signed customer contracts for clauses.",
    "survey_results": "Aggregates customer satisfaction survey answers (NPS).",
    "ad_spend": "Reports advertising spend per campaign and channel.",
    "social_mentions": "Counts brand mentions on social networks.",
    "fleet_tracking": "Shows the location of delivery vans.",
    "room_booking": "Books a meeting room.",
    "expense_claims": "Lists submitted expense claims and their approval status.",
}


class Q(BaseModel):
    query: str


def make_tool(name, description):
    return type(name, (Tool,), {"name": name, "description": description, "Args": Q, "run": lambda self, a: ""})()


@pytest.fixture(scope="module")
def registry():
    tools = general_toolkit() + [make_tool(n, d) for n, d in DESCRIPTIONS.items()]
    assert len(tools) >= 30
    return ToolRegistry(tools)


@pytest.fixture(scope="module")
def router():
    return ToolRouter(top_k=5)  # the default encoders: questions as queries, descriptions as passages


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Will it rain in Lyon tomorrow?", "weather_forecast"),
        ("How much is 100 dollars in euros today?", "currency_rates"),
        ("What is the share price of ACME?", "stock_price"),
        ("Is flight AF1234 delayed?", "flight_status"),
        ("What is the standard deviation of these sales figures?", "statistics"),
        ("How many days between 2026-01-03 and 2026-03-01?", "datetime"),
        ("Convert 12 miles to kilometres", "unit_converter"),
        ("Where is my parcel with tracking number 1Z999?", "shipping_tracker"),
        ("How many visitors did the website get last week?", "web_traffic"),
        ("Which expense claims are still waiting for approval?", "expense_claims"),
    ],
)
def test_right_tool_is_offered(router, registry, query, expected):
    offered = router.route(query, registry)
    assert expected in offered
    assert "ask_user" in offered and "calculator" in offered
    assert len(offered) <= 5 + 2


def test_scores_are_exposed_and_explain_the_choice(router, registry):
    scores = router.explain("Will it rain in Lyon tomorrow?", registry)
    assert scores[0].name == "weather_forecast" and scores[0].offered
    assert all(scores[i].score >= scores[i + 1].score for i in range(len(scores) - 1))
    assert {s.why for s in scores if s.name in ("ask_user", "calculator")} == {"always on"}
    assert any(not s.offered and s.why.startswith("below the top") for s in scores)


def test_descriptions_are_embedded_once(registry):
    calls = []
    embedder = get_embedder()

    def counting(texts):
        calls.append(len(texts))
        return embedder.encode(texts)

    router = ToolRouter(counting, top_k=5)
    router.route("first question", registry)
    router.route("second question", registry)
    assert calls == [len(registry), 1, 1]


def test_failure_or_low_scores_fall_back_to_the_full_set(registry):
    def broken(texts):
        raise RuntimeError("no model")

    from engine.context import EngineContext
    from engine.llm.scripted import ScriptedLLM
    from engine.react.agent import ReActEngine

    routed = ToolRegistry(list(registry), routed=True)
    context = EngineContext(router=ToolRouter(broken))
    engine = ReActEngine(config={}, llm=ScriptedLLM(["Answer: x"]), tools=routed, context=context)
    engine.get_engine_response("anything")
    assert "stock_price" in engine.llm.calls[0][0]["content"]  # every tool was described

    low = ToolRouter(get_embedder().encode, top_k=3, min_score=0.99)
    assert low.route("zzz qqq", registry) == registry.names()
