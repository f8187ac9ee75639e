"""How a turn shows its grounding: footnote marks and flags in the answer, each mark a
link to its footnote line below, which shows the quoted passage, and a warning per
caution about the answer."""

from __future__ import annotations

from collections.abc import Callable

from components.footnotes import anchor_id, annotate, escape, footnote_lines, invented_note, unsupported_note
from components.render import Widget, answer_markdown
from engine.grounding import GroundingReport
from engine.react.run_state import Caution


def annotator(
    answer: str, report: GroundingReport | None, lang: str, anchor: str | None = None
) -> Callable[[str], str] | None:
    """The function the tracer applies to the finished answer block (None: draw it as written)."""
    if report is None or not answer:
        return None

    def apply(content: str) -> str:
        if content.strip() != answer.strip():
            return content
        return answer_markdown(annotate(answer, report, lang, anchor))

    return apply


def grounding_widgets(
    report: GroundingReport | None, lang: str, cautions: list[Caution] | None = None, anchor: str | None = None
) -> list[Widget]:
    """One line per footnote (its anchor first, which the answer's mark links to), then one
    warning per caution about the answer, then (muted) why a draft was set aside.

    What the report says (figures or sources not traced) is worded in the page's language
    from the report; the engine's other cautions as the run wrote them. ``cautions`` None:
    a turn stored before cautions, shown with the report's notes."""
    widgets = []
    if report is not None:
        for citation, line in zip(report.citations, footnote_lines(report, lang), strict=True):
            if anchor is not None:
                widgets.append(Widget("anchor", key=anchor_id(anchor, citation.n)))
            widgets.append(Widget("footnote", text=line))
    notes = {"unsupported": unsupported_note, "invented": invented_note}
    if cautions is None:
        texts = [note(report, lang) for note in notes.values()] if report is not None else []
        about_draft: list[str] = []
    else:  # the notes are markdown already; the run's own texts hold figures and names: escaped
        texts = [
            notes[c.kind](report, lang) if c.kind in notes and report else escape(c.text)
            for c in cautions
            if c.about_answer
        ]
        about_draft = [escape(c.text) for c in cautions if not c.about_answer]
    return (
        widgets
        + [Widget("warning", text=text) for text in texts if text]
        + [Widget("caption", text=text) for text in about_draft]  # why a draft was set aside: a note, muted
    )
