"""Ingest: files → sections → chunks → embeddings → the theme's index, incrementally.

A file whose content hash is unchanged costs nothing; a changed file replaces its
old chunks; a bad file (or file name) is skipped with one clear line and the rest
goes in. Everything goes through the manager's store (FAISS files or PostgreSQL),
written once at the end, all or nothing. One writer per theme at a time, across
processes and servers: FAISS files hold a lock file while the index is read and
written; PostgreSQL takes the theme's lock in the write's transaction. A concurrent
ingest is never lost. An unreadable FAISS index never blocks a repair: the ingest
starts again from the documents it is given.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from engine.rag.chunking import Chunk, chunk_sections
from engine.rag.embeddings import Embedder, get_embedder
from engine.rag.index_store import ThemeView
from engine.rag.locking import IndexBusy
from engine.rag.manager import IndexManager
from engine.rag.readers import UnreadableFile, read_bytes, sections_from_bytes
from engine.rag.sources import SourceFile, collect_sources, expand_paths
from engine.rag.store import DocumentInfo, IndexProblem, IndexUnreachable, require_embedder
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


def _open_index(
    theme: str, embedder: Embedder, manager: IndexManager, report: IngestReport
) -> tuple[ThemeView | None, dict[str, DocumentInfo]]:
    """The theme's index (None when there is none yet, or when an unreadable one is rebuilt)
    and the documents it holds, read once."""
    try:
        index = manager.get(theme)
    except IndexProblem as exc:
        if "no index yet" in str(exc):
            return None, {}
        if not manager.store.rebuilds_unreadable:
            raise
        report.rebuilt = (
            f"the previous index could not be read ({str(exc).split('. ')[0]}); it was rebuilt from these documents"
        )
        return None, {}
    manifest = index.manifest
    require_embedder(manifest, embedder)
    return index, manifest.documents


def _read(source: SourceFile) -> tuple[bytes, str]:
    if source.problem:
        raise UnreadableFile(source.problem)
    data = read_bytes(source.path, source.key)
    return data, hashlib.sha256(data).hexdigest()


def ingest_paths(
    theme: str,
    paths: Iterable[Path],
    *,
    manager: IndexManager,
    progress: Progress | None = None,
    embedder: Embedder | None = None,
    base: Path | None = None,
) -> IngestReport:
    """Add or refresh the documents under ``paths`` in the index of ``theme`` kept by ``manager``.

    Keys are paths relative to ``base`` when given, else to each directory given (or
    a single file's parent). Raises ``BadThemeName``, ``IndexBusy`` or ``IndexProblem``."""
    validate_theme(theme)
    embedder = embedder or get_embedder()
    report = IngestReport(theme=theme)
    sources = collect_sources(paths, base)
    total = len(sources)
    with manager.store.writing(theme):
        index, known_documents = _open_index(theme, embedder, manager, report)
        new_chunks: list[Chunk] = []
        documents: list[DocumentInfo] = []
        replace: set[str] = set()
        for done, source in enumerate(sources, start=1):
            name = source.key
            if progress:
                progress(done - 1, total, f"reading {name}")
            try:
                data, digest = _read(source)
                known = known_documents.get(name)
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
        if replace or report.rebuilt:
            vectors = _embed([c.text for c in new_chunks], embedder, progress)
            updated = manager.store.write(
                theme,
                index,
                embedding_model=embedder.name,
                dim=embedder.dim,
                remove=replace,
                chunks=new_chunks,
                vectors=vectors,
                documents=documents,
            )
            manager.put(updated)
        report.chunks_added = len(new_chunks)
    if progress:
        progress(total, total, "done")
    return report


EMBED_SLICE = 256  # chunks per progress step: a large theme shows its embedding advance


def _embed(texts: list[str], embedder: Embedder, progress: Progress | None) -> np.ndarray:
    """Vectors of ``texts``, in slices so the progress bar moves (embedding is most of an ingest)."""
    if not progress or len(texts) <= EMBED_SLICE:
        if progress:
            progress(0, max(len(texts), 1), f"embedding {len(texts)} chunks")
        return embedder.encode(texts)
    parts = []
    for start in range(0, len(texts), EMBED_SLICE):
        progress(
            start, len(texts), f"embedding chunks {start + 1}-{min(start + EMBED_SLICE, len(texts))} of {len(texts)}"
        )
        parts.append(embedder.encode(texts[start : start + EMBED_SLICE]))
    return np.concatenate(parts)


def delete_document(theme: str, source: str, manager: IndexManager) -> bool:
    """Remove one document's chunks from the theme's index; False when it holds no such document."""
    with manager.store.writing(theme):
        index = manager.get(theme)
        manifest = index.manifest
        if source not in manifest.documents:
            return False
        updated = manager.store.write(
            theme,
            index,
            embedding_model=manifest.embedding_model,
            dim=manifest.dim,
            remove={source},
            chunks=[],
            vectors=np.zeros((0, manifest.dim), dtype=np.float32),
            documents=[],
        )
        manager.put(updated)
        return True


def remove_theme_index(theme: str, manager: IndexManager) -> bool:
    """Delete the theme's whole index (its documents stay); False when it had none."""
    with manager.store.writing(theme):
        removed = manager.store.drop(theme)
        manager.invalidate(theme)
        return removed


def _text_progress(done: int, total: int, message: str) -> None:
    width = 24
    filled = width * done // total if total else width
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {message[:50]:<50}")
    if message == "done":
        sys.stderr.write("\n")
    sys.stderr.flush()


def ingest_cli(theme: str, paths: list[Path], manager: IndexManager) -> int:
    """The ``ingest`` command: one line per skipped file, a summary; exit 2 with one line on bad
    input, 3 when the vector store cannot be reached."""
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
        report = ingest_paths(theme, paths, manager=manager, progress=_text_progress if sys.stderr.isatty() else None)
    except IndexUnreachable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
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
