"""Rows of a share or a net that the label match alone does not give.

"What portion of the purchase price is dedicated to goodwill?" names its whole before the verb
and its part after it: each phrase is matched to a row alone (``part_and_whole``), so the whole
may be a row no Total names ("Final purchase price"). "The net trading assets from derivatives"
asks one row less its opposite ("… receivables" less "… payables"), which no one cell states
(``net_of_two``).
"""

from __future__ import annotations

import re

from engine.grounding.answer_kinds import fold
from engine.grounding.measure import opposite
from engine.grounding.stems import words
from engine.tools.tables.label_match import Semantic, label_words, named_rows
from engine.tools.tables.question_reading import read_question

# "what portion of the purchase price is dedicated to goodwill?": the whole before the verb, the part after it
_PART_OF_WHOLE = re.compile(
    r"\b(?:portion|percent(?:age)?|share|proportion|fraction|part) of (?:the )?(?P<whole>[^?]+?) (?:is|was|are|were) "
    r"(?:dedicated|related|attributable|attributed|allocated|assigned) to (?:the )?(?P<part>[^?]+?)\s*\??\s*$"
)


def part_and_whole(question: str, labels: list[str], sem: Semantic, heads: dict[str, str]) -> list[str] | None:
    """The part's row and the whole's row of a share the question names both of ("the purchase
    price" is the row "Final purchase price", which no Total names), each named alone; None
    unless each phrase names one row, and not the same one."""
    m = _PART_OF_WHOLE.search(fold(question))
    if m is None:
        return None
    found = []
    for phrase in (m.group("part"), m.group("whole")):
        alone = f"what is the {phrase}?"
        reading = read_question(alone)
        named = named_rows(alone, words(alone), reading, labels, sem, heads)
        # else the one row whose label holds every word of the phrase ("Net tangible assets acquired as of May 2, 2006")
        named = named or [r for r in labels if reading.subject and reading.subject <= label_words(r)]
        if len(named) != 1:
            return None
        found.append(named[0])
    return found if found[0] != found[1] else None


_NET = re.compile(r"\bnet\b")


def net_of_two(question: str, row: str, labels: list[str]) -> bool:
    """Whether the question asks a net of ``row`` that the row does not state: it says "net",
    the row's label does not, and another row names the row's opposite ("Trading liabilities –
    derivative payables" beside "Trading assets – derivative receivables"): the net is the one
    less the other."""
    own = frozenset(label_words(row))
    if not _NET.search(fold(question)) or _NET.search(fold(row)):
        return False
    return any(opposite(own, frozenset(label_words(other))) for other in labels if other != row)
