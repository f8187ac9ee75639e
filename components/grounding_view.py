"""How a turn shows its grounding: footnote marks and flags in the answer, one
expander per footnote opening the quoted passage, and a note for what was not traced."""

from __future__ import annotations

from collections.abc import Callable

from components.footnotes import annotate, invented_note, mark, unsupported_note
from components.render import Widget, answer_markdown, safe_label
from engine.grounding import GroundingReport


def annotator(answer: str, report: GroundingReport | None, lang: str) -> Callable[[str], str] | None:
    """The function the tracer applies to the finished answer block (None: draw it as written)."""
    if report is None or not answer:
        return None

    def apply(content: str) -> str:
        if content.strip() != answer.strip():
            return content
        return answer_markdown(annotate(answer, report, lang))

    return apply


def grounding_widgets(report: GroundingReport | None, lang: str) -> list[Widget]:
    if report is None:
        return []
    widgets = []
    for citation in report.citations:
        where = safe_label(citation.source) + (f" · {safe_label(citation.location)}" if citation.location else "")
        widgets.append(
            Widget("expander", label=f"{mark(citation.n)} {where}", children=[Widget("code", text=citation.quote)])
        )
    for note in (unsupported_note(report, lang), invented_note(report, lang)):
        if note:
            widgets.append(Widget("warning", text=note))
    return widgets
