"""Names for tables and columns: safe SQL table names from file names, clean column
labels from CSV headers, identifier quoting, and forgiving name matching for models
that spell a name loosely."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from typing import Literal

from engine.errors import ToolError
from engine.tools.tables.messages import say

MAX_NAME = 48
MAX_COLUMN = 64
HEADER_JOIN = " · "  # the lines of a header over several rows, in a column name: a pipe would read as a table column
_SIMPLE = re.compile(r"[a-z_][a-z0-9_]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def quote_ident(name: str) -> str:
    """A DuckDB identifier in double quotes, inner quotes doubled."""
    return '"' + name.replace('"', '""') + '"'


def display_ident(name: str) -> str:
    """How a model should write the name in SQL: bare when simple, else quoted."""
    return name if _SIMPLE.fullmatch(name) else quote_ident(name)


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def table_name(stem: str, taken: Iterable[str], reserved: frozenset[str] = frozenset()) -> str:
    """A lowercase ``[a-z_][a-z0-9_]*`` name from a file stem, unique among ``taken``
    (compared case-insensitively) and never a reserved SQL keyword."""
    base = re.sub(r"[^a-z0-9]+", "_", _ascii(stem).lower()).strip("_")[:MAX_NAME].strip("_") or "table"
    if base[0].isdigit():
        base = "t_" + base
    if base in reserved:
        base += "_table"
    used = {t.lower() for t in taken}
    name, n = base, 2
    while name in used:
        name = f"{base}_{n}"
        n += 1
    return name


def column_labels(names: list[str]) -> list[str]:
    """Header names without control characters, bounded in length, unique case-insensitively
    (DuckDB identifiers ignore case)."""
    out: list[str] = []
    used: set[str] = set()
    for i, raw in enumerate(names):
        label = _bounded(" ".join(_CONTROL.sub(" ", raw).split())) or f"column_{i + 1}"
        candidate, n = label, 2
        while candidate.lower() in used:
            candidate = f"{label}_{n}"
            n += 1
        used.add(candidate.lower())
        out.append(candidate)
    return out


def _bounded(label: str) -> str:
    """``label`` cut to MAX_COLUMN characters. A name joined from several header lines keeps
    its lowest line whole ("… (in thousand NT dollars) · 2019"), cutting the lines above it:
    the lowest line is the one that tells a group's columns apart."""
    if len(label) <= MAX_COLUMN:
        return label
    head, join, last = label.rpartition(HEADER_JOIN)
    room = MAX_COLUMN - len(join) - len(last)
    if join and room >= 8:
        return f"{head[:room].rstrip()}{join}{last}"
    return label[:MAX_COLUMN].strip()


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", _ascii(text).lower())


def match_name(given: str, choices: list[str], what: Literal["column", "table"], where: str = "") -> tuple[str, str]:
    """The choice ``given`` means, and a note when it was not an exact match.

    Exact, then case/punctuation-insensitive, then the one name that starts with or
    contains it, then the closest spelling; otherwise a
    ToolError listing the real names."""
    if given in choices:
        return given, ""
    key = _key(given.strip().removesuffix(".csv").removesuffix(".CSV"))
    by_key = {_key(c): c for c in choices}
    if key and key in by_key:
        found = by_key[key]
        return found, "" if found.lower() == given.strip().lower() else say(f"read_as_{what}", given=given, found=found)
    partial = [c for k, c in by_key.items() if key and len(key) >= 3 and (k.startswith(key) or key in k)]
    close = difflib.get_close_matches(key, list(by_key), n=1, cutoff=0.75) if key else []
    if len(partial) == 1 or close:
        found = partial[0] if len(partial) == 1 else by_key[close[0]]
        return found, say(f"read_as_{what}", given=given, found=found)
    listed = ", ".join(choices[:40]) + (say("name_more", n=len(choices) - 40) if len(choices) > 40 else "")
    place = say("name_in", where=where) if where else ""
    raise ToolError(say(f"no_{what}", given=given[:80], place=place, listed=listed))


DOCUMENT_KINDS = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".pdf": "pdf"}


def document_table_name(
    stem: str, suffix: str, position: int, taken: Iterable[str], reserved: frozenset[str] = frozenset()
) -> str:
    """``<document>_<kind>_t<position>`` ("annual_report_md_t1"): the document's stem made safe and
    shortened so that the kind and position always survive, unique among ``taken``."""
    tail = f"_{DOCUMENT_KINDS.get(suffix.lower(), 'doc')}_t{int(position)}"
    base = table_name(stem, (), reserved)[: MAX_NAME - len(tail)].rstrip("_") or "table"
    return table_name(base + tail, taken, reserved)
