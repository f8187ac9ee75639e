"""Cost per turn: models.json's prices give each turn's cost in its footer, the
conversation's total in the sidebar, and both in the exports (AppTest, fake Mistral)."""

import json

from components.export import to_json, to_markdown
from components.state import Conversation, Turn
from engine.llm.base import Usage
from engine.llm.pricing import Cost, Price, price_of, total_costs
from tests.apptest_helpers import new_app

PRICES = {
    "prices": {"mistral-small-latest": {"input_per_million": 1000, "output_per_million": 3000, "currency": "EUR"}}
}


def test_a_price_gives_a_cost_only_when_usage_was_reported():
    price = Price(input_per_million=2.0, output_per_million=6.0)
    assert price.cost(Usage(prompt_tokens=1_000_000, completion_tokens=500_000)) == Cost(amount=5.0, currency="USD")
    assert price.cost(Usage()) is None  # no usage reported: no cost, never 0
    assert price_of("/models/gemma.gguf", {"gemma.gguf": price}) is price
    assert price_of("other", {"gemma.gguf": price}) is None
    totals = total_costs(
        [Cost(amount=1, currency="EUR"), None, Cost(amount=2, currency="USD"), Cost(amount=0.5, currency="EUR")]
    )
    assert totals == [Cost(amount=1.5, currency="EUR"), Cost(amount=2, currency="USD")]


def test_footer_shows_each_turns_cost_and_the_sidebar_the_total(app_env, tmp_path, monkeypatch):
    (tmp_path / "models.json").write_text(json.dumps(PRICES))
    monkeypatch.setenv("MODELS_JSON", str(tmp_path / "models.json"))
    app_env.script.extend([{"text": "Answer: Hello there."}, {"text": "Answer: Hi."}])
    at = new_app()
    at.chat_input[0].set_value("Hello?").run()
    at.chat_input[0].set_value("Again?").run()
    assert not at.exception
    # the fake server reports 11 prompt tokens and len(text)//4 completion tokens per call
    first = (11 * 1000 + 5 * 3000) / 1e6  # "Answer: Hello there." -> 5
    second = (11 * 1000 + 2 * 3000) / 1e6  # "Answer: Hi." -> 2
    footers = [c.value for c in at.caption if " tokens" in c.value]
    assert any(f"{first:.4f} EUR" in f for f in footers), footers
    assert any(f"{second:.4f} EUR" in f for f in footers), footers
    sidebar = [c.value for c in at.sidebar.caption]
    assert f"Conversation cost: {first + second:.4f} EUR" in sidebar


def test_without_prices_no_cost_is_shown(app_env):
    app_env.script.append({"text": "Answer: Hello there."})
    at = new_app()
    at.chat_input[0].set_value("Hello?").run()
    assert not any("EUR" in c.value or "USD" in c.value or "cost" in c.value.lower() for c in at.caption)


def test_exports_carry_each_cost_and_the_total_in_french_too():
    conversation = Conversation(
        title="t",
        turns=[
            Turn(role="user", content="q"),
            Turn(role="assistant", answer="a", cost=Cost(amount=0.0123, currency="EUR")),
            Turn(role="user", content="q2"),
            Turn(role="assistant", answer="b", cost=Cost(amount=1.5, currency="EUR")),
            Turn(role="assistant", answer="c"),
        ],
    )
    data = json.loads(to_json(conversation))
    assert data["turns"][1]["meta"]["cost"] == {"amount": 0.0123, "currency": "EUR"}
    assert "cost" not in data["turns"][4]["meta"]
    assert data["cost_total"] == [{"amount": 1.5123, "currency": "EUR"}]
    md = to_markdown(conversation)
    assert "_Cost: 0.0123 EUR_" in md and "_Conversation cost: 1.51 EUR_" in md
    from components.state import Preferences

    fr = to_markdown(conversation, settings=Preferences(language="fr"))
    assert "_Coût: 0,0123 EUR_" in fr and "_Coût de la conversation: 1,51 EUR_" in fr
