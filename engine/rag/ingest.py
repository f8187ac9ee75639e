"""Ingest: files → sections → chunks → embeddings → the theme's index, incrementally.

A file whose content hash is unchanged costs nothing; a changed file replaces its
old chunks; a bad file (or file name) is skipped with one clear line and the rest
goes in. One writer per theme at a time, across processes (``locking``): the index
is read under the lock, so a concurrent ingest is never lost, and written
atomically once at the end. An unreadable index never blocks a repair: the ingest
starts again from the documents it is given.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field

from engine.rag.chunking import Chunk, chunk_sections
from engine.rag.embeddings import Embedder, get_embedder
from engine.rag.locking import IndexBusy, theme_write_lock
from engine.rag.manager import IndexManager
from engine.rag.readers import UnreadableFile, read_bytes, sections_from_bytes
from engine.rag.sources import SourceFile, collect_sources, expand_paths
from engine.rag.store import DocumentInfo, IndexProblem, ThemeIndex, index_root, remove_index, require_embedder
from engine.rag.themes import BadThemeName, validate_theme

__all__ = ["IngestReport", "delete_document", "expand_paths", "ingest_cli", "ingest_paths", "remove_theme_index"]

Progress = Callable[[int, int, str], None]


class IngestReport(BaseModel):
    theme: str
    added: list[str] = Field(default_factory=list)
    replaced: list[str] = Field(default_factory=list)
    unchanged: list[str] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)  # one readable sentence each
    chunks_added: int = 0
    rebuilt: str | None = None  # why the previous index was set aside, when it was unreadable

    def summary(self) -> str:
        return (
            f"theme {self.theme}: {len(self.added)} added, {len(self.replaced)} replaced, "
            f"{len(self.unchanged)} unchanged, {len(self.skipped)} skipped, {self.chunks_added} chunks embedded"
        )


def _root(manager: IndexManager) -> Path:
    return manager.root or index_root()


def _open_index(theme: str, embedder: Embedder, manager: IndexManager, report: IngestReport) -> ThemeIndex:
    try:
        index = manager.get(theme)
    except IndexProblem as exc:
        if "no index yet" not in str(exc):
            report.rebuilt = (
                f"the previous index could not be read ({str(exc).split('. ')[0]}); it was rebuilt from these documents"
            )
        return ThemeIndex.empty(theme, embedder.name, embedder.dim)
    require_embedder(index.manifest, embedder)
    return index


def _read(source: SourceFile) -> tuple[bytes, str]:
    if source.problem:
        raise UnreadableFile(source.problem)
    data = read_bytes(source.path, source.key)
    return data, hashlib.sha256(data).hexdigest()


def ingest_paths(
    theme: str,
    paths: Iterable[Path],
    *,
    progress: Progress | None = None,
    manager: IndexManager | None = None,
    embedder: Embedder | None = None,
    base: Path | None = None,
) -> IngestReport:
    """Add or refresh the documents under ``paths`` in the index of ``theme``.

    Keys are paths relative to ``base`` when given, else to each directory given (or
    a single file's parent). Raises ``BadThemeName``, ``IndexBusy`` or ``IndexProblem``."""
    validate_theme(theme)
    manager = manager or IndexManager()
    embedder = embedder or get_embedder()
    report = IngestReport(theme=theme)
    sources = collect_sources(paths, base)
    total = len(sources)
    with theme_write_lock(theme, _root(manager)):
        index = _open_index(theme, embedder, manager, report)
        new_chunks: list[Chunk] = []
        documents: list[DocumentInfo] = []
        replace: set[str] = set()
        for done, source in enumerate(sources, start=1):
            name = source.key
            if progress:
                progress(done - 1, total, f"reading {name}")
            try:
                data, digest = _read(source)
                known = index.manifest.documents.get(name)
                if known is not None and known.sha256 == digest:
                    report.unchanged.append(name)
                    continue
                chunks = chunk_sections(name, sections_from_bytes(name, source.path.suffix.lower(), data))
            except UnreadableFile as exc:
                report.skipped.append(str(exc))
                continue
            (report.replaced if known is not None else report.added).append(name)
            replace.add(name)
            new_chunks.extend(chunks)
            now = datetime.now(UTC).isoformat(timespec="seconds")
            documents.append(
                DocumentInfo(source=name, size=len(data), sha256=digest, chunks=len(chunks), ingested_at=now)
            )
        if progress:
            progress(total, total, f"embedding {len(new_chunks)} chunks")
        if replace or report.rebuilt:
            vectors = embedder.encode([c.text for c in new_chunks])
            updated = index.replaced(replace, new_chunks, vectors, documents)
            updated.save(manager.root)
            manager.put(updated)
        report.chunks_added = len(new_chunks)
    if progress:
        progress(total, total, "done")
    return report


def delete_document(theme: str, source: str, manager: IndexManager | None = None) -> bool:
    manager = manager or IndexManager()
    with theme_write_lock(theme, _root(manager)):
        index = manager.get(theme)
        if source not in index.manifest.documents:
            return False
        updated = index.replaced({source}, [], index.vectors[:0], [])
        updated.save(manager.root)
        manager.put(updated)
        return True


def remove_theme_index(theme: str, manager: IndexManager | None = None) -> bool:
    """Delete the theme's whole index (its documents stay); False when it had none."""
    manager = manager or IndexManager()
    with theme_write_lock(theme, _root(manager)):
        removed = remove_index(theme, manager.root)
        manager.invalidate(theme)
        return removed


def _text_progress(done: int, total: int, message: str) -> None:
    width = 24
    filled = width * done // total if total else width
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {message[:50]:<50}")
    if message == "done":
        sys.stderr.write("\n")
    sys.stderr.flush()


def ingest_cli(theme: str, paths: list[Path]) -> int:
    """The ``ingest`` command: one line per skipped file, a summary; exit 2 with one line on bad input."""
    from engine.rag.sources import shown_name

    try:
        validate_theme(theme)
    except BadThemeName as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    missing = [shown_name(str(p)) for p in paths if not p.exists()]
    if missing:
        print(f"error: no such file or directory: {', '.join(missing[:5])}", file=sys.stderr)
        return 2
    try:
        report = ingest_paths(theme, paths, progress=_text_progress if sys.stderr.isatty() else None)
    except (IndexProblem, IndexBusy, BadThemeName) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: the index of theme {theme} cannot be written ({exc.strerror}).", file=sys.stderr)
        return 2
    if report.rebuilt:
        print(f"note: {report.rebuilt}")
    for line in report.skipped:
        print(f"skipped: {line}")
    print(report.summary())
    return 0
