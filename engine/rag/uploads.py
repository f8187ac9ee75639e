"""Files uploaded from the browser, written into a theme's folder under safe names.

A name is limited in bytes (``MAX_NAME_BYTES``), and the temporary file a write goes
through is named by the process and a random suffix, never by the upload's name, so no
name can overflow ``NAME_MAX`` on the way; a failed write is one line and the rest
of the drop goes on.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path

from engine.rag.sources import MAX_NAME_BYTES, key_problem, name_length_problem, shown_name


def safe_upload_name(name: str) -> tuple[str | None, str | None]:
    """(the bare file name to write, None) or (None, one sentence saying why it is refused)."""
    bare = Path(name.replace("\\", "/")).name
    if bare in ("", ".", "..") or bare.startswith("."):
        return None, f"{shown_name(name)}: not a usable file name."
    problem = name_length_problem(bare, MAX_NAME_BYTES) or key_problem(bare)
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
        tmp = target / f".upload-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        try:
            tmp.write_bytes(content)
            os.replace(tmp, path)
        except OSError as exc:
            with contextlib.suppress(OSError):  # cleaning up must not lose the rest of the drop
                tmp.unlink(missing_ok=True)
            refused.append(f"{shown_name(bare)}: cannot be saved ({exc.strerror or type(exc).__name__}).")
            continue
        written.append(path)
    return written, refused


def source_file(theme_folder: Path, key: str) -> Path | None:
    """The document file of ``key`` inside ``theme_folder``, or None when it would fall outside it."""
    base = theme_folder.resolve()
    path = (base / key).resolve()
    return path if path.is_relative_to(base) and path != base else None
