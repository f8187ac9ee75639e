"""The step the engine makes itself before a small model's first call: a small model
cannot be trusted to pick the tool, but the engine can see that a question is a
computation (it runs the calculator on it) or a question about the documents (it
searches them). The model then answers with that evidence in front of it, and its
answer is checked against it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from engine.errors import ToolError
from engine.react.prompts import message
from engine.react.step import Step, ToolCall
from engine.tools.ask_user import ASK_USER
from engine.tools.base import ToolRegistry
from engine.tools.calculator import evaluate
from engine.tools.tables.clarify import Clarification, clarification, revised
from engine.tools.tables.compute_tool import ComputeTable
from engine.tools.tables.question_plan import plan

Encode = Callable[[list[str]], Any]

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_OPERATOR = re.compile(
    r"\s[-+]\s?|[*/×÷^]|%\s*(?:of|de)\b|\b(?:plus|minus|moins|divided|divisé|multiplied|multiplié|"
    r"sum of|product of|squared|square root|racine)\b|\d\s*(?:times|fois)\s*\d",
    re.IGNORECASE,
)
_WORDS = (
    (re.compile(r"(\d+(?:[.,]\d+)?)\s*%\s*(?:of|de|du|des)\s*(?=[$€£]?\s?\d)", re.IGNORECASE), r"\1 / 100 * "),
    (re.compile(r"\b(?:multiplied by|times|fois|multiplié par)\b", re.IGNORECASE), " * "),
    (re.compile(r"\b(?:divided by|divisé par)\b", re.IGNORECASE), " / "),
    (re.compile(r"\b(?:plus)\b", re.IGNORECASE), " + "),
    (re.compile(r"\b(?:minus|moins)\b", re.IGNORECASE), " - "),
    (re.compile(r"[×]"), " * "),
    (re.compile(r"[÷]"), " / "),
)
_YEAR_PAIR = re.compile(r"\b(?:19|20)\d\d\s?[/–-]\s?(?:19|20)?\d\d\b")
# "the period ending 12/16", "as of 12/31/13": a date, not a division
_DATE = re.compile(
    r"(?i)\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    r"|\b(?:ending|ended|end|as of|at|on|through|until|since|from|to|dated|period)\s+\d{1,2}/\d{2,4}\b"
)
_EXPRESSION = re.compile(r"[\d(][\d\s.,()+\-*/^%]*[\d)]")


_UNIT_PRICE = re.compile(
    r"(?i)\b(?:one|a|an|each|1|un|une|chaque)\s+([a-zà-ÿ]{3,}?)(?:s|x)?\s+(?:costs?|coûte|vaut|is priced at)\s+"
    r"(?:eur|€|\$|£|usd|chf)?\s*(\d+(?:[.,]\d+)?)"
)
_QUANTITY = r"(?i)(?:how much|what|combien|quel)[^?]*?\b(\d[\d,]*)\s+{noun}"


def unit_price_expression(question: str) -> str | None:
    """ "One pallet costs EUR 38.50. How much do 120 pallets cost?" → ``38.50 * 120``."""
    price = _UNIT_PRICE.search(question)
    if price is None:
        return None
    noun, amount = price.group(1), price.group(2).replace(",", ".")
    quantity = re.search(_QUANTITY.format(noun=re.escape(noun)), question[price.end() :])
    return f"{amount} * {quantity.group(1).replace(',', '')}" if quantity else None


def reads_as_document_question(question: str) -> bool:
    """Not a bare computation: worth searching the documents before the model answers."""
    text = _DATE.sub(" ", question).strip()
    return bool(text) and not (len(_NUMBER.findall(text)) >= 2 and _OPERATOR.search(text))


def computation_in(question: str) -> str | None:
    """The arithmetic a question asks for, as a calculator expression, or None."""
    if (priced := unit_price_expression(question)) is not None:
        return priced
    if reads_as_document_question(question):
        return None
    text = _YEAR_PAIR.sub(" ", _DATE.sub(" ", question))  # "2018/2019" is a fiscal year, not a division
    for pattern, replacement in _WORDS:
        text = pattern.sub(replacement, text)
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)  # 2,340 → 2340
    text = re.sub(r",\s", " ", text)  # "divided by 4, plus 3"
    candidates = sorted(_EXPRESSION.findall(text), key=len, reverse=True)
    for candidate in candidates:
        expression = " ".join(candidate.split())
        if not re.search(r"\d\s*[-+*/^%]\s*[\d(]", expression):
            continue
        try:
            evaluate(expression)
        except ToolError:
            continue
        return expression
    return None


def table_call(question: str, registry: ToolRegistry, encode: Encode | None) -> tuple[ToolCall, bool] | None:
    """The computation the question asks of the analyst's tables, if one fits it, and
    whether it leaves out a period the question names."""
    tool = next((t for t in registry if isinstance(t, ComputeTable)), None)
    if tool is None or not len(tool.catalog):
        return None
    planned = plan(question, tool.catalog, encode)
    if planned is None:
        return None
    return ToolCall(id="call_engine_table", name=tool.name, args=planned.args), planned.ignores_period


def table_clarification(
    question: str, registry: ToolRegistry, encode: Encode | None, language: str = "en"
) -> Clarification | None:
    """What the engine must ask before it can plan the question's table computation."""
    tool = next((t for t in registry if isinstance(t, ComputeTable)), None)
    if tool is None or ASK_USER not in registry.names():
        return None
    return clarification(question, tool.catalog, encode, language)


