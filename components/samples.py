"""Sample questions for an empty conversation, drawn from the chosen theme's documents
(their sections) and tables (a total by a category), worded as an analyst would ask."""

from __future__ import annotations

import re
from typing import Any

_TEMPLATES = {
    "en": {
        "about": "What does {document} say about {topic}?",
        "total": "What is the total {number} by {category}?",
        "unit": "{name} ({unit})",
    },
    "fr": {
        "about": "Que dit {document} à propos de « {topic} » ?",
        "total": "Quel est le total de « {number} » par « {category} » ?",
        "unit": "{name} ({unit})",
    },
}
_UNITS = {"eur": "EUR", "usd": "USD", "gbp": "GBP", "chf": "CHF", "jpy": "JPY", "pct": "%", "kg": "kg", "km": "km"}
_UNIT = re.compile(rf"^(?P<name>.+?)[_ ](?P<unit>{'|'.join(_UNITS)})$", re.I)


def column_words(name: str, words: dict[str, str]) -> str:
    """A column name as words: ``revenue_eur`` → "revenue (EUR)", ``unit_price`` → "unit price"."""
    match = _UNIT.match(name)
    if match:
        unit = _UNITS[match["unit"].lower()]
        return words["unit"].format(name=column_words(match["name"], words), unit=unit)
    return " ".join(re.sub(r"[_\-]+", " ", name).split())


def topic_words(heading: str) -> str:
    """A section heading inside a sentence: lower-cased first letter, unless an acronym."""
    if len(heading) > 1 and heading[1].isupper():
        return heading
    return heading[:1].lower() + heading[1:]


def section_question(source: str, heading: str, lang: str) -> str:
    """A heading that asks a question is the question; else what the document says about it."""
    words = _TEMPLATES.get(lang, _TEMPLATES["en"])
    if heading.endswith("?"):
        return heading
    topic = heading if lang == "fr" else topic_words(heading)  # French quotes the heading as it is
    return words["about"].format(document=source, topic=topic)


def sample_questions(index: Any, catalog: Any, lang: str = "en", n: int = 4) -> list[str]:
    """Up to ``n`` questions: one per document section (different documents first), and one per table."""
    words = _TEMPLATES.get(lang, _TEMPLATES["en"])
    questions: list[str] = []
    for info in list(catalog.tables.values())[:1] if catalog is not None else []:
        numbers = [c.name for c in info.columns if c.kind == "number"]
        texts = [c.name for c in info.columns if c.kind == "text"]
        if numbers and texts:
            number, category = column_words(numbers[0], words), column_words(texts[0], words)
            questions.append(words["total"].format(number=number, category=category))
    seen: set[str] = set()
    chunks = list(index.chunks) if index is not None else []
    for chunk in chunks:
        parts = [p.strip() for p in (chunk.location or "").split(">")]
        heading = parts[-1].strip() if len(parts) > 1 else ""  # a section, not the document title
        if not heading or chunk.source in seen or chunk.source.lower().endswith(".csv") or len(heading) > 60:
            continue
        seen.add(chunk.source)
        questions.append(section_question(chunk.source, heading, lang))
        if len(questions) >= n:
            break
    return questions[:n]
