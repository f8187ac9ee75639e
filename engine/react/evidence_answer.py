"""The answer the engine writes from the evidence itself, when a small model repeats a
call it already made instead of answering: each part of the question answered from its
best passage, or the part not found said plainly."""

from __future__ import annotations

from engine.grounding import check_answer
from engine.grounding.evidence_index import EvidenceIndex
from engine.grounding.facts import stated_fact
from engine.grounding.figures import extract_figures
from engine.grounding.question_parts import question_parts
from engine.grounding.quotes import asks_for_figure, best_quotes
from engine.react.fact_answer import fact_answer
from engine.react.prompts import message
from engine.react.run_state import Caution
from engine.react.step import Note, Step
from engine.react.stream import StreamWriter
from engine.react.types import ReActType
from engine.react.verify import QUOTES_BY_DETAIL, Embed, Review, _cautions, evidence_of, review


def evidence_review(
    question: str,
    steps: list[Step],
    *,
    language: str,
    embed: Embed | None,
    detail: str = "normal",
    index: EvidenceIndex | None = None,
) -> Review:
    """The evidence answer for ``question``, checked like any answer (no Draft: the
    model wrote none)."""
    parts = question_parts(question)
    if len(parts) == 1:
        single = review("", question, steps, small=True, language=language, embed=embed, detail=detail, index=index)
        if single.answer.strip():
            kept = [c for c in single.cautions if c.kind != "replaced"]
            return single.model_copy(update={"draft_reason": None, "cautions": kept})
    return _by_part(question, parts, steps, language=language, embed=embed, detail=detail, index=index)


def _by_part(question, parts, steps, *, language, embed, detail, index) -> Review:
    evidence = index.evidence if index is not None else evidence_of(steps)
    lines: list[str] = []
    ignore: list[str] = []
    extra: list[Caution] = []
    quoted = False
    for part in parts:
        ignore += [f.text for f in extract_figures(part.text)]
        quotes = best_quotes(part.asked, evidence, embed, language=language, limit=QUOTES_BY_DETAIL.get(detail, 1))
        fact = stated_fact(part.asked, quotes[0]) if quotes else None
        if fact is None or (asks_for_figure(part.asked) and not fact.candidates):
            not_found = message("evidence_part_not_found", language)
            lines.append(f"{part.text} {not_found}" if len(parts) > 1 else not_found)
            extra.append(Caution(kind="not_found", text=message("evidence_part_caution", language, part=part.text)))
            continue
        quoted = True
        stated = fact_answer(part.asked, quotes, language, detail)
        lines.append(f"{part.text} {stated.text}" if len(parts) > 1 else stated.text)
        ignore += stated.ignore
        if stated.fact.several:
            extra.append(Caution(kind="several", text=message("review_several", language)))
        elif not stated.sure:
            extra.append(Caution(kind="unsure", text=message("review_unsure", language)))
    text = "\n\n".join(lines)
    report = check_answer(text, question, evidence, ignore=ignore, language=language)
    report = report.model_copy(update={"grounding": "quoted" if quoted else "not_found"})
    checked = Review(report=report, answer=text)
    cautions = [c for c in _cautions(checked, language) if c.kind != "not_found"]
    unsure = " ".join(c.text for c in extra if c.kind in ("several", "unsure")) or None
    return checked.model_copy(update={"cautions": cautions + extra, "unsure": unsure})


def parts_review(
    question: str, steps: list[Step], *, language: str, embed: Embed | None, detail: str, index: EvidenceIndex | None
) -> Review:
    """A small model's answer to a question of several parts set aside: each part answered
    from its best evidence, the model's answer kept visible as the Draft."""
    checked = evidence_review(question, steps, language=language, embed=embed, detail=detail, index=index)
    reason = message("evidence_parts", language)
    cautions = [Caution(kind="replaced", text=reason), *checked.cautions]
    return checked.model_copy(update={"draft_reason": reason, "cautions": cautions})


def repeated_answer(
    question: str, steps: list[Step], writer: StreamWriter, *, language: str, embed: Embed | None, detail: str,
    index: EvidenceIndex | None,
) -> tuple[Review, str]:  # fmt: skip
    """A small model calling again what it already has: the answer from the evidence, with
    the note that says why, as the stream writes it."""
    note = writer.note(Note(kind="thought", text=message("evidence_repeated", language)))
    checked = evidence_review(question, steps, language=language, embed=embed, detail=detail, index=index)
    first, _, rest = checked.answer.partition("\n")
    out = note + writer.block(ReActType.ANSWER, first, end=False)
    out += writer.untrusted("\n" + rest) if rest else ""
    return checked, out + (writer.block(ReActType.WARNING, checked.unsure) if checked.unsure else "")
