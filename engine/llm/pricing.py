"""What a run cost: prices per million input and output tokens, as ``models.json``
gives them for a model (``"prices": {"mistral-small-latest": {...}}``).

A cost is only given when the backend reported token usage: no usage is no cost,
never a cost of zero."""

from __future__ import annotations

from pydantic import BaseModel, Field

from engine.llm.base import Usage

__all__ = ["Cost", "Price", "price_of", "total_costs"]


class Price(BaseModel):
    input_per_million: float = Field(ge=0, description="Price of a million prompt tokens.")
    output_per_million: float = Field(ge=0, description="Price of a million completion tokens.")
    currency: str = Field("USD", pattern=r"^[A-Z]{3}$", description="ISO 4217 code of the prices.")

    def cost(self, usage: Usage) -> Cost | None:
        if usage.total_tokens == 0:
            return None
        amount = (
            usage.prompt_tokens * self.input_per_million + usage.completion_tokens * self.output_per_million
        ) / 1e6
        return Cost(amount=amount, currency=self.currency)


class Cost(BaseModel):
    amount: float = Field(ge=0)
    currency: str = "USD"


def price_of(model: str, prices: dict[str, Price]) -> Price | None:
    """The price of ``model``: by its exact name, else by its file name (an embedded model's path)."""
    if model in prices:
        return prices[model]
    base = model.replace("\\", "/").rsplit("/", 1)[-1]
    return prices.get(base)


def total_costs(costs: list[Cost | None]) -> list[Cost]:
    """The sum of the costs, one per currency (in the order first met); none without a cost."""
    totals: dict[str, float] = {}
    for cost in costs:
        if cost is not None:
            totals[cost.currency] = totals.get(cost.currency, 0.0) + cost.amount
    return [Cost(amount=amount, currency=currency) for currency, amount in totals.items()]
