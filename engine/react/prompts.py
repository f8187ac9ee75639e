"""Prompt templates live in ``prompts/`` as files; this module only loads and fills them."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path
from string import Template

PROMPT_DIR = Path(__file__).parent / "prompts"


@cache
def template(name: str) -> Template:
    return Template((PROMPT_DIR / f"{name}.txt").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def styles() -> dict:
    return json.loads((PROMPT_DIR / "styles.json").read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    return template(name).safe_substitute({k: str(v) for k, v in values.items()}).strip()


def style_instructions(language: str, detail: str) -> str:
    data = styles()
    lang = data["language"].get(language) or f"Write the answer in the language with code '{language}'."
    return f"{lang} {data['detail'].get(detail, data['detail']['normal'])}"


def citation_rule() -> str:
    return styles()["citation_rule"]
