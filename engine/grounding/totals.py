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
