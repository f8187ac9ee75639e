"""Where a figure the check refuses was found, as its flag says it: "56.7 is Other, 2018, not
Total, 2019", "455 is stated (…), but not as a figure per continent", "… is written as a change"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.grounding.beside import Beside
from engine.grounding.figures import Found
from engine.grounding.initialisms import others_named
from engine.grounding.layout import Place
from engine.grounding.models import Misplaced
from engine.grounding.written_as import as_change, change_phrase

if TYPE_CHECKING:
    from engine.grounding.support import Support


def misplaced(support: Support, item: Found, literal: list[Place]) -> Misplaced:
    """The flag of ``item``, found only at the places ``literal``: the closest of them, against
    what the question asks (its row and period, its measure)."""
    scope, index = support.scope, support.index
    found = max(literal, key=lambda p: (p.kind == "cell", scope.score(p)))
    best = scope.best
    years = ", ".join(sorted(scope.years)) if scope.period_active else ""
    if best is not None and scope.subject_active:
        expected = ", ".join(x for x in (best.label, years or best.column) if x)
    else:
        expected = years
    ev = index.evidence[found.evidence]
    where = found.where() if found.kind == "cell" else ", ".join(sorted(found.years))
    where = where or ", ".join(x for x in (ev.source or ev.tool, ev.location or "") if x)
    beside = Beside(support.answer, support.cuts, item)
    other_scale = beside.scale != 1 and found.scale not in (1, beside.scale)
    text = index.texts[found.evidence]
    if found.kind == "text" and (others := others_named(text[found.unit[0] : found.unit[1]], support.initials)):
        where, expected = ", ".join(sorted(others)), ", ".join(sorted(support.initials))  # "US, not UK"
    if not support.measured(found):  # "455 is stated (…), but not as a figure per continent"
        line = text.strip().split("\n", 1)[0]  # "3,569 = -1,636 − (-5,205): change in Net unrealized loss … (r.md)"
        where = line.split(": ", 1)[-1].split(" (", 1)[0][:100] if found.kind == "result" else where
        return Misplaced(figure=item.text, found=where, expected=support.asked.named, evidence=ev.n,
                         in_table=found.kind == "cell", measured=True,
                         counted=support.counted(found))  # fmt: skip  # "1,583,616 is a count (Granted, …)"
    # "1,966,895 is stated (…); the question asks a figure computed …": as it stands, or as the whole of parts asked
    if support.stated_for_computation(found) or found.kind == "text" and support.whole_of_part(found):
        return Misplaced(figure=item.text, found=where, expected=expected, evidence=ev.n,
                         in_table=found.kind == "cell", computed=True)  # fmt: skip
    if support.level and found.kind == "text" and as_change(text, found):  # "increase by 2,000,000": how, not where
        return Misplaced(figure=item.text, found=change_phrase(text, found), expected=expected, evidence=ev.n,
                         in_table=False, as_change=True)  # fmt: skip
    return Misplaced(figure=item.text, found=found.text if other_scale else where, expected=expected,
                     evidence=ev.n, in_table=found.kind == "cell", other_scale=other_scale)  # fmt: skip
