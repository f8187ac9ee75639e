"""What a caller asks of one run: the theme, the answer style and the conversation's files.

The public constructor argument stays ``ragkwargs``, a dict (the seed's contract:
``ReActEngine(config, llmapikey, token, ragkwargs)``); the engine reads it once into
``RunOptions`` and uses only that. Keys it does not know are ignored, as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class RunOptions(BaseModel):
    model_config = ConfigDict(extra="ignore")

    theme: str | None = None  # the document collection the run searches
    language: str | None = None  # the answer's language; unset: the config's
    detail: str | None = None  # brief, normal or detailed; unset: the config's
    attachments: list[Path] = Field(default_factory=list)  # the conversation's own files
    attachments_index: Path | None = None  # their index, once built

    @classmethod
    def from_ragkwargs(cls, ragkwargs: dict[str, Any] | None) -> RunOptions:
        given = dict(ragkwargs or {})
        given["attachments"] = given.get("attachments") or []
        return cls.model_validate(given)

    def style(self) -> dict[str, str]:
        """The config fields these options set: the language and detail given."""
        return {k: v for k, v in (("language", self.language), ("detail", self.detail)) if v}
