"""A scripted model that searches, then states a wrong figure with an invented source.

It drives the fake Mistral server (``tests/fakes/llm_server.py``): first a real
``search_docs`` call (so the Observation holds the true passages), then an answer whose
key figure is wrong and cites ``[made_up.pdf]``. A grounding check should flag every one.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bench.qa.qa_set import QAQuestion
from bench.qa.scoring import contains_fact, normalise

MADE_UP_SOURCE = "made_up.pdf"
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def wrong_figure(question: QAQuestion) -> str:
    """A figure that is not the expected one: the expected number scaled by 1.37, or an invented one."""
    match = _NUMBER.search(normalise(question.expected[0])) if question.expected else None
    value = float(match.group(0).replace(",", ".")) if match else 12_480.0
    candidate = value * 1.37 + 3
    for step in range(10):
        text = f"{candidate + step:,.0f}" if candidate >= 100 else f"{candidate + step:.0f}"
        if not question.expected or not contains_fact(text, question.expected):
            return text
    raise AssertionError(f"no wrong figure found for {question.id}")  # unreachable: +step changes the number


def wrong_answer(question: QAQuestion) -> str:
    figure = wrong_figure(question)
    if question.language == "fr":
        return f"D'après les documents, la réponse est {figure} [{MADE_UP_SOURCE}]."
    return f"According to the documents, the answer is {figure} [{MADE_UP_SOURCE}]."


def wrong_script(question: QAQuestion) -> list[dict[str, Any]]:
    """The fake server's replies for one question: a search, then the wrong answer for every later call."""
    search = {"name": "search_docs", "arguments": json.dumps({"query": question.question[:200]})}
    return [
        {"text": "", "tool_calls": [{"id": "search001", **search}]},
        {"text": wrong_answer(question), "repeat": True},
    ]
