"""A figure changed inside a sentence the answer otherwise copies from the evidence.

An answer that quotes "Cable revenue increased by 2% as the increase in Internet revenue
…" where the report writes "by 1% as the increase in Internet revenue" restates the
report's sentence with another figure: the 2% standing elsewhere in the evidence does
not make it the report's. The words on both sides of the figure (``CONTEXT_WORDS`` each)
are looked for in the evidence around any figure; when they are found and none of the
figures between them is the answer's, that figure is what the sentence says. An answer that
ends a few words after the figure ("… in respect of achievement of 2018 targets.") is read
with those words. An item of a list ("Less than 2 year; 1-3 years") is looked for whole, as
a cell or an item of the evidence ("| Less than 1 year |").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from engine.grounding.figures import Found, extract_figures

CONTEXT_WORDS = 4  # words on each side of the figure that must stand in the evidence as the answer writes them
OPENING_WORDS = 1  # fewer before it when the answer opens with them ("IFRS 10 ‘Financial Instruments’, …")
_WORD = re.compile(r"\S+")
_UNIT_WORDS = frozenset(
    "thousand thousands million millions billion billions bn m k percent per cent usd eur gbp".split()
)
_DIGIT = re.compile(r"\D")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_NAME_SLOT = r"(?P<figure>\S*\d\S*)"
_FIGURE_SLOT = r"(?P<figure>\S*\d\S*(?:\s(?:million|billion|thousand|percent|per cent|bn|m)\b)?)"


def _context(answer: str, start: int, end: int) -> tuple[list[str], list[str]] | None:
    reach = 40 * CONTEXT_WORDS  # characters read on each side: the words next to the figure, not the whole answer
    before = _WORD.findall(answer, max(0, start - reach), start)
    after = _WORD.findall(answer, end, end + reach)
    before = before[1 if start > reach else 0 :][-CONTEXT_WORDS:]  # a word the window cut is left out
    after = after[: -1 if end + reach < len(answer) else None][:CONTEXT_WORDS]
    opening = start <= reach and len(before) >= OPENING_WORDS  # "Americas revenue decreased 2.1 percent as …"
    # "… acquired by CTS in fiscal year 2018.": the answer closes on the figure; "… of 2018 targets.": a few words after
    ending = end + reach >= len(answer) and len(before) >= CONTEXT_WORDS
    if ending and not any(_LETTERS.search(w) or re.search(r"\d", w) for w in after):
        after = []
    elif len(before) < CONTEXT_WORDS and not opening or len(after) < CONTEXT_WORDS and not ending:
        return None
    if any(re.search(r"\d", w) for w in before[-1:] + after[:1]) or not all(
        _LETTERS.search(" ".join(side)) for side in ((before, after) if after else (before,))
    ):
        return None  # next to another figure, or no words to place it: not a sentence copied
    return before, after


def _item_bounds(answer: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the item of a one-line list ("a; b; c") that holds ``answer[start:end]`` runs."""
    if ";" not in answer or "\n" in answer.strip():
        return None
    after = answer.find(";", end)
    return answer.rfind(";", 0, start) + 1, len(answer) if after < 0 else after


def _list_item(answer: str, item: Found) -> tuple[list[str], list[str]] | None:
    """The words around the figure inside its item of a one-line list ("Less than 2 year" of
    "Less than 2 year; 1-3 years"), when the item holds words and no other figure."""
    bounds = _item_bounds(answer, item.start, item.end)
    if bounds is None:
        return None
    start, end = bounds
    number = re.search(r"\d[\d,.]*", item.text)
    after_number = item.start + number.end() if number else item.end  # "2 year": its unit is the item's words
    before = _WORD.findall(answer, start, item.start)
    after = _WORD.findall(answer, after_number, end)
    words = before + after
    if not words or len(words) > 2 * CONTEXT_WORDS or any(re.search(r"\d", w) for w in words):
        return None
    named = [w for w in words if w.lower().strip(".,;:()") not in _UNIT_WORDS]  # "$212.1 million" names nothing
    return (before, after) if _LETTERS.search(" ".join(named)) else None


def misquoted(answer: str, item: Found, texts: list[str], lowered: list[str]) -> str | None:
    """The figure the evidence writes where the answer writes ``item``, when the answer copies
    the words around it and the evidence has another figure there; else None. ``lowered``:
    ``texts`` lower-cased (same offsets), where the first word is looked for before the
    pattern is tried at each place it stands: the check stays on the answer's hot path."""
    if item.dates:
        return None  # a date is checked as a date
    whole = _list_item(answer, item)  # an item of a list is read alone: the next item is no sentence of it
    context = None if whole else _context(answer, item.start, item.end)
    if context is None and whole is None:
        return None
    before, after = context or whole or ([], [])
    pattern = _around(before, _FIGURE_SLOT, after, lead=r"(?:^|(?<=[|;,\n]))\s*" if whole else "",
                      tail=r"\s*(?:$|(?=[|;,\n]))" if whole else r"(?!\S)")  # fmt: skip
    if whole:  # a cell or an item, as a whole: looked for wherever it may start
        return _written_elsewhere((m for text in texts for m in pattern.finditer(text)), item)
    return _written_elsewhere(_matches(pattern, texts, lowered, before[0].lower()), item)


# a name written with digits ("table S2NA", "Series2000", "IFRS 16" aside): letters and digits in one word
_CODED = re.compile(r"(?<![\w$€£])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])(?!FY\d)[A-Za-z\d]*[A-Za-z][A-Za-z\d]*(?![\w%])")


