"""Scoring one answer of the QA benchmark from the CLI's jsonl output.

Verdicts: ``right`` (the expected fact is in the answer; for a not_found question,
the answer says the documents do not hold it), ``flagged`` (wrong, but the product
said so: unsupported figures, a grounding status short of verified, a warning about
the answer, a "not found" answer, or a run that did not answer), and
``confidently_wrong`` (answered, fact missing, nothing flags it).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any, Literal

from bench.qa.qa_set import QAQuestion

Verdict = Literal["right", "flagged", "confidently_wrong"]
VERDICTS: tuple[Verdict, ...] = ("right", "flagged", "confidently_wrong")
ANSWER_TYPES = frozenset({"answer", "final_answer", "response", "conclusion"})
FLAGGING_GROUNDING = frozenset({"unsupported", "partly", "not_found"})

_NOT_FOUND = (
    # English
    "not found", "could not find", "couldn't find", "cannot find", "can't find", "did not find", "didn't find",
    "unable to find", "no information", "not in the documents", "not in the provided", "not mentioned",
    "does not mention", "do not mention", "doesn't mention", "don't mention", "no mention", "not specified",
    "does not specify", "do not specify", "don't know", "do not know", "no passage", "not provided",
    "does not contain", "do not contain", "doesn't contain", "don't contain", "not stated", "does not state",
    "no data",
    # French (accents folded)
    "pas trouve", "introuvable", "aucune information", "aucune donnee", "ne figure pas", "ne figurent pas",
    "pas mentionne", "ne mentionne pas", "ne mentionnent pas", "je ne sais pas", "pas dans les documents",
    "aucun passage", "ne contient pas", "ne contiennent pas", "ne precise pas", "ne precisent pas",
    "aucune mention", "n'indique pas", "n'indiquent pas", "pas d'information", "ne trouve pas",
)  # fmt: skip
_NOT_ABOUT_TRUST = ("cut at the length limit",)  # engine warnings that say nothing about the answer's support
_SUPPORT_WORDS = (
    "unsupported", "not supported", "no source", "not verified", "could not be verified", "cannot be verified",
    "evidence", "non verifie", "sans source", "non etaye",
)  # fmt: skip


def normalise(text: str) -> str:
    """Casefolded, accents and markdown emphasis removed, one space, thousands separators dropped
    (``1,250`` / ``1 250`` → ``1250``; decimals like ``2,70`` stay), ``35 %`` → ``35%``."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = re.sub(r"\s+", " ", text.casefold().replace("**", "").replace("__", ""))
    text = re.sub(r"(?<=\d)[ ,'](?=\d{3}(?!\d))", "", text)
    return re.sub(r"(?<=\d) (?=%)", "", text)


def contains_fact(answer: str, expected: list[str]) -> bool:
    """Whether one spelling of the fact stands in the answer as a whole token (``27`` is not in ``127`` or ``2.27``)."""
    text = normalise(answer)
    for alternative in expected:
        needle = re.escape(normalise(alternative).strip())
        if needle and re.search(rf"(?<!\w)(?<!\d[.,]){needle}(?!\w)(?![.,]\d)", text):
            return True
    return False


def says_not_found(answer: str) -> bool:
    text = normalise(answer)
    return any(phrase in text for phrase in _NOT_FOUND)


def warning_flags_answer(blocks: list[dict[str, Any]]) -> bool:
    """A warning block shown after the answer began (except a length cut), or one that speaks of the answer's
    support. An empty answer block (the model wrote "Answer:" and nothing, and is asked again) begins nothing."""
    answered = False
    for block in blocks:
        kind = block.get("type")
        if kind in ANSWER_TYPES and str(block.get("content") or "").strip():
            answered = True
        elif kind == "warning":
            content = normalise(str(block.get("content", "")))
            if any(word in content for word in _SUPPORT_WORDS):
                return True
            if answered and not any(phrase in content for phrase in _NOT_ABOUT_TRUST):
                return True
    return False


def is_flagged(done: dict[str, Any], blocks: list[dict[str, Any]]) -> bool:
    return (
        done.get("status") != "answered"
        or bool(done.get("unsupported"))
        or done.get("grounding") in FLAGGING_GROUNDING
        or warning_flags_answer(blocks)
        or says_not_found(done.get("answer") or "")
    )


def verdict(question: QAQuestion, done: dict[str, Any], blocks: list[dict[str, Any]] | None = None) -> Verdict:
    """Classify one run. ``done`` is the CLI's last jsonl object; ``grounding``, ``unsupported``
    and ``citations`` may be absent (older engines)."""
    blocks = blocks or []
    answer = done.get("answer") or ""
    if question.kind == "not_found":
        right = done.get("grounding") == "not_found" or says_not_found(answer)
    else:
        right = contains_fact(answer, question.expected)
    if right:
        return "right"
    return "flagged" if is_flagged(done, blocks) else "confidently_wrong"


def summarise(rows: list[tuple[QAQuestion, Verdict]]) -> dict[str, int]:
    """The four counts: right, flagged, confidently_wrong over all questions, and not_found_right."""
    counts = Counter(v for _, v in rows)
    out = {v: counts.get(v, 0) for v in VERDICTS}
    out["total"] = len(rows)
    out["not_found_total"] = sum(1 for q, _ in rows if q.kind == "not_found")
    out["not_found_right"] = sum(1 for q, v in rows if q.kind == "not_found" and v == "right")
    return out
