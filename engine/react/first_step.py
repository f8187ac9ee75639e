"""The step the engine makes itself before a small model's first call: a small model
cannot be trusted to pick the tool, but the engine can see that a question is a
computation (it runs the calculator on it) or a question about the documents (it
searches them). The model then answers with that evidence in front of it, and its
answer is checked against it."""

from __future__ import annotations

import json
import re

from engine.errors import RetryException
from engine.react.step import Step, ToolCall
from engine.tools.calculator import evaluate

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_OPERATOR = re.compile(
    r"\s[-+]\s?|[*/×÷^]|%\s*(?:of|de)\b|\b(?:plus|minus|moins|times|fois|divided|divisé|multiplied|multiplié|"
    r"sum of|product|squared|square root|racine)\b",
    re.IGNORECASE,
)
_WORDS = [
    (re.compile(r"(\d+(?:[.,]\d+)?)\s*%\s*(?:of|de|du|des)\s*", re.IGNORECASE), r"\1 / 100 * "),
    (re.compile(r"\b(?:multiplied by|times|fois|multiplié par)\b", re.IGNORECASE), " * "),
    (re.compile(r"\b(?:divided by|divisé par)\b", re.IGNORECASE), " / "),
    (re.compile(r"\b(?:plus)\b", re.IGNORECASE), " + "),
    (re.compile(r"\b(?:minus|moins)\b", re.IGNORECASE), " - "),
    (re.compile(r"[×]"), " * "),
    (re.compile(r"[÷]"), " / "),
]
_EXPRESSION = re.compile(r"[\d(][\d\s.,()+\-*/^%]*[\d)]")


def reads_as_document_question(question: str) -> bool:
    """Not a bare computation: worth searching the documents before the model answers."""
    text = question.strip()
    return bool(text) and not (len(_NUMBER.findall(text)) >= 2 and _OPERATOR.search(text))


def computation_in(question: str) -> str | None:
    """The arithmetic a question asks for, as a calculator expression, or None."""
    if reads_as_document_question(question):
        return None
    text = question
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
        except RetryException:
            continue
        return expression
    return None


def engine_step(question: str, tools: set[str]) -> Step | None:
    """The calculator on the question's arithmetic, else a search of the documents, else nothing."""
    expression = computation_in(question) if "calculator" in tools else None
    if expression is not None:
        call = ToolCall(id="call_engine0", name="calculator", args={"expression": expression})
        thought = "This is a computation, so I compute it first."
    elif "search_docs" in tools and reads_as_document_question(question):
        call = ToolCall(id="call_engine0", name="search_docs", args={"query": question[:500]})
        thought = "This is about the analyst's documents, so I search them first."
    else:
        return None
    text = f"Thought: {thought}\nAction: {call.name}\nAction Input: {json.dumps(call.args, ensure_ascii=False)}"
    return Step(number=0, thought=thought, model_text=text, calls=[call])
