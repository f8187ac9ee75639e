"""The parts of a question that asks several things at once ("How many nights …, and
what is the cap per night?"), so an evidence answer can address each one."""

from __future__ import annotations

import re

from pydantic import BaseModel

MIN_PART_WORDS = 3
_ASKING = (
    r"(?:what|how|which|when|who|where|why|is|are|does|do|can|quel(?:le)?s?|combien|comment|quand|où|qui|"
    r"pourquoi|est-ce)"
)
_CUT = re.compile(rf"(?i)\?\s+|[,;]?\s+(?:and|et|also|puis)\s+(?={_ASKING}\b)|;\s+(?={_ASKING}\b)")
_PROPER = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-ZÀ-Ý][a-zà-ÿ'’-]{2,}\b")


class QuestionPart(BaseModel):
    text: str  # the part as the question words it
    asked: str  # the part with the question's names it leaves out: what the evidence is ranked for


def question_parts(question: str) -> list[QuestionPart]:
    """The question's parts, each with the places and names the question gives (the
    second part of "… to Lyon, and what is the cap per night?" is about Lyon too);
    one part when it asks one thing."""
    text = " ".join(question.split())
    parts = [p.strip(" ,;?") for p in _CUT.split(text)]
    parts = [p for p in parts if p]
    for i in range(len(parts) - 1, 0, -1):
        if parts[i].startswith("(") and parts[i].endswith(")"):  # "… in 2015? (net profit margin)": a gloss
            parts[i - 1 : i + 1] = [f"{parts[i - 1]} {parts[i]}"]
    if len(parts) < 2 or any(len(p.split()) < MIN_PART_WORDS for p in parts):
        return [QuestionPart(text=question.strip(), asked=question.strip())]
    names = list(dict.fromkeys(_PROPER.findall(text)))
    out = []
    for part in parts:
        missing = [n for n in names if n not in part]
        asked = f"{part} ({', '.join(missing)})?" if missing else f"{part}?"
        out.append(QuestionPart(text=f"{part[0].upper()}{part[1:]}?", asked=asked))
    return out
