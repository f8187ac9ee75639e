"""How a turn shows its grounding: footnote marks and flags in the answer, one
expander per footnote opening the quoted passage, and a warning per caution about the answer."""

from __future__ import annotations

from collections.abc import Callable

from components.footnotes import annotate, escape, invented_note, mark, unsupported_note
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


def grounding_widgets(report: GroundingReport | None, lang: str, cautions: list[str] | None = None) -> list[Widget]:
    """One expander per footnote, then one warning per caution about the answer
    (``cautions`` None: the notes the report gives, for a turn stored before cautions)."""
    widgets = []
    for citation in report.citations if report is not None else []:
        where = safe_label(citation.source) + (f" · {safe_label(citation.location)}" if citation.location else "")
        widgets.append(
            Widget("expander", label=f"{mark(citation.n)} {where}", children=[Widget("code", text=citation.quote)])
        )
    if cautions is None:  # the notes are markdown already
        notes = (unsupported_note(report, lang), invented_note(report, lang)) if report is not None else ()
        return widgets + [Widget("warning", text=note) for note in notes if note]
    return widgets + [Widget("warning", text=escape(text)) for text in cautions]  # figures and names from the run
