"""The bounds of reading one file, and the one line that says where a file was cut.

A file is read within ``ReadLimits`` (text per page and per file, content per PDF
page, seconds per file); whatever bound applied is recorded as a ``Cut``, and the
ingest reports all the cuts of a file in one line, in English or French (``cuts.json``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from engine.wording import fill, load

MAX_PAGE_CHARS = 100_000  # a dense page holds ~6,000
MAX_FILE_CHARS = 4_000_000  # ~1,300 dense pages
MAX_PAGE_CONTENT_BYTES = 2_000_000  # a PDF page's decoded drawing instructions; text extraction is ~2 s per MB
MAX_FILE_SECONDS = 30.0
NOTES = Path(__file__).with_name("cuts.json")  # the line and its clauses, in English and French

CutKind = Literal["page_chars", "file_chars", "page_content", "repeated", "seconds", "chunks"]


@dataclass(frozen=True)
class ReadLimits:
    page_chars: int = MAX_PAGE_CHARS
    file_chars: int = MAX_FILE_CHARS
    page_content_bytes: int = MAX_PAGE_CONTENT_BYTES
    seconds: float = MAX_FILE_SECONDS
    clock: Callable[[], float] = field(default=time.monotonic)


class Cut(BaseModel):
    """One bound that applied to a file, with the figures its sentence names."""

    kind: CutKind
    values: dict[str, int | str] = Field(default_factory=dict)


class FileCuts(BaseModel):
    """The cuts of one file: it was indexed in part."""

    source: str
    cuts: list[Cut]

    def text(self, language: str = "en", key: str = "line") -> str:
        """The one line of this file; ``key="nothing"`` when the bounds left no text at all."""
        table = load(NOTES)
        clauses = [
            fill(table, c.kind, language, **{k: _number(v, language) for k, v in c.values.items()}) for c in self.cuts
        ]
        return fill(table, key, language, name=self.source, cuts="; ".join(clauses))


def _number(value: int | str, language: str) -> str:
    if isinstance(value, str):
        return value
    text = f"{value:,}"
    return text.replace(",", "\u202f") if language == "fr" else text
