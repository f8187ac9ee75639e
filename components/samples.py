"""Sample questions for an empty conversation, drawn from the chosen theme's documents
(their sections) and tables (a total by a category)."""

from __future__ import annotations

from typing import Any

_TEMPLATES = {
    "en": ("What does {source} say about {location}?", "What is the total {number} by {category}?"),
    "fr": ("Que dit {source} sur « {location} » ?", "Quel est le total de {number} par {category} ?"),
}


def sample_questions(index: Any, catalog: Any, lang: str = "en", n: int = 4) -> list[str]:
    """Up to ``n`` questions: one per document section (different documents first), and one per table."""
    about, total = _TEMPLATES.get(lang, _TEMPLATES["en"])
    questions: list[str] = []
    for info in list(catalog.tables.values())[:1] if catalog is not None else []:
        numbers = [c.name for c in info.columns if c.kind == "number"]
        texts = [c.name for c in info.columns if c.kind == "text"]
        if numbers and texts:
            questions.append(total.format(number=numbers[0], category=texts[0]))
    seen: set[str] = set()
    chunks = list(index.chunks) if index is not None else []
    for chunk in chunks:
        parts = [p.strip() for p in (chunk.location or "").split(">")]
        location = parts[-1].rstrip("?").strip() if len(parts) > 1 else ""  # a section, not the document title
        if not location or chunk.source in seen or chunk.source.lower().endswith(".csv") or len(location) > 60:
            continue
        seen.add(chunk.source)
        questions.append(about.format(source=chunk.source, location=location))
        if len(questions) >= n:
            break
    return questions[:n]
