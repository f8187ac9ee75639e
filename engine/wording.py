"""The one loader of the engine's message files (a ``messages.json`` beside the code that
speaks, ``{"en": {key: text}, "fr": {key: text}}``): a language's text by key, English for
a language the file does not have. A key missing from a language the file has, or a
variable the caller did not give, fails loudly instead of shipping a wrong sentence."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

Table = Mapping[str, Mapping[str, str]]


class MessageError(KeyError):
    """A message names a variable the caller did not give, or its language lacks it."""


@cache
def load(path: Path) -> Table:
    """The file at ``path``, read once, read-only."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return MappingProxyType({language: MappingProxyType(texts) for language, texts in data.items()})


def texts(table: Table, language: str) -> Mapping[str, str]:
    """Every text of ``language``, English when the file has no such language."""
    return table.get(language, table["en"])


def fill(table: Table, key: str, language: str, /, **values: object) -> str:
    """The text ``key`` in ``language`` with ``values`` filled in."""
    words = texts(table, language)
    if key not in words:
        raise MessageError(f"message {key!r} has no {language if language in table else 'en'!r} text")
    try:
        return words[key].format(**values)
    except KeyError as exc:
        raise MessageError(f"message {key!r} needs the variable {exc.args[0]!r}") from None


def voice(path: Path) -> Callable[..., str]:
    """``say(key, language="en", /, **values)``: a text of the message file at ``path``, filled in."""

    def say(key: str, language: str = "en", /, **values: object) -> str:
        return fill(load(path), key, language, **values)

    return say
