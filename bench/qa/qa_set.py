"""The QA set file (``questions.json``) as pydantic models, validated on load."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, TypeAdapter, model_validator

QA_DIR = Path(__file__).resolve().parent
DOCS_DIR = QA_DIR / "docs"
QUESTIONS_FILE = QA_DIR / "questions.json"

Kind = Literal["doc", "csv", "calc", "cross_language", "not_found"]
KINDS: tuple[str, ...] = ("doc", "csv", "calc", "cross_language", "not_found")
SOURCELESS = ("calc", "not_found")


class QAQuestion(BaseModel):
    id: str = Field(pattern=r"^[a-z0-9_]+$", max_length=60)
    question: str = Field(min_length=5, max_length=500)
    language: Literal["en", "fr"]
    kind: Kind
    expected: list[str] = Field(default_factory=list, description="alternative spellings of the key fact")
    source: str | None = Field(default=None, description="file under docs/ holding the answer")

    @model_validator(mode="after")
    def _consistent(self) -> QAQuestion:
        if self.kind == "not_found":
            if self.expected:
                raise ValueError(f"{self.id}: a not_found question has no expected fact")
        elif not self.expected or not all(e.strip() for e in self.expected):
            raise ValueError(f"{self.id}: expected must list at least one non-empty spelling of the fact")
        if (self.source is None) != (self.kind in SOURCELESS):
            raise ValueError(f"{self.id}: source must be null exactly for calc and not_found questions")
        if self.source is not None and Path(self.source).name != self.source:
            raise ValueError(f"{self.id}: source must be a file name under docs/, not a path")
        return self


_QUESTIONS = TypeAdapter(list[QAQuestion])


def load_questions(path: Path = QUESTIONS_FILE) -> list[QAQuestion]:
    """The validated questions; ids must be unique."""
    questions = _QUESTIONS.validate_json(path.read_bytes())
    seen: set[str] = set()
    for q in questions:
        if q.id in seen:
            raise ValueError(f"duplicate question id {q.id}")
        seen.add(q.id)
    return questions


def select(questions: list[QAQuestion], ids: str | None = None, limit: int | None = None) -> list[QAQuestion]:
    """The questions named in ``ids`` (comma-separated), then at most ``limit`` of them."""
    if limit is not None and limit < 1:
        raise ValueError(f"the limit must be at least 1, not {limit}")
    if ids:
        wanted = [i.strip() for i in ids.split(",") if i.strip()]
        unknown = sorted(set(wanted) - {q.id for q in questions})
        if unknown:
            raise ValueError(f"unknown question id(s): {', '.join(unknown)}")
        questions = [q for q in questions if q.id in wanted]
    return questions[:limit] if limit is not None else questions
