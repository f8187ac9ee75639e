"""A figure changed inside a sentence the answer otherwise copies from the evidence.

An answer that quotes "Cable revenue increased by 2% as the increase in Internet revenue
…" where the report writes "by 1% as the increase in Internet revenue" restates the
report's sentence with another figure: the 2% standing elsewhere in the evidence does
not make it the report's. The words on both sides of the figure (``CONTEXT_WORDS`` each)
are looked for in the evidence around any figure; when they are found and none of the
figures between them is the answer's, that figure is what the sentence says.
"""

from __future__ import annotations

import re

from engine.grounding.figures import Found, extract_figures

CONTEXT_WORDS = 4  # words on each side of the figure that must stand in the evidence as the answer writes them
_WORD = re.compile(r"\S+")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_FIGURE_SLOT = r"(?P<figure>\S*\d\S*(?:\s(?:million|billion|thousand|percent|per cent|bn|m)\b)?)"


def _context(answer: str, item: Found) -> tuple[list[str], list[str]] | None:
    before = _WORD.findall(answer[: item.start])[-CONTEXT_WORDS:]
    after = _WORD.findall(answer[item.end :])[:CONTEXT_WORDS]
    if len(before) < CONTEXT_WORDS or len(after) < CONTEXT_WORDS:
        return None
    if any(re.search(r"\d", w) for w in before[-1:] + after[:1]) or not all(
        _LETTERS.search(" ".join(side)) for side in (before, after)
    ):
        return None  # next to another figure, or no words to place it: not a sentence copied
    return before, after


def misquoted(answer: str, item: Found, texts: list[str]) -> str | None:
    """The figure the evidence writes where the answer writes ``item``, when the answer copies
    the words around it and the evidence has another figure there; else None."""
    context = _context(answer, item)
    if context is None:
        return None
    before, after = context
    pattern = re.compile(
        r"(?<!\S)" + r"\s+".join(map(re.escape, before)) + r"\s*" + _FIGURE_SLOT + r"\s*"
        + r"\s+".join(map(re.escape, after)) + r"(?!\S)",
        re.IGNORECASE,
    )  # fmt: skip
    other: str | None = None
    for text in texts:
        for match in pattern.finditer(text):
            written = extract_figures(match.group("figure"))
            if any(f.value == item.value for f in written):
                return None  # the evidence writes this very sentence with this figure
            other = other or (written[0].text if written else None)
    return other
