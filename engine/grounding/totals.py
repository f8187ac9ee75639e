"""Total and subtotal rows, recognised by their label.

Report tables end their sections with rows that add up the rows above them ("Total",
"Total revenue", "Subtotal", "Net sales, total", "Sous-total"). Summing a column that
holds them counts every figure twice, and a figure read from one is about the whole,
not a part. The table reader, the table planner and the answer check all ask this one
function."""

from __future__ import annotations

import re

_TOTAL = re.compile(
    r"^\s*(?:grand\s+|sub[\s-]?|sous[\s-]?)?(?:totale?s?|totaux)\b|,\s*(?:sub[\s-]?)?(?:totale?s?|totaux)\s*$|\b(?:totale?s?|totaux)\s*$",
    re.IGNORECASE,
)


def is_total_label(label: object) -> bool:
    """Whether a row label names a total or subtotal row ("Total", "Total revenue",
    "Subtotal", "Grand total", "Net sales, total", "Sous-total", "Totaux").

    "Total" inside a name that is not about the sum ("Totalview Inc.") is no total."""
    if not isinstance(label, str):
        return False
    return bool(_TOTAL.search(label))


_BALANCE = re.compile(
    r"(?i)\b(?:balances?|solde)\b|\b(?:beginning|end|start|opening|closing)\s+(?:of\s+(?:the\s+)?)?(?:year|period|fiscal)"
    r"|\b(?:at|as of)\s+(?:the\s+)?(?:beginning|end|start)\b|\b(?:at|as of)\s+(?:[a-z]+\s+\d{1,2},?\s+)?(?:19|20)\d\d\b"
)


def is_balance_label(label: object) -> bool:
    """Whether a row label names a balance at a date ("Non-vested at December 31, 2018",
    "Balance at beginning of year", "Outstanding at end of period"): the opening or closing
    line of a roll-forward, a stock and not one of the movements between them."""
    return isinstance(label, str) and bool(_BALANCE.search(label))
