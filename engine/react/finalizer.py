"""Answer cleaning and the fallback answer: Thought text never reaches an Answer, and a
run never ends blank."""

from __future__ import annotations

import re

from engine.react.parser import MODEL_LABELS, parse_blocks
from engine.react.prompts import render
from engine.react.types import ANSWER_TYPES, ReActType

_FENCE_RE = re.compile(r"^\s*```[\w-]*\s*\n(.*?)\n?\s*```\s*$", re.DOTALL)
_TRAILING_DECORATION = re.compile(r"^[*_]+\s*|\s*[*_]+$")


def clean_answer(text: str) -> str:
    """The answer as the user should read it.

    Removes a code fence wrapping the whole answer, label decoration left over
    (``**``), and anything after a ReAct label that slipped into the text (a Thought,
    an Action): only answer-typed content survives.
    """
    text = text.strip()
    fenced = _FENCE_RE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    blocks = parse_blocks(text, accept=MODEL_LABELS)
    if any(b.type is not ReActType.UNKNOWN for b in blocks):
        kept = [b.content for b in blocks if b.type is ReActType.UNKNOWN and b is blocks[0] or b.type in ANSWER_TYPES]
        text = "\n\n".join(k for k in kept if k).strip()
        fenced = _FENCE_RE.match(text)
        if fenced:
            text = fenced.group(1).strip()
    if text.count("```") % 2 == 1:  # half of a fence that wrapped the whole turn
        text = re.sub(r"\n?\s*```\s*$", "", text)
        text = re.sub(r"^\s*```[\w-]*\s*\n", "", text)
    return _TRAILING_DECORATION.sub("", text).strip()


def fallback_answer(reason: str, findings: list[str]) -> str:
    """What the engine writes itself when the model gave no usable answer."""
    if findings:
        listed = "What I found so far:\n" + "\n".join(f"- {f}" for f in findings[-8:])
    else:
        listed = "I found nothing conclusive; please rephrase the question or add details."
    return render("fallback_answer", reason=reason.rstrip("."), findings=listed)
