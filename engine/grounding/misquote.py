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
OPENING_WORDS = 1  # fewer before it when the answer opens with them ("IFRS 10 ‘Financial Instruments’, …")
_WORD = re.compile(r"\S+")
_DIGIT = re.compile(r"\D")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_FIGURE_SLOT = r"(?P<figure>\S*\d\S*(?:\s(?:million|billion|thousand|percent|per cent|bn|m)\b)?)"


def _context(answer: str, item: Found) -> tuple[list[str], list[str]] | None:
    reach = 40 * CONTEXT_WORDS  # characters read on each side: the words next to the figure, not the whole answer
    before = _WORD.findall(answer, max(0, item.start - reach), item.start)
    after = _WORD.findall(answer, item.end, item.end + reach)
    before = before[1 if item.start > reach else 0 :][-CONTEXT_WORDS:]  # a word the window cut is left out
    after = after[: -1 if item.end + reach < len(answer) else None][:CONTEXT_WORDS]
    opening = item.start <= reach and len(before) >= OPENING_WORDS  # "Americas revenue decreased 2.1 percent as …"
    # "… acquired by CTS in fiscal year 2018.": the answer closes on the figure
    closing = item.end + reach >= len(answer) and not any(_LETTERS.search(w) or re.search(r"\d", w) for w in after)
    if closing and len(before) >= CONTEXT_WORDS:
        after = []
    elif len(before) < CONTEXT_WORDS and not opening or len(after) < CONTEXT_WORDS:
        return None
    if any(re.search(r"\d", w) for w in before[-1:] + after[:1]) or not all(
        _LETTERS.search(" ".join(side)) for side in ((before, after) if after else (before,))
    ):
        return None  # next to another figure, or no words to place it: not a sentence copied
    return before, after


def misquoted(answer: str, item: Found, texts: list[str], lowered: list[str]) -> str | None:
    """The figure the evidence writes where the answer writes ``item``, when the answer copies
    the words around it and the evidence has another figure there; else None. ``lowered``:
    ``texts`` lower-cased (same offsets), where the first word is looked for before the
    pattern is tried at each place it stands: the check stays on the answer's hot path."""
    context = None if item.dates else _context(answer, item)  # a date is checked as a date
    if context is None:
        return None
    before, after = context
    pattern = re.compile(
        r"\s+".join(map(re.escape, before)) + r"\s*" + _FIGURE_SLOT + r"\s*"
        + r"\s+".join(map(re.escape, after)) + r"(?!\S)",
        re.IGNORECASE,
    )  # fmt: skip
    first = before[0].lower()
    digits = _DIGIT.sub("", item.text)
    other: str | None = None
    for text, low in zip(texts, lowered, strict=True):
        at = low.find(first)
        while at >= 0:
            match = pattern.match(text, at) if at == 0 or text[at - 1].isspace() else None
            at = low.find(first, at + 1)
            if match is None:
                continue
            written = extract_figures(match.group("figure"))
            if any(f.value == item.value or _DIGIT.sub("", f.text) == digits for f in written):
                return None  # the evidence writes this very sentence with this figure ("$2,515" of "$2,515 million")
            other = other or (written[0].text if written else None)
    return other
