"""The app's own labels, in English and French (files in components/locales/)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.llm.pricing import Cost

LOCALES = Path(__file__).parent / "locales"
LANGUAGES = {"en": "English", "fr": "Français"}
_GROUPING = {"en": (",", "."), "fr": ("\u202f", ",")}  # thousands separator, decimal mark


class LocaleError(KeyError):
    """A label names a variable the caller did not give."""


@cache
def _table(lang: str) -> dict[str, str]:
    path = LOCALES / f"{lang}.json"
    if not path.exists():
        path = LOCALES / "en.json"
    return json.loads(path.read_text(encoding="utf-8"))


def t(key: str, lang: str = "en", **values: object) -> str:
    """The label ``key`` in ``lang`` (English when it has none); a missing variable fails loudly."""
    text = _table(lang).get(key) or _table("en").get(key, key)
    try:
        return text.format(**values)
    except KeyError as exc:
        raise LocaleError(f"label {key!r} needs the variable {exc.args[0]!r}") from None


def has(key: str, lang: str = "en") -> bool:
    """Whether ``key`` has a label (a toolkit or state the locale files may not name)."""
    return key in _table(lang) or key in _table("en")


def plural(word: str, n: int, lang: str = "en") -> str:
    """``n`` and the word in the right form: keys ``<word>_one`` and ``<word>_many`` ("{n} steps")."""
    return t(f"{word}_{'one' if n == 1 else 'many'}", lang, n=number(n, lang))


def money(cost: Cost, lang: str = "en") -> str:
    """A cost with its currency: 0.0042 USD (four decimals under one, so a cheap turn is not 0.00)."""
    return t("money", lang, amount=number(cost.amount, lang, 4 if cost.amount < 1 else 2), currency=cost.currency)


def number(value: float, lang: str = "en", digits: int = 0) -> str:
    """``value`` written as ``lang`` writes it: 1,921.5 in English, 1 921,5 in French."""
    thousands, decimal = _GROUPING.get(lang, _GROUPING["en"])
    text = f"{value:,.{digits}f}"
    return text.replace(",", "\0").replace(".", decimal).replace("\0", thousands)
