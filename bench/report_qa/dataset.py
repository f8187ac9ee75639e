"""The TAT-QA test gold (``/work/shared/datasets/report-qa/``) as pydantic models, split and ordered.

The split is fixed by position: contexts whose index in the JSON list is even are the
tuning part, odd ones are held out (never tuned on). ``all`` takes both, for a file that is
unseen as a whole (another split of the benchmark, cut into slices with ``skip_contexts``). The order is the file's, contexts by
index and questions by their ``order`` field: no seed, the same run every time.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, TypeAdapter

DATASET_FILE = Path("/work/shared/datasets/report-qa/tatqa_test_gold.json")

AnswerType = Literal["span", "multi-span", "arithmetic", "count"]
AnswerFrom = Literal["table", "text", "table-text"]
Scale = Literal["", "thousand", "million", "billion", "percent"]
Part = Literal["tune", "heldout"]
Selection = Literal["tune", "heldout", "all"]
SELECTIONS: tuple[Selection, ...] = ("tune", "heldout", "all")
ANSWER_TYPES: tuple[AnswerType, ...] = ("span", "multi-span", "arithmetic", "count")
ANSWER_FROMS: tuple[AnswerFrom, ...] = ("table", "text", "table-text")


class Paragraph(BaseModel):
    order: int
    text: str


class Table(BaseModel):
    table: list[list[str]]


class Question(BaseModel):
    uid: str
    order: int
    question: str
    answer: str | float | int | list[str]
    derivation: str = ""
    answer_type: AnswerType
    answer_from: AnswerFrom
    scale: Scale = ""

    @property
    def spans(self) -> list[str]:
        """The gold answer as a list of strings (one for span, arithmetic and count)."""
        if isinstance(self.answer, list):
            return [str(a) for a in self.answer]
        return [str(self.answer)]


class Context(BaseModel):
    table: Table
    paragraphs: list[Paragraph]
    questions: list[Question]
    index: int = Field(-1, description="position in the JSON list; set on load")

    @property
    def part(self) -> Part:
        return "tune" if self.index % 2 == 0 else "heldout"


_CONTEXTS = TypeAdapter(list[Context])


def load_contexts(path: Path = DATASET_FILE) -> list[Context]:
    """Every context, validated, with its index in the list."""
    contexts = _CONTEXTS.validate_json(path.read_bytes())
    return [c.model_copy(update={"index": i}) for i, c in enumerate(contexts)]


def select(
    contexts: list[Context],
    part: Selection,
    limit_contexts: int | None = None,
    limit_questions: int | None = None,
    skip_contexts: int = 0,
    matching: str | None = None,
) -> list[Context]:
    """The contexts of ``part`` in index order after the first ``skip_contexts``, at most
    ``limit_contexts`` of them, holding at most ``limit_questions`` questions in all (in their
    ``order``); contexts left with none are dropped. ``matching`` (a regular expression,
    the tuning part only) keeps the questions it finds, to try one kind of question."""
    for name, limit in (("--limit-contexts", limit_contexts), ("--limit-questions", limit_questions)):
        if limit is not None and limit < 1:
            raise ValueError(f"{name} must be at least 1, not {limit}")
    if skip_contexts < 0:
        raise ValueError(f"--skip-contexts must be at least 0, not {skip_contexts}")
    if matching is not None and part != "tune":
        raise ValueError("--questions-matching reads the questions: it is for the tuning part only")
    pattern = re.compile(matching, re.I) if matching is not None else None
    of_part = [c for c in contexts if part in ("all", c.part)][skip_contexts:]
    chosen = of_part[:limit_contexts]
    out: list[Context] = []
    left = limit_questions
    for context in chosen:
        questions = sorted(context.questions, key=lambda q: q.order)
        if pattern is not None:
            questions = [q for q in questions if pattern.search(q.question)]
        if left is not None:
            questions, left = questions[:left], left - min(left, len(questions))
        if questions:
            out.append(context.model_copy(update={"questions": questions}))
        if left == 0:
            break
    return out
