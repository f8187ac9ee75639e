"""Theme names, validated in one place, and the index paths built from them.

A theme name is a label, never a path: letters, digits, ``-`` and ``_``, 2 to 40
characters. Every directory derived from a name is resolved and checked to stay
directly under its root, so no name can reach (or clean up) anything else.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.rag.messages import say

THEME_NAME = re.compile(r"[A-Za-z0-9_-]{2,40}")


class BadThemeName(ValueError):
    """A theme name that is not allowed; the message is one readable sentence."""


def _shown(name: object) -> str:
    text = str(name)
    text = text.encode("utf-8", "replace").decode("utf-8") if isinstance(name, str) else text
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return repr(text[:40] + ("…" if len(text) > 40 else ""))


def validate_theme(name: object) -> str:
    """``name`` when it is a valid theme name, else ``BadThemeName`` saying why."""
    if not isinstance(name, str) or not name:
        raise BadThemeName(say("theme_empty", rule=say("theme_rule")))
    if len(name) > 40:
        raise BadThemeName(say("theme_too_long", name=_shown(name), length=len(name), rule=say("theme_rule")))
    if not THEME_NAME.fullmatch(name):
        raise BadThemeName(say("theme_not_allowed", name=_shown(name), rule=say("theme_rule")))
    return name


def theme_path(root: Path, name: str) -> Path:
    """``root/name`` for a valid ``name``, resolved and checked to sit directly under ``root``."""
    validate_theme(name)
    base = root.resolve()
    path = (base / name).resolve()
    if path.parent != base:  # e.g. a symlink named like a theme pointing elsewhere
        raise BadThemeName(say("theme_outside", name=_shown(name), base=base.name, rule=say("theme_rule")))
    return path
