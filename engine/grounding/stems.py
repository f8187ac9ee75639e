"""The words of a text as the checks compare them: content words, accent-folded and
crudely stemmed, English and French."""

from __future__ import annotations

import re
from types import MappingProxyType

from engine.grounding.answer_kinds import fold

_WORD_RE = re.compile(r"[a-z0-9]+")
_MONTH_NAMES = MappingProxyType({
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
    "dec": "december", "janv": "janvier", "fevr": "fevrier", "avr": "avril", "juil": "juillet",
})  # fmt: skip
_STOP = frozenset(
    """a an the of in on at to for from by with and or is are was were be been what which who whom how when where why
    do does did can could should would may might our your their my its this that these those it as per any all there
    le la les l un une des du de d au aux et ou est sont etait quel quelle quels quelles qui que quoi comment quand
    ou pour par avec dans sur en ce cette ces se sa son ses leur leurs nos notre votre vos il elle ils elles on ne pas
    much many combien""".split()
)

_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ees", "ee", "es", "ed", "er", "s", "e", "x")


def _stem(word: str) -> str:
    """Crude EN/FR stemming: "capped" and "cap", "hotels" and "hôtel" meet; a month's
    abbreviation is its name ("Aug - 2019" is named by "August 2019")."""
    word = _MONTH_NAMES.get(word, word)
    if len(word) > 4 and not word.isdigit():
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        if len(word) > 3 and word[-1] == word[-2]:
            word = word[:-1]
    return word[:6]


def words(text: str) -> set[str]:
    """Content words, accent-folded and crudely stemmed ("Hotels" and "hôtel" meet)."""
    return set(word_sequence(text))


def word_sequence(text: str) -> list[str]:
    """The content words of ``text`` (as ``words`` reads them), in their order."""
    return [_stem(w) for w in _WORD_RE.findall(fold(text)) if w not in _STOP and (len(w) > 1 or w.isdigit())]