def _asking_step(asked: Clarification, language: str) -> Step:
    thought = message("first_ask", language)
    call = ToolCall(id="call_engine_ask", name=ASK_USER, args={"question": asked.question, "choices": asked.choices})
    text = f"Thought: {thought}\nAction: {ASK_USER}\nAction Input: {json.dumps(call.args, ensure_ascii=False)}"
    return Step(number=0, thought=thought, model_text=text, calls=[call])


def resumed_step(
    question: str, reply: str, registry: ToolRegistry, encode: Encode | None = None, language: str = "en"
) -> Step | None:
    """After the analyst answered the engine's question: the first step on the question
    the reply completes (it asks nothing again)."""
    asked = table_clarification(question, registry, encode, language)
    if asked is None:
        return None
    return engine_step(revised(question, asked, reply), registry, encode, language, ask=False)


def engine_step(
    question: str, registry: ToolRegistry, encode: Encode | None = None, language: str = "en", *, ask: bool = True
) -> Step | None:
    """The calculator on the question's arithmetic; else, when the tables cannot answer
    it as asked, a question to the analyst; else the table query it asks for and a search
    of the documents; else nothing."""
    tools = set(registry.names())
    expression = computation_in(question) if "calculator" in tools else None
    if expression is not None:
        calls = [ToolCall(id="call_engine0", name="calculator", args={"expression": expression})]
        unsure = False
        thought = message("first_compute", language)
    elif expression is None:  # a question about the documents (or arithmetic no expression was read from)
        asked = table_clarification(question, registry, encode, language) if ask else None
        if asked is not None:
            return _asking_step(asked, language)
        planned = table_call(question, registry, encode)
        calls = [planned[0]] if planned is not None else []
        unsure = planned is not None and planned[1]
        if "search_docs" in tools:
            calls.append(ToolCall(id="call_engine0", name="search_docs", args={"query": question[:500]}))
        if not calls:
            return None
        thought = message("first_tables_docs" if planned is not None else "first_docs", language)
    else:
        return None
    text = f"Thought: {thought}" + "".join(
        f"\nAction: {c.name}\nAction Input: {json.dumps(c.args, ensure_ascii=False)}" for c in calls
    )
    return Step(number=0, thought=thought, model_text=text, calls=calls, unsure=unsure)
