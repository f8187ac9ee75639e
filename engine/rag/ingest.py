"""Ingest: files → sections → chunks → embeddings → the theme's index, incrementally.

A file whose content hash is unchanged costs nothing; a changed file replaces its
old chunks; a bad file is skipped with one clear line and the rest goes in. The
index is written atomically once at the end.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field

from engine.rag.chunking import Chunk, chunk_sections
from engine.rag.embeddings import Embedder, get_embedder
from engine.rag.manager import IndexManager, default_manager
from engine.rag.readers import SUPPORTED, UnreadableFile, read_sections
from engine.rag.store import DocumentInfo, IndexProblem, ThemeIndex, theme_dir

Progress = Callable[[int, int, str], None]
_WRITE_LOCKS: dict[str, threading.Lock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()


class IngestReport(BaseModel):
    theme: str
    added: list[str] = Field(default_factory=list)
    replaced: list[str] = Field(default_factory=list)
    unchanged: list[str] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)  # one readable sentence each
    chunks_added: int = 0

    def summary(self) -> str:
        return (
            f"theme {self.theme}: {len(self.added)} added, {len(self.replaced)} replaced, "
            f"{len(self.unchanged)} unchanged, {len(self.skipped)} skipped, {self.chunks_added} chunks embedded"
        )


def _write_lock(theme: str) -> threading.Lock:
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(theme, threading.Lock())


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUPPORTED))
        else:
            files.append(path)
    return files


def _open_index(theme: str, embedder: Embedder, manager: IndexManager) -> ThemeIndex:
    try:
        index = manager.get(theme)
    except IndexProblem:
        if theme_dir(theme, manager.root).joinpath("CURRENT").exists():
            raise
        return ThemeIndex.empty(theme, embedder.name, embedder.dim)
    if index.manifest.dim != embedder.dim or index.manifest.embedding_model != embedder.name:
        raise IndexProblem(
            f"Theme '{theme}' was indexed with {index.manifest.embedding_model}, not {embedder.name}; "
            f"delete data/indexes/{theme} and re-ingest theme {theme}."
        )
    return index


def ingest_paths(
    theme: str,
    paths: Iterable[Path],
    *,
    progress: Progress | None = None,
    manager: IndexManager | None = None,
    embedder: Embedder | None = None,
) -> IngestReport:
    manager = manager or default_manager()
    embedder = embedder or get_embedder()
    report = IngestReport(theme=theme)
    files = expand_paths(paths)
    total = len(files)
    with _write_lock(theme):
        index = _open_index(theme, embedder, manager)
        new_chunks: list[Chunk] = []
        documents: list[DocumentInfo] = []
        replace: set[str] = set()
        for done, path in enumerate(files, start=1):
            name = path.name
            if progress:
                progress(done - 1, total, f"reading {name}")
            try:
                digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
            except OSError as exc:
                report.skipped.append(f"{name}: cannot be read ({exc.strerror}).")
                continue
            if not path.is_file():
                report.skipped.append(f"{name}: no such file.")
                continue
            known = index.manifest.documents.get(name)
            if known is not None and known.sha256 == digest:
                report.unchanged.append(name)
                continue
            try:
                chunks = chunk_sections(name, read_sections(path))
            except UnreadableFile as exc:
                report.skipped.append(str(exc))
                continue
            (report.replaced if known is not None else report.added).append(name)
            replace.add(name)
            new_chunks.extend(chunks)
            documents.append(
                DocumentInfo(
                    source=name,
                    size=path.stat().st_size,
                    sha256=digest,
                    chunks=len(chunks),
                    ingested_at=datetime.now(UTC).isoformat(timespec="seconds"),
                )
            )
        if progress:
            progress(total, total, f"embedding {len(new_chunks)} chunks")
        if replace:
            vectors = embedder.encode([c.text for c in new_chunks])
            updated = index.replaced(replace, new_chunks, vectors, documents)
            updated.save(manager.root)
            manager.put(updated)
        report.chunks_added = len(new_chunks)
    if progress:
        progress(total, total, "done")
    return report


def delete_document(theme: str, source: str, manager: IndexManager | None = None) -> bool:
    manager = manager or default_manager()
    with _write_lock(theme):
        index = manager.get(theme)
        if source not in index.manifest.documents:
            return False
        updated = index.replaced({source}, [], index.vectors[:0], [])
        updated.save(manager.root)
        manager.put(updated)
        return True


def _text_progress(done: int, total: int, message: str) -> None:
    width = 24
    filled = width * done // total if total else width
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {message[:50]:<50}")
    if message == "done":
        sys.stderr.write("\n")
    sys.stderr.flush()


def ingest_cli(theme: str, paths: list[Path]) -> int:
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        print(f"error: no such file or directory: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        report = ingest_paths(theme, paths, progress=_text_progress if sys.stderr.isatty() else None)
    except IndexProblem as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for line in report.skipped:
        print(f"skipped: {line}")
    print(report.summary())
    return 0
