"""Which files an ingest reads, and the key each document is stored under.

A document's key is its path relative to the ingest root: the directory given, the
file's parent for a single file, or an explicit ``base`` (the theme's folder for the
Index browser). So ``a/notes.md`` and ``b/notes.md`` never collide. A name that
cannot be a key (not UTF-8, control characters, too long) is refused with one line.
Lengths are counted in UTF-8 bytes, as the file system counts them (``NAME_MAX`` is
255 bytes, so 128 "é" already overflow it), never in characters.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from engine.rag.readers import SUPPORTED

MAX_KEY_CHARS = 240  # how much of a refused key is shown
MAX_KEY_BYTES = 480  # a key: a path relative to the theme's folder
MAX_NAME_BYTES = 200  # one file name: NAME_MAX (255) less room for a temporary prefix or suffix


def name_length_problem(name: str, limit: int = MAX_NAME_BYTES) -> str | None:
    """Why ``name`` is too long to be a path (in UTF-8 bytes, each part within ``limit``), or None."""
    size = len(name.encode("utf-8", "surrogateescape"))
    parts = [len(part.encode("utf-8", "surrogateescape")) for part in name.split("/")]
    if max(parts, default=0) <= limit and size <= max(limit, MAX_KEY_BYTES):
        return None
    chars = f" ({len(name)} characters)" if len(name) != size else ""
    return (
        f"{shown_name(name)}: the file name is {size} bytes long{chars}, over the {limit}-byte limit; rename the file."
    )


@dataclass(frozen=True)
class SourceFile:
    path: Path
    key: str  # printable even when refused
    problem: str | None = None  # one readable sentence when the file cannot be a document


def shown_name(text: str, limit: int = 80) -> str:
    """A printable rendering of any file name (undecodable bytes and control characters replaced)."""
    raw = os.fsencode(text) if isinstance(text, str) else bytes(text)
    name = raw.decode("utf-8", "replace")
    name = "".join(ch if ch.isprintable() else "?" for ch in name)
    return name if len(name) <= limit else name[: limit - 1] + "…"


def key_problem(key: str) -> str | None:
    """Why ``key`` cannot name a document, or None."""
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:
        return f"{shown_name(key)}: the file name is not valid UTF-8; rename the file."
    if any(not ch.isprintable() for ch in key.replace("/", "")):
        return f"{shown_name(key)}: the file name contains control characters; rename the file."
    return name_length_problem(key, limit=255)


def _source(path: Path, root: Path) -> SourceFile:
    try:
        key = path.relative_to(root).as_posix()
    except ValueError:
        key = path.name
    problem = key_problem(key)
    return SourceFile(path, shown_name(key, MAX_KEY_CHARS) if problem else key, problem)


def _walk(directory: Path) -> list[Path]:
    """Supported files under ``directory``; symbolic links to directories are not followed."""
    found: list[Path] = []
    for parent, dirs, names in os.walk(directory, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(Path(parent) / n for n in sorted(names) if Path(n).suffix.lower() in SUPPORTED)
    return found


def collect_sources(paths: Iterable[Path], base: Path | None = None) -> list[SourceFile]:
    """Every file to ingest with its key, in a stable order, without duplicates."""
    out: dict[str, SourceFile] = {}
    for path in paths:
        path = Path(path)
        if path.is_dir():
            root = base or path
            files = _walk(path)
        else:
            root = base or path.parent
            files = [path]
        for file in files:
            source = _source(file, root)
            out.setdefault(source.key if source.problem is None else f"\0{file}", source)
    return list(out.values())


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    """The files an ingest of ``paths`` would read."""
    return [s.path for s in collect_sources(paths)]
