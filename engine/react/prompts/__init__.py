"""The engine's prompts: the templates (``*.txt``), styles and messages (``*.json``) in
this folder, and the functions that load and fill them."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path
from string import Template

from engine.wording import MessageError, Table, fill, load

PROMPT_DIR = Path(__file__).parent


@cache
def template(name: str) -> Template:
    return Template((PROMPT_DIR / f"{name}.txt").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def styles() -> dict:
    return json.loads((PROMPT_DIR / "styles.json").read_text(encoding="utf-8"))


class PromptError(MessageError):
    """A template names a variable the caller did not give."""


def render(name: str, **values: object) -> str:
    """Fill template ``name``; a missing variable fails loudly instead of shipping ``$name``."""
    try:
        return template(name).substitute({k: str(v) for k, v in values.items()}).strip()
    except KeyError as exc:
        raise PromptError(f"prompt template '{name}' needs the variable {exc.args[0]!r}") from None


def style_instructions(language: str, detail: str) -> str:
    data = styles()
    lang = data["language"].get(language) or f"Write the answer in the language with code '{language}'."
    return f"{lang} {data['detail'].get(detail, data['detail']['normal'])}"


def citation_rule() -> str:
    return styles()["citation_rule"]


def _messages() -> Table:
    return load(PROMPT_DIR / "messages.json")


def message(key: str, language: str = "en", /, **values: object) -> str:
    """An engine-written Thought, warning, caution or answer line (``messages.json``) in
    the run's language, through the engine's one message loader (``engine/wording.py``)."""
    try:
        return fill(_messages(), key, language, **values)
    except MessageError as exc:
        raise PromptError(*exc.args) from None


def is_placeholder(answer: str) -> bool:
    """Whether ``answer`` is the format's example ("the final answer for the user"), which a
    small model may copy from its instructions: no answer at all."""
    plain = " ".join(answer.lower().split()).strip(" .\"'")
    return plain in (message("answer_placeholder"), message("answer_placeholder", "fr"))
