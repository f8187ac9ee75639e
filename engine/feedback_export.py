"""``python -m engine feedback``: a user's rated answers, each ready to become a QA case.

One object per rated answer: the question and the language it was asked in (the QA
set's ``question`` and ``language``), the answer, the rating and its comment, the
grounding the turn stored (verdict, unsupported figures, cautions, notes), the
citations and the sources they name (a QA case's ``source``), the tools the run called,
and where it comes from. The answer, its grounding and the tools are read from the
turn's record (``engine.react.record``; a turn stored before it has one is read back
from its raw stream).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, TextIO

from pydantic import ValidationError

from engine.answer_fields import caution_fields, grounding_fields
from engine.react.record import read_record
from engine.react.run_state import Caution
from engine.store.models import RatedTurn

_NOT_ID = re.compile(r"[^a-z0-9_]+")


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
    record = read_record(turn)  # an unreadable grounding is unknown, not invented
    grounding = grounding_fields(record.grounding)
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
        "answer": record.answer,
        "status": turn.get("status"),
        "error": turn.get("error"),
        "grounding": {
            "verdict": grounding.pop("grounding"),
            **grounding,
            **caution_fields(_cautions(turn.get("cautions"))),
        },
        "citations": citations,
        "sources": sorted({c["source"] for c in citations if c.get("source")}),
        "tools": list(dict.fromkeys(call.name for step in record.steps for call in step.calls if call.name)),
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
