"""The trust class of one answer, from the CLI's ``done`` object and the blocks before it.

*Flagged* means the product told the analyst not to take the answer as fact. Any of:

- ``status`` is not ``answered`` (an error, a suspended run: no answer is stated);
- ``grounding`` is ``unsupported``, ``partly`` or ``not_found``;
- ``unsupported`` or ``invented_sources`` is not empty;
- a caution: a non-empty ``cautions`` (or ``caution``) field of the done object, or a
  ``warning`` block after the answer began (other than the length-cut note), or one that
  speaks of the answer's support (``bench.qa.scoring.warning_flags_answer``);
- the answer says it did not find the answer (``bench.qa.scoring.says_not_found``).

The four classes, one per answer (``stated directly`` and ``in the answer`` are defined in
``bench/report_qa/scoring.py``):

- ``right``: the gold is stated directly, and the answer is not flagged;
- ``evidence_only``: not ``right``, but the gold stands in the answer: the right figure
  inside a longer quote or row, or stated directly but flagged (a false alarm, also
  counted apart as ``false_alarm``);
- ``wrong_flagged``: the gold is not in the answer, and the answer is flagged;
- ``confidently_wrong``: the gold is not in the answer, and nothing flags it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from bench.qa.scoring import says_not_found, warning_flags_answer
from bench.report_qa.dataset import Question
from bench.report_qa.scoring import em_f1, in_answer, prediction, scale_implicit, stated_directly

TrustClass = Literal["right", "evidence_only", "wrong_flagged", "confidently_wrong"]
TRUST_CLASSES: tuple[TrustClass, ...] = ("right", "evidence_only", "wrong_flagged", "confidently_wrong")
FLAGGING_GROUNDING = frozenset({"unsupported", "partly", "not_found"})


class Verdict(BaseModel):
    trust: TrustClass
    em: float
    f1: float
    direct: bool  # the gold is stated directly
    found: bool  # the gold stands somewhere in the answer
    flagged: bool
    flags: list[str]  # why it is flagged
    false_alarm: bool  # stated directly, yet flagged
    scale_implicit: bool  # stated directly by a figure without the scale word


def flags(done: dict[str, Any], blocks: list[dict[str, Any]]) -> list[str]:
    """Every reason the run gives the analyst not to take its answer as fact."""
    out = []
    if done.get("status") != "answered":
        out.append(f"status {done.get('status')}")
    if done.get("grounding") in FLAGGING_GROUNDING:
        out.append(f"grounding {done.get('grounding')}")
    for field in ("unsupported", "invented_sources"):
        if done.get(field):
            out.append(field)
    if done.get("cautions") or done.get("caution"):
        out.append("caution")
    if warning_flags_answer(blocks):
        out.append("warning block")
    if says_not_found(str(done.get("answer") or "")):
        out.append("says not found")
    return out


def classify(question: Question, done: dict[str, Any], blocks: list[dict[str, Any]] | None = None) -> Verdict:
    answer = str(done.get("answer") or "")
    reasons = flags(done, blocks or [])
    metric = em_f1(prediction(answer, question), question)
    direct = stated_directly(answer, question)
    found = direct or in_answer(answer, question)
    flagged = bool(reasons)
    if direct and not flagged:
        trust: TrustClass = "right"
    elif found:
        trust = "evidence_only"
    else:
        trust = "wrong_flagged" if flagged else "confidently_wrong"
    return Verdict(
        trust=trust,
        em=metric.em,
        f1=metric.f1,
        direct=direct,
        found=found,
        flagged=flagged,
        flags=reasons,
        false_alarm=direct and flagged,
        scale_implicit=scale_implicit(answer, question),
    )
