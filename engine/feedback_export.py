"""``python -m engine feedback``: a user's rated answers, each ready to become a QA case.

One object per rated answer: the question and the language it was asked in (the QA
set's ``question`` and ``language``), the answer, the rating and its comment, the
grounding the turn stored (verdict, unsupported figures, cautions, notes), the
citations and the sources they name (a QA case's ``source``), and where it comes from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, TextIO

from pydantic import ValidationError

from engine.answer_fields import caution_fields, grounding_fields
from engine.grounding import GroundingReport
from engine.react.run_state import Caution
from engine.store.models import RatedTurn

_NOT_ID = re.compile(r"[^a-z0-9_]+")


def _report(data: Any) -> GroundingReport | None:
    try:
        return GroundingReport.model_validate(data) if data else None
    except ValidationError:  # a turn stored by an older version: its verdict is unknown, not invented
        return None


def _cautions(data: Any) -> list[Caution]:
    out = []
    for item in data if isinstance(data, list) else []:
        try:
            out.append(Caution.model_validate(item))
        except ValidationError:
            continue
    return out


def qa_case(rated: RatedTurn) -> dict[str, Any]:
    """One rated answer as a QA case candidate (plain JSON)."""
    turn, feedback = rated.turn, rated.feedback
    grounding = grounding_fields(_report(turn.get("grounding")))
    citations = grounding.pop("citations")
    language = rated.settings.get("language")
    return {
        "id": _NOT_ID.sub("_", f"feedback_{rated.conversation_id[:16]}_{turn.get('id', '')}".lower())[:60],
        "question": rated.question,
        "language": language if isinstance(language, str) else "en",
        "theme": rated.theme,
        "rating": feedback.rating,
        "comment": feedback.comment,
        "rated_at": feedback.updated_at.isoformat() if feedback.updated_at else None,
        "answer": turn.get("answer", ""),
        "status": turn.get("status"),
        "error": turn.get("error"),
        "grounding": {
            "verdict": grounding.pop("grounding"),
            **grounding,
            **caution_fields(_cautions(turn.get("cautions"))),
        },
        "citations": citations,
        "sources": sorted({c["source"] for c in citations if c.get("source")}),
        "conversation_id": rated.conversation_id,
        "conversation_title": rated.title,
        "turn_id": turn.get("id"),
    }


def write_cases(cases: Iterable[dict[str, Any]], fmt: str, out: TextIO) -> None:
    """``jsonl``: one object per line (nothing at all for no case); ``json``: one list."""
    if fmt == "jsonl":
        for case in cases:
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    else:
        out.write(json.dumps(list(cases), ensure_ascii=False, indent=2) + "\n")
