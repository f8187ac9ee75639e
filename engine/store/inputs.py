"""Checks and normalisation of what callers hand the store: users, ids, titles, JSON payloads.

Everything is checked before it reaches SQL, so bad input costs one readable sentence
and never a half-written row.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from pydantic import BaseModel

from engine.store.errors import BadInput, TooLarge

TITLE_CHARS = 60  # a title made from the first question is cut at a word near this length
MAX_TITLE_CHARS = 200
MAX_USER_CHARS = 200
MAX_ID_CHARS = 64
MAX_THEME_CHARS = 100
MAX_SEARCH_CHARS = 200
MAX_TURN_BYTES = 8 * 1024 * 1024
MAX_COMMENT_CHARS = 2000
LOCAL_USER = "local"  # the one user of an app without authentication (and the CLI's default)
RATINGS = ("up", "down")

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"[^\W_]+")
_ID = re.compile(r"^[A-Za-z0-9_-]+$")
_COMMENT_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # all but tab and line feed


def one_line(text: str) -> str:
    """Control characters and runs of blanks become one space."""
    return _SPACES.sub(" ", _CONTROL.sub(" ", text)).strip()


def title_from_question(question: str, limit: int = TITLE_CHARS) -> str:
    """The first non-blank line of the question, cut at a word boundary near ``limit`` chars."""
    first = next((line for line in str(question).splitlines() if line.strip()), "")
    line = one_line(first)
    if len(line) <= limit:
        return line
    cut = line[:limit]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + "…"


def clean_title(title: str) -> str:
    if not isinstance(title, str):
        raise BadInput("A conversation title must be text.")
    title = one_line(title)
    if len(title) > MAX_TITLE_CHARS:
        raise BadInput(f"A conversation title can have at most {MAX_TITLE_CHARS} characters.")
    return title


def fold(text: str) -> str:
    """Lower case without accents, for searching titles ("resume" finds "Résumé")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def searchable_text(turn: dict) -> str:
    """What full-text search finds a turn by: the question, or the answer, folded (every branch's turns alike)."""
    text = turn.get("content") if turn.get("role") == "user" else turn.get("answer")
    return fold(one_line(text)) if isinstance(text, str) else ""  # one line: no NUL, which PostgreSQL refuses


def search_words(search: str, limit: int = 16) -> list[str]:
    """The words of a search, folded, letters and digits only: nothing of a query syntax survives."""
    return _WORD.findall(fold(one_line(search))[:MAX_SEARCH_CHARS])[:limit]


def like_pattern(search: str) -> str:
    """A LIKE pattern matching ``search`` anywhere, with ``%`` and ``_`` taken literally (escape ``\\``)."""
    text = fold(one_line(search))[:MAX_SEARCH_CHARS]
    text = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{text}%"


def check_user(user: str) -> str:
    if not isinstance(user, str) or not one_line(user):
        raise BadInput("A user name is needed to keep conversations.")
    if len(user) > MAX_USER_CHARS or _CONTROL.search(user):
        raise BadInput(f"A user name must be one line of at most {MAX_USER_CHARS} characters.")
    return user


def valid_id(value: object) -> bool:
    """Ids are short tokens of letters, digits, ``-`` and ``_``; anything else names nothing."""
    return isinstance(value, str) and 0 < len(value) <= MAX_ID_CHARS and bool(_ID.match(value))


def check_theme(theme: str | None) -> str | None:
    if theme is None:
        return None
    if not isinstance(theme, str) or len(theme) > MAX_THEME_CHARS or _CONTROL.search(theme):
        raise BadInput(f"A theme name must be one line of at most {MAX_THEME_CHARS} characters.")
    return theme


def as_json_dict(value: Any, what: str, max_bytes: int = MAX_TURN_BYTES) -> dict[str, Any]:
    """``value`` (a dict or a pydantic model) as a plain JSON dict, or ``BadInput`` saying why not."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadInput(f"The {what} to save must be a JSON object.")
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise BadInput(f"The {what} is nested too deeply to be saved.") from None
    except (TypeError, ValueError) as exc:
        raise BadInput(f"The {what} holds a value that is not plain JSON ({type(exc).__name__}).") from None
    if len(text.encode("utf-8")) > max_bytes:
        raise TooLarge(f"The {what} is too large to be saved (the limit is {max_bytes // (1024 * 1024)} MB).")
    return json.loads(text)


def check_turn(turn: Any) -> dict[str, Any]:
    """A turn as the store keeps it: a JSON dict with a valid ``id``, a ``role`` and a ``status``."""
    data = as_json_dict(turn, "turn")
    if not valid_id(data.get("id")):
        raise BadInput("A turn needs an id made of letters, digits, '-' or '_' (at most 64 characters).")
    if data.get("role") not in ("user", "assistant"):
        raise BadInput("A turn's role must be 'user' or 'assistant'.")
    if "feedback" in data:  # kept in its own table (set_feedback): a turn's save never changes it
        data["feedback"] = None
    status = data.setdefault("status", "answered")
    if not isinstance(status, str) or not status or len(status) > 20:
        raise BadInput("A turn's status must be a short word such as 'running' or 'answered'.")
    return data


def check_rating(rating: object) -> str | None:
    """``up``, ``down``, or None (no rating)."""
    if rating is None:
        return None
    if rating not in RATINGS:
        raise BadInput("A rating is 'up' or 'down'.")
    return str(rating)


def check_feedback(rating: object, comment: object) -> tuple[str | None, str]:
    """A rating (``up``, ``down``, or None to clear it) and its comment: at most ``MAX_COMMENT_CHARS``, no control
    characters but line breaks and tabs. A comment needs a rating."""
    rating = check_rating(rating)
    if not isinstance(comment, str):
        raise BadInput("A comment must be text.")
    comment = _COMMENT_CONTROL.sub(" ", comment).strip()
    if len(comment) > MAX_COMMENT_CHARS:
        raise BadInput(f"A comment can have at most {MAX_COMMENT_CHARS} characters; this one has {len(comment)}.")
    if rating is None and comment:
        raise BadInput("A comment needs a rating: thumbs up or thumbs down.")
    return rating, comment
