"""The app's own labels, in English and French (files in components/locales/)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LOCALES = Path(__file__).parent / "locales"
LANGUAGES = {"en": "English", "fr": "Français"}


@cache
def _table(lang: str) -> dict[str, str]:
    path = LOCALES / f"{lang}.json"
    if not path.exists():
        path = LOCALES / "en.json"
    return json.loads(path.read_text(encoding="utf-8"))


def t(key: str, lang: str = "en", **values: object) -> str:
    text = _table(lang).get(key) or _table("en").get(key, key)
    return text.format(**values) if values else text


def plural(word: str, n: int, lang: str = "en") -> str:
    """``n`` and the word in the right form: keys ``<word>_one`` and ``<word>_many`` ("{n} steps")."""
    return t(f"{word}_{'one' if n == 1 else 'many'}", lang, n=n)
