"""The strong model of ``--strong``: a script for the fake Mistral server (``tests/fakes/llm_server.py``).

For each question the model first calls ``search_docs`` with the question (so the run's
evidence holds the report's passages, as a strong model's would), then answers in one of
two ways:

- ``right``: the gold answer with its scale word ("412 million", "17.7%"); an arithmetic
  answer is followed by its derivation written out ("412 million = 1,950 − 1,538"), a count
  by the items it counts; the spans of a multi-span answer are separated by ``; ``;
- ``wrong``: the same answer with one figure about 12% off (the derivation, if any, left as
  it was: only the result is wrong). When 12% does not show at the precision the gold is
  written in, the figure moves by units of its last digit until the scorer no longer reads
  it as the gold; a year moves one year back; a text answer with no figure has no wrong
  variant (``None``).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from bench.report_qa.dataset import Question
from bench.report_qa.scoring import figures, gold_figure, same_figure

Variant = Literal["right", "wrong"]
VARIANTS: tuple[Variant, ...] = ("right", "wrong")
OFF_BY = 1.12
_SCALE_TEXT = {"thousand": " thousand", "million": " million", "billion": " billion", "percent": "%"}


def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def number_text(value: float, decimals: int) -> str:
    """``value`` as a report writes it: thousands separators, ``decimals`` digits."""
    return f"{value:,.{decimals}f}"


def _gold_number(question: Question) -> str:
    """The gold of an arithmetic or count answer as written: "412", "17.7", "-0.2"."""
    raw = question.spans[0]
    if re.fullmatch(r"-?\d+\.0", raw):
        raw = raw[:-2]
    return raw


def with_scale(text: str, scale: str) -> str:
    """``text`` with the scale word, unless it already says it or holds no figure."""
    figure = gold_figure(text, "")
    if not scale or figure is None or figure.scale:
        return text
    return text + _SCALE_TEXT[scale]


def derivation_text(derivation: str) -> str:
    """A gold derivation written out: ``(16.6/93.8 ) * 100`` → ``(16.6 / 93.8) × 100``."""
    text = re.sub(r"(?<=[\d)%])\s*-\s*", " − ", derivation.strip())
    text = re.sub(r"\s*\*\s*", " × ", text)
    text = re.sub(r"\s*/\s*", " / ", text)
    text = re.sub(r"\s*\+\s*", " + ", text)
    text = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", text))
    return re.sub(r"\s{2,}", " ", text)


def right_answer(question: Question) -> str:
    if question.answer_type == "arithmetic":
        raw = _gold_number(question)
        value = number_text(float(raw), _decimals(raw)) if _is_number(raw) else raw
        stated = with_scale(value, question.scale)
        return f"{stated} = {derivation_text(question.derivation)}" if question.derivation else stated
    if question.answer_type == "count":
        items = [i.strip() for i in question.derivation.split("##") if i.strip()]
        count = _gold_number(question)
        return f"{count} ({', '.join(items)})" if items else count
    spans = [with_scale(s, question.scale) for s in question.spans]
    return "; ".join(spans)


def _is_number(text: str) -> bool:
    return re.fullmatch(r"-?\d+(?:\.\d+)?", text) is not None


def _off(match: re.Match[str], question: Question) -> str:
    """The number of ``match`` about 12% off, as far as the scorer can tell it from the gold."""
    raw = match.group(0)
    decimals = _decimals(raw.replace(",", ""))
    value = float(raw.replace(",", ""))
    gold = gold_figure(raw, question.scale)
    if gold is not None and gold.is_year():
        return str(int(value) - 1)
    unit = 10.0**-decimals
    candidate = round(value * OFF_BY, decimals) if value else unit
    while gold is not None and any(same_figure(f, gold) for f in figures(number_text(candidate, decimals))):
        candidate = round(candidate + (unit if candidate >= 0 else -unit), decimals)
    separated = "," in raw or abs(value) >= 10_000
    text = number_text(candidate, decimals)
    return text if separated else text.replace(",", "")


_NUMBER_RE = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?")


def wrong_answer(question: Question) -> str | None:
    """The right answer with its first figure about 12% off, or None when it states no figure."""
    right = right_answer(question)
    if question.answer_type == "count":
        count = int(float(_gold_number(question)))
        wrong = count + max(1, round(count * (OFF_BY - 1)))
        return re.sub(r"^-?\d+", str(wrong), right, count=1)
    match = _NUMBER_RE.search(right)
    if match is None:
        return None
    return right[: match.start()] + _off(match, question) + right[match.end() :]


def answer(question: Question, variant: Variant) -> str | None:
    return right_answer(question) if variant == "right" else wrong_answer(question)


def script(question: Question, text: str) -> list[dict[str, Any]]:
    """The fake server's replies for one run: a search with the question, then ``text`` as the answer."""
    search = {"name": "search_docs", "arguments": json.dumps({"query": question.question[:300]})}
    return [
        {"text": "", "tool_calls": [{"id": "search001", **search}]},
        {"text": f"Answer: {text}", "repeat": True},
    ]
