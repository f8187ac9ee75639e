"""What the answer check writes for people: a derivation's footnote ("412 = 1,950 − 1,538
(table.csv, Software, 2019 and 2018)") and where a misplaced figure was found ("56.7 is
Other, 2018, not Total, 2019"). English and French, in ``messages.json`` beside it (``messages.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.grounding.compare import Condition
from engine.grounding.derive import Derivation
from engine.grounding.layout import Place
from engine.grounding.messages import say
from engine.grounding.models import Evidence, Misplaced


def number(place: Place) -> str:
    """An operand as written, a negative one with a minus sign: "(3.1)" → "−3.1"."""
    text = place.text.strip()
    if place.value < 0:
        text = "−" + text.strip("()-−– ").lstrip("-−–")
    return text


def expression(derivation: Derivation) -> str:
    names = [number(p) for p in derivation.operands]
    op = derivation.op
    if op == "difference":
        return f"{names[0]} − {names[1]}"
    if op == "sum":
        return " + ".join(names)
    if op == "average":
        return f"({' + '.join(names)}) / {len(names)}"
    if op == "ratio":
        return f"{names[0]} / {names[1]}"
    if op == "percentage":
        return f"{names[0]} / {names[1]} × 100"
    return f"({names[0]} − {names[1]}) / {names[1]} × 100"  # percent_change: (new, base)


def _cell_names(places: Sequence[Place], joiner: str) -> str:
    """ "Software, 2019 and 2018" when the cells share a row; "Software, 2019; Other, 2019" otherwise."""
    labels = list(dict.fromkeys(p.label for p in places))
    if len(labels) == 1:
        columns = list(dict.fromkeys(p.column_name() for p in places))
        columns = [c for c in columns if c]
        return ", ".join(part for part in (labels[0], joiner.join(columns)) if part)
    return "; ".join(dict.fromkeys(p.where() for p in places))


def provenance(derivation: Derivation, evidence: Sequence[Evidence], language: str = "en") -> str:
    """Where the operands come from: "(table.csv, Software, 2019 and 2018)"."""
    joiner = say("and", language)
    parts: list[str] = []
    by_source: dict[str, list[Place]] = {}
    for p in derivation.operands:
        ev = evidence[p.evidence]
        by_source.setdefault(ev.source or ev.tool, []).append(p)
    for source, places in by_source.items():
        cells = [p for p in places if p.kind == "cell"]
        where = _cell_names(cells, joiner) if cells else ""
        ev = evidence[places[0].evidence]
        if not cells and ev.location:
            where = ev.location
        parts.append(", ".join(x for x in (source, where) if x))
    return "(" + "; ".join(parts) + ")"


def derivation_text(figure: str, derivation: Derivation, evidence: Sequence[Evidence], language: str = "en") -> str:
    return f"{figure} = {expression(derivation)} {provenance(derivation, evidence, language)}"


def misplaced_note(item: Misplaced, language: str = "en") -> str:
    """ "56.7 is Other, 2018, not Total, 2019"."""
    expected = item.expected or say("the_question", language)
    key = (
        "misplaced_computed"
        if item.computed
        else "misplaced_change"
        if item.as_change
        else "misplaced_count"
        if item.counted
        else "misplaced_measure"
        if item.measured
        else "misplaced_scale"
        if item.other_scale
        else "misplaced"
        if item.in_table
        else "misplaced_text"
    )
    return say(key, language, figure=item.figure, found=item.found, expected=expected)


def miscomputed_note(figure: str, expression: str, actual: str, language: str = "en") -> str:
    """ "19.8% does not follow from (16.6 / 93.8) × 100, which is 17.70%"."""
    return say("miscomputed", language, figure=figure, expression=expression, actual=actual)


def miscounted_note(figure: str, listed: int, language: str = "en") -> str:
    """ "4 is not the number of items listed (3)"."""
    return say("miscounted", language, figure=figure, actual=listed)


def repeated_note(figure: str, language: str = "en") -> str:
    """ "2018 is listed twice"."""
    return say("repeated", language, figure=figure)


def one_of_several_note(figure: str, language: str = "en") -> str:
    """ "$10.8 million is one figure, and the question asks for one for each thing it names"."""
    return say("one_of_several", language, figure=figure)


def extreme_note(figure: str, winner: Place, extreme: str, language: str = "en") -> str:
    """ "2018 is not the year Weighted average number of shares is largest: 2019 (74.3)"."""
    return say(
        f"extreme_{extreme}",
        language,
        figure=figure,
        label=winner.label or say("the_total", language),  # a row of figures without a label
        year=", ".join(sorted(winner.years)),
        value=number(winner),
    )


def unheaded_note(figure: str, headed: frozenset[str], language: str = "en") -> str:
    """ "2017 is not a year the table's header gives: 2018"."""
    return say("unheaded", language, figure=figure, years=say("and", language).join(sorted(headed, reverse=True)))


def stated_note(figure: str, stated: Place, language: str = "en") -> str:
    """ "4% is not the percentage the report states for Interest expense, Actual: 3%"."""
    return say("stated", language, figure=figure, where=stated.where(), value=stated.text)


def reversed_note(figure: str, numerator: Place, denominator: Place, language: str = "en") -> str:
    """ "12.01 divides Domestic–federal, Amount by Domestic–state, Amount: the question asks for … to …"."""
    return say("reversed_ratio", language, figure=figure, numerator=numerator.where(), denominator=denominator.where())


def range_note(figure: str, written: str, language: str = "en") -> str:
    """ "10 years is one end of what the report writes: 2 to 10 years"."""
    return say("range", language, figure=figure, written=written)


def misquoted_note(figure: str, written: str, language: str = "en") -> str:
    """ "2% is 1% in the sentence the answer quotes"."""
    return say("misquoted", language, figure=figure, written=written)


def uncompared_note(figure: str, language: str = "en") -> str:
    """ "2018 is not checked: no row of the evidence gives each year of what the question compares"."""
    return say("uncompared", language, figure=figure)


def unmet_note(figure: str, met: list[Place], condition: Condition | None, language: str = "en") -> str:
    """ "2018 is not a year AMT credit is below 10: 2019 (9.2)"."""
    if condition is None:
        return ""
    shown = say("and", language).join(f"{', '.join(sorted(p.years))} ({number(p)})" for p in met)
    shown = shown or say("none_met", language)
    label = met[0].label if met else "the row"
    threshold = f"{condition.threshold:,.10g}"
    return say(f"unmet_{condition.comparison}", language, figure=figure, label=label, threshold=threshold, met=shown)
