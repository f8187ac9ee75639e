"""How a sentence writes one of its figures: as a change ("to increase by 2,000,000"), as
a share of something ("41.3% of net revenues"), or as a loss ("gross profit was a loss of
$3.5 million"). The answer check (support.py) reads the first two to tell a sentence that
states the figure asked from one that states another; the evidence answer (facts.py) signs
a loss stated for a profit asked."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from engine.grounding.answer_kinds import fold
from engine.grounding.figures import EVIDENCE_NUMBER_RE, extract_figures
from engine.grounding.layout import YEAR_RE, Place, content_words, scale_of

_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_BETWEEN_FIGURES = frozenset({"and", "or", "to", "et", "ou", "respectively", "respectivement"})
_SHARE_WRITTEN = re.compile(r"\b(?:percentage|percent|share|proportion) of ([^,;:()]{3,60})")
SHARE_ASKED = re.compile(r"\b(?:percentage|percent|share|proportion|portion|part|pourcentage) (?:of|de|du|des)\b")
# "increase by 2,000,000 the number of shares", "revenue rose 5%", "added $242 million of operating expenses": the
# figure written is a change, not a level
_AS_CHANGE = re.compile(
    r"(?:increas|decreas|reduc|rose\b|rise|risen|grew|grow|fell\b|fall|declin|drop|jump|climb|up\b|down\b|hausse"
    r"|baisse|augment|diminu|added\b|adds\b)\w*\s+(?:by\s+|of\s+|de\s+)?(?:approximately\s+|about\s+|nearly\s+|roughly\s+"
    r"|some\s+|environ\s+)?[$€£]?\s?$"
)
_LOOK_BACK = 48  # characters before a figure read for the change that introduces it


def _before(text: str, place: Place) -> str:
    return text[max(place.unit[0], place.start - _LOOK_BACK) : place.start]


def _changed(text: str, start: int, floor: int = 0) -> bool:
    """Whether ``text`` writes the figure at ``start`` as a change (looking back no further than ``floor``)."""
    return bool(_AS_CHANGE.search(fold(text[max(floor, start - _LOOK_BACK) : start])))


def as_change(text: str, place: Place) -> bool:
    """Whether the sentence of ``place`` (in ``text``) writes its figure as a change."""
    return _changed(text, place.start, place.unit[0])


_OR_BEFORE = re.compile(r"\bor\s*$")


def only_changes(sentence: str) -> bool:
    """Whether every figure of a sentence is written as a change, or as its percentage after it
    ("net sales in 2015 decreased $97 million, or 1%, compared to 2014"): it states no level."""
    found = [f for f in extract_figures(sentence) if f.kind != "date" and not YEAR_RE.fullmatch(f.text)]
    kept = [f for i, f in enumerate(found) if not (i and f.text == found[i - 1].text)]  # "1% (1%)": written twice
    return bool(kept) and all(
        _changed(sentence, f.start) or _OR_BEFORE.search(fold(sentence[max(0, f.start - 8) : f.start]).rstrip())
        for f in kept
    )


def level_beside_change(text: str, place: Place) -> bool:
    """Whether the sentence of ``place`` writes its figure as a level beside another it writes as a
    change ("increased $9.6 million to $24.4 million … compared to $14.8 million"): the change asked
    is the other one."""
    written = EVIDENCE_NUMBER_RE.match(text, place.start)
    if (
        _changed(text, place.start, place.unit[0])
        or written
        and written.group("pct")
        or _OR_BEFORE.search(text, 0, place.start)
    ):
        return False  # a change itself, or its percentage ("increased $1.7 billion or 13%")
    sentence = text[place.unit[0] : place.unit[1]]
    figures = [f for f in extract_figures(sentence) if f.kind != "date" and not YEAR_RE.fullmatch(f.text)]
    return any(_changed(text, place.unit[0] + f.start, place.unit[0]) for f in figures if "%" not in f.text)


def change_beside_level(answer: str, start: int) -> bool:
    """Whether ``answer`` writes the figure at ``start`` as a change and states the level besides ("the loss
    increased $63 million to $987 million"): the change is context, not a level misread. "Expenses increased
    $1.7 billion or 13%" states no level."""
    if not _changed(answer, start):
        return False
    figures = [f for f in extract_figures(answer) if f.kind != "date" and not YEAR_RE.fullmatch(f.text)]
    # "$1.7 billion or 13%": the percentage restates the change
    return any(not _changed(answer, f.start) and not _OR_BEFORE.search(answer, 0, f.start) for f in figures)


def in_other_scale(texts: list[str], place: Place, scale: int) -> bool:
    """Whether ``place`` is in another scale than ``scale`` (an answer's "thousand", "million"): its own,
    or an amount a sentence writes with its currency and no scale word ("$1.75"), dollars as written,
    never the millions or billions of a table's unit; unless the passage gives ``scale`` as its
    unit before the sentence ("Comparison of Year Ended December 31, 2019 … (in 000’s)": "$93,662")."""
    if place.scale not in (1, scale):
        return True
    before = texts[place.evidence][max(0, place.start - 2) : place.start]
    if place.kind != "text" or place.scale != 1 or not any(sign in before for sign in "$€£"):
        return False
    return scale_of(texts[place.evidence][: place.unit[0]]) != scale


def change_phrase(text: str, place: Place) -> str:
    """The change as the sentence writes it, up to the figure: "to increase by 2,000,000"."""
    return " ".join((_before(text, place) + text[place.start : place.end]).split()[-4:])


def share_of(text: str, place: Place, asked: frozenset[str]) -> bool:
    """Whether a sentence's percentage measures what the question asks a share of (``asked``,
    its content words): the word after it ("40% of the revenue", "35% revenue growth") is
    one of the question's, or it is a share "of" something, of what the sentence names before
    it ("Direct sales … accounted for 41.3% of net revenues"), or the sentence says before it
    what it is a percentage of ("as a percentage of total revenue, remained at 7%")."""
    written = _SHARE_WRITTEN.search(fold(text[place.unit[0] : place.start]))
    if written and content_words(written.group(1)) & asked:
        return True  # "expenses, as a percentage of total revenue, remained at approximately 7%"
    after = _WORD.findall(text[place.end : place.end + 80])
    while after and fold(after[0]) in _BETWEEN_FIGURES:  # "12% and 10% of revenue", "10% to 12% of"
        after = after[1:]
    if after[:1] and fold(after[0]) in ("of", "de", "des", "du"):  # "X accounted for 41.3% of net revenues"
        before = content_words(text[place.unit[0] : place.start])
        return bool(content_words(" ".join(after[1:6])) & asked) or len(before & asked) >= 2
    return bool(after) and bool(content_words(after[0]) & asked)


# "totaled $17.7 billion, which consisted of 87.4% fixed maturities and cash": the amount is the whole, the parts
# are written as percentages of it
_OF_PARTS = re.compile(
    r"^[^;:%$€£]{0,60}?\b(?:which |that )?(?:consist(?:ed|ing|s)? of|compris(?:ed|ing|es)|composed of"
    r"|made up of|of which)\s+(?:approximately |about |roughly )?(\d[\d.,]*\s?%)(?:\s*\(\s*\d[\d.,]*\s?%\s*\))?"
    r"\s+(?:of\s+(?:which\s+)?(?:was |were |is |are )?)?([^,;:.]{3,80})"
)
PART_WORDS = 2  # the parts name this many of the question's words that the sentence before the amount does not


def whole_of_part(text: str, place: Place, asked: AbstractSet[str]) -> bool:
    """Whether a sentence writes the amount at ``place`` as a whole made of parts given as percentages, and the
    question asks one of those parts (``asked``: its content words): "cash and invested assets totaled $17.7
    billion, which consisted of 87.4% fixed maturities and cash" states no amount of fixed maturities and cash."""
    parts = _OF_PARTS.search(fold(text[place.end : place.unit[1]]))
    if parts is None:
        return False
    whole = content_words(text[place.unit[0] : place.start]) & asked
    return len((content_words(parts.group(2)) & asked) - whole) >= PART_WORDS


# "as a percentage of total revenue", "the share of total assets": the whole a share is asked of
_WHOLE_ASKED = re.compile(
    r"\b(?:as an? (?:percentage|percent|%|share|proportion) of|percent(?:age)? of|proportion of|share of)\s+"
    r"([^?]{3,60}?)(?=\s+(?:in|for|during|at|as of|of)\s+(?:[a-z]+\.? \d{1,2}\s*,?\s*)?(?:19|20)\d\d|\s*\?|$)"
)
_WHOLE_WORDS = content_words("total overall entire all whole")


def whole_asked(question: str) -> frozenset[str]:
    """The words of the whole a share is asked of ("revenue" of "as a percentage of total revenue"), if any."""
    whole = _WHOLE_ASKED.search(fold(question))
    return content_words(whole.group(1)) - _WHOLE_WORDS if whole else frozenset()


# "Medical segment gross profit was a loss of $3.5 million": the gross profit is −3.5
_AS_LOSS = re.compile(
    r"\b(?:a|une)?\s*(?:net\s+)?(?:loss|perte)\s+(?:of|de)\s+(?:approximately\s+|about\s+)?[$€£]?\s?$"
)
_GAIN_ASKED = re.compile(r"\b(?:profits?|income|earnings|gains?|margins?|benefices?|resultats?|marges?)\b")
_LOSS_ASKED = re.compile(r"\b(?:loss(?:es)?|pertes?|deficits?)\b")


def signed_as_asked(question: str, text: str, start: int, shown: str) -> str:
    """``shown`` (the figure at ``start`` of ``text``) with a minus sign when the sentence
    writes it as a loss and the question asks the profit it is: "−$3.5 million". A question
    that names the loss ("what was the net loss?") asks the loss as written."""
    asked = fold(re.sub(r"\([^)]*\)", " ", question))  # "Net income (loss)" asks the income
    if not _GAIN_ASKED.search(asked) or _LOSS_ASKED.search(asked) or shown.startswith(("-", "−", "(")):
        return shown
    return "−" + shown if _AS_LOSS.search(fold(text[max(0, start - _LOOK_BACK) : start])) else shown


_CHANGE_ASKED = re.compile(r"\bchange[sd]?\b|\bvariation\b|\bmove[sd]?\b|\bevol\w*")  # no direction asked
_DIRECTION_ASKED = re.compile(r"\b(?:increase|decrease|rise|fall|grow|growth|decline|drop|hausse|baisse)\w*")
_DIRECTED = re.compile(
    r"\b(increased|decreased|declined|rose|fell|grew|dropped|improved|deteriorated|augmente|diminue|baisse)\s+(?:by\s+|de\s+)?$"
)


def with_direction(question: str, text: str, start: int, shown: str) -> str:
    """``shown`` with the way it moved ("decreased $352 million") when the question asks how much a
    figure changed without saying which way, and the sentence writes the direction right before it."""
    asked = fold(question)
    if not _CHANGE_ASKED.search(asked) or _DIRECTION_ASKED.search(asked):
        return shown
    found = _DIRECTED.search(fold(text[max(0, start - _LOOK_BACK) : start]))
    return f"{found.group(1)} {shown}" if found else shown


def as_asked(question: str, text: str, start: int, shown: str) -> str:
    """``shown`` signed as the question asks it (``signed_as_asked``), with the way it moved when a change is asked."""
    return with_direction(question, text, start, signed_as_asked(question, text, start, shown))


def change_for_level(question: str, text: str, figure: str) -> bool:
    """Whether ``text`` writes ``figure`` as a change ("expenses increased $1.7 billion") while the question asks
    no change ("how much were the expenses in 2018?"): the passage does not state the level asked."""
    asked = fold(question)
    at = text.find(figure)
    return at >= 0 and not _CHANGE_ASKED.search(asked) and not _DIRECTION_ASKED.search(asked) and _changed(text, at)
