"""The initialisms a question names ("U.K.", "U.S.", "AOCI"), and whether a sentence names one.

"Includes amounts capitalized related to the Company's U.S. build-to-suit facility of $41.8
million and $39.4 million" shares every word with a question about the Company's U.K.
facility but one: the initialism is the whole of the difference. The answer check reads a
question's initialisms as part of its subject, when the evidence writes them somewhere: a
sentence that names another initialism and not the question's is about something else.

A sentence names "U.K." when it writes it, with or without its dots ("UK"), or spells it
out in as many words as it has letters, their initials in order: capitalised words for one
of up to three letters ("United Kingdom", not "unique key"), any words for a longer one
("accumulated other comprehensive income" for "AOCI")."""

from __future__ import annotations

import re

_INITIALISM = re.compile(
    r"(?<![\w.])(?:[A-Z]\.)+[A-Z](?:\.|(?![\w.]))|(?<![\w.&])[A-Z]{2,6}(?![\w&])"
)  # "U.S." or "U.S"
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
SHORT = 3  # letters of an initialism that only capitalised words spell out ("United Kingdom")


def initialisms(text: str) -> frozenset[str]:
    """The initialisms of ``text``, without their dots ("U.K." → "UK")."""
    return frozenset(m.group(0).replace(".", "") for m in _INITIALISM.finditer(text))


def names(text: str, short: str) -> bool:
    """Whether ``text`` writes the initialism ``short`` (dots removed) or spells it out."""
    return short in initialisms(text) or _spelled(text, short)


def _spelled(text: str, short: str) -> bool:
    found = _WORD.findall(_INITIALISM.sub(" ", text))  # the letters of "U.K." spell nothing out
    if len(short) <= SHORT:  # "unique key" is no "UK": a short one is spelled out in capitals
        found = [w if w[0].isupper() else "_" for w in found]
    n = len(short)
    return any("".join(w[0] for w in found[i : i + n]).upper() == short for i in range(len(found) - n + 1))


def initialisms_asked(question: str, texts: list[str]) -> frozenset[str]:
    """The initialisms of ``question`` that some evidence text names: the ones a sentence must name too.
    One the question spells out itself ("the Share Incentive Plan ('SIP')") is named by its words."""
    return frozenset(s for s in initialisms(question) if not _spelled(question, s) and any(names(t, s) for t in texts))


def others_named(sentence: str, asked: frozenset[str]) -> frozenset[str]:
    """The initialisms ``sentence`` names in place of the ``asked`` ones ("US" in a sentence
    about the U.S. facility, for a question about the U.K. one); empty when it names them all."""
    if all(names(sentence, short) for short in asked):
        return frozenset()
    return initialisms(sentence) - asked


_DOTTED = re.compile(r"(?<![\w.])((?:[^\W\d_]\.){1,3}[^\W\d_])\.?(?![\w])")


def dotted(text: str) -> set[str]:
    """The dotted initialisms a text writes, in any case ("U.S.", FinQA's "u.s"), as "u.s.": the
    letters alone are no words (``words`` drops them), and "us" would be one."""
    return {m.group(1).lower() + "." for m in _DOTTED.finditer(text)}
