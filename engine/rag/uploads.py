"""Files uploaded from the browser, written into a theme's folder under safe names."""

from __future__ import annotations

import os
from pathlib import Path

from engine.rag.sources import key_problem, shown_name

MAX_NAME_CHARS = 200


def safe_upload_name(name: str) -> tuple[str | None, str | None]:
    """(the bare file name to write, None) or (None, one sentence saying why it is refused)."""
    bare = Path(name.replace("\\", "/")).name
    if bare in ("", ".", "..") or bare.startswith("."):
        return None, f"{shown_name(name)}: not a usable file name."
    if len(bare) > MAX_NAME_CHARS:
        return (
            None,
            f"{shown_name(bare)}: the file name is {len(bare)} characters long, over the {MAX_NAME_CHARS} limit.",
        )
    problem = key_problem(bare)
    return (None, problem) if problem else (bare, None)


def save_uploads(target: Path, files: list[tuple[str, bytes]]) -> tuple[list[Path], list[str]]:
    """Write each (name, content) into ``target`` atomically; the paths written and one line per refusal."""
    target.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    refused: list[str] = []
    for name, content in files:
        bare, problem = safe_upload_name(name)
        if bare is None:
            refused.append(problem or f"{shown_name(name)}: refused.")
            continue
        path = target / bare
        tmp = target / f".upload-{os.getpid()}-{bare}"
        try:
            tmp.write_bytes(content)
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            refused.append(f"{shown_name(bare)}: cannot be saved ({exc.strerror}).")
            continue
        written.append(path)
    return written, refused


def source_file(theme_folder: Path, key: str) -> Path | None:
    """The document file of ``key`` inside ``theme_folder``, or None when it would fall outside it."""
    base = theme_folder.resolve()
    path = (base / key).resolve()
    return path if path.is_relative_to(base) and path != base else None