def misquoted_names(answer: str, texts: list[str], lowered: list[str]) -> list[tuple[str, str]]:
    """The names written with digits ("S3NA") in a sentence the answer copies where the evidence
    writes another ("S2NA"), each with what the evidence writes."""
    out = []
    for m in _CODED.finditer(answer):
        if not any(c.isdigit() for c in m.group()):
            continue
        item = _item_words(answer, m)
        if item is not None:  # "KPMG Conference; G112 Conference; …": the item's words, wherever they stand
            pattern = _around(item[0], _NAME_SLOT, item[1], tail=r"(?!\w)")
            written = [w.group("figure").strip(".,;:") for t in texts for w in pattern.finditer(t)]
        else:  # the words next to it, up to the answer's ends ("Horizon Clinicals and Series1999 Revenue Cycle")
            before = _WORD.findall(answer, 0, m.start())[-CONTEXT_WORDS:]
            after = _WORD.findall(answer, m.end())[:CONTEXT_WORDS]
            if len(before) + len(after) < CONTEXT_WORDS or not before or not _LETTERS.search(" ".join(before + after)):
                continue
            pattern = _around(before, _NAME_SLOT, after, tail=r"(?!\w)")
            written = [w.group("figure").strip(".,;:") for w in _matches(pattern, texts, lowered, before[0].lower())]
        if written and m.group() not in written:
            out.append((m.group(), written[0]))
    return out


def _item_words(answer: str, name: re.Match[str]) -> tuple[list[str], list[str]] | None:
    """The words of ``name``'s item in a one-line list ("G112 Conference" of "KPMG Conference;
    G112 Conference"), when the item holds a word beside the name and no other figure."""
    bounds = _item_bounds(answer, name.start(), name.end())
    if bounds is None:
        return None
    before = _WORD.findall(answer, bounds[0], name.start())
    after = _WORD.findall(answer, name.end(), bounds[1])
    if not _LETTERS.search(" ".join(before + after)) or any(re.search(r"\d", w) for w in before + after):
        return None
    words = [w.strip(".,:") for w in before + after]
    return [w for w in words[: len(before)] if w], [w for w in words[len(before) :] if w]


def _around(before: list[str], slot: str, after: list[str], lead: str = "", tail: str = "") -> re.Pattern[str]:
    """The words ``before`` and ``after`` as the answer writes them, ``slot`` between them."""
    return re.compile(
        lead + r"\s+".join(map(re.escape, before)) + r"\s*" + slot + r"\s*" + r"\s+".join(map(re.escape, after)) + tail,
        re.IGNORECASE | re.MULTILINE,
    )


def _matches(pattern: re.Pattern[str], texts: list[str], lowered: list[str], first: str) -> Iterator[re.Match[str]]:
    """``pattern`` tried only where its first word stands, at a word's start."""
    for text, low in zip(texts, lowered, strict=True):
        at = low.find(first)
        while at >= 0:
            match = pattern.match(text, at) if at == 0 or text[at - 1].isspace() else None
            at = low.find(first, at + 1)
            if match is not None:
                yield match


def _written_elsewhere(matches: Iterable[re.Match[str]], item: Found) -> str | None:
    """The figure the first of ``matches`` writes where the answer writes ``item``, unless one of
    them writes the answer's ("$2,515" of "$2,515 million")."""
    digits = _DIGIT.sub("", item.text)
    other: str | None = None
    for match in matches:
        written = extract_figures(match.group("figure"))
        if any(f.value == item.value or _DIGIT.sub("", f.text) == digits for f in written):
            return None
        other = other or (written[0].text if written else None)
    return other


_RANGE_UNIT = r"(?:years?|months?|weeks?|days?|hours?)"  # a duration: "from 12.6% to 11.3%" is a change
_CHANGED = re.compile(
    r"(?i)\b(?:increas|decreas|rose|rise|fell|fall|grew|grow|declin|chang|went|moved|reduc|extend)\w*\W+$"
)
# "the maximum useful life": one end of the range is what is asked
_END_ASKED = re.compile(r"(?i)\b(?:max(?:imum)?|min(?:imum)?|longest|shortest|upper|lower|at (?:most|least)|up to)\b")


def range_written(answer: str, item: Found, question: str, texts: list[str]) -> str | None:
    """The range the evidence writes ("varies from 2 to 10 years") when the answer gives only
    one of its ends ("10 years") with its unit, and the question asks for neither end; else None."""
    unit = re.search(rf"\s?({_RANGE_UNIT})$", item.text, re.IGNORECASE) or re.match(
        rf"\s?({_RANGE_UNIT})(?!\w)", answer[item.end :], re.IGNORECASE
    )  # "10 years" read as a duration, or "10" before "years"
    number = re.search(r"\d[\d,.]*", item.text)
    if unit is None or number is None or _END_ASKED.search(question):
        return None
    figure, word = re.escape(number.group()), unit.group(1)
    other = r"\d[\d,.]*"
    pattern = re.compile(
        rf"(?<![\d.,])(?:(?:between\s+{other}\s?(?:{re.escape(word)})?\s*and|{other}\s?(?:{re.escape(word)})?\s*(?:to|-|–))\s*{figure}"
        rf"|{figure}\s?(?:{re.escape(word)})?\s*(?:to|-|–)\s*{other})"
        rf"\s?{re.escape(word)}(?!\w)",
        re.IGNORECASE,
    )
    for text in texts:
        for found in pattern.finditer(text):
            if _CHANGED.search(text[max(0, found.start() - 30) : found.start()].removesuffix("from ")):
                continue  # "extended from 2 to 3 years": a change, no range
            ends = re.findall(other, found.group())
            if not all(e in answer for e in ends):
                return found.group()
    return None
