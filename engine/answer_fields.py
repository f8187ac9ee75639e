"""What describes an answer's grounding in the CLI's JSON: the citations, the unsupported
figures, the verdict, the cautions and the notes. One copy, shared by ``ask --format jsonl``
(its done object) and ``feedback`` (each rated answer)."""

from __future__ import annotations

from typing import Any

from engine.grounding import GroundingReport
from engine.react.run_state import Caution


def grounding_fields(report: GroundingReport | None) -> dict[str, Any]:
    """The citations, unsupported figures, invented sources and grounding verdict."""
    if report is None:
        return {"citations": [], "unsupported": [], "invented_sources": [], "grounding": "none"}
    return {
        "citations": [
            c.model_dump(include={"n", "source", "location", "quote", "derivation"}) for c in report.citations
        ],
        "unsupported": list(report.unsupported),
        "invented_sources": list(report.invented_sources),
        "grounding": report.grounding,
    }


def caution_fields(cautions: list[Caution]) -> dict[str, list[dict[str, Any]]]:
    """The cautions about the answer, and the notes (a replaced draft's reason, when a verified fact replaced it)."""
    return {
        "cautions": [c.model_dump(exclude={"draft_only"}) for c in cautions if c.about_answer],
        "notes": [c.model_dump(exclude={"draft_only"}) for c in cautions if not c.about_answer],
    }
