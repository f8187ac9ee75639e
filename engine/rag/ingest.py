"""Ingest: files → sections → chunks → embeddings → the theme's index, incrementally.

A file whose content hash is unchanged costs nothing; a changed file replaces its
old chunks; a bad file (or file name) is skipped with one clear line and the rest
goes in. Everything goes through the manager's store (FAISS files or PostgreSQL),
written once at the end, all or nothing. Reading, chunking and embedding happen
before the theme's lock is taken, each file within ``ReadLimits`` and a chunk cap
(a file cut by a bound gets one line saying so), so the lock is held only to write.
One writer per theme at a time, across processes and servers: FAISS files hold a
lock file while the index is read and written; PostgreSQL takes the theme's lock in
the write's transaction. A concurrent ingest is never lost. An unreadable FAISS index never blocks a repair: the ingest
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

from engine.rag.chunking import MAX_CHUNKS_PER_FILE, Chunk, chunk_file
from engine.rag.cuts import Cut, FileCuts, ReadLimits
from engine.rag.embed_cache import SliceCache
from engine.rag.embeddings import Embedder, get_embedder
from engine.rag.index_store import ThemeView
from engine.rag.locking import IndexBusy
from engine.rag.manager import IndexManager
from engine.rag.messages import say
from engine.rag.readers import UnreadableFile, read_bytes, read_document
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
    cut: list[FileCuts] = Field(default_factory=list)  # files indexed in part, by the bound that applied
    chunks_added: int = 0
    rebuilt: str | None = None  # why the previous index was set aside, when it was unreadable
    resumed_slices: int = 0  # slices embedded by an earlier, interrupted run and read back

    def summary(self) -> str:
        return say(
            "ingest_summary", theme=self.theme, added=len(self.added), replaced=len(self.replaced),
            unchanged=len(self.unchanged), skipped=len(self.skipped), chunks=self.chunks_added,
        )  # fmt: skip


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
        report.rebuilt = say("ingest_rebuilt", reason=str(exc).split(". ")[0])
        return None, {}
    manifest = index.manifest
    require_embedder(manifest, embedder)
    return index, manifest.documents


def _slice_cache(theme: str, embedder: Embedder, manager: IndexManager) -> SliceCache | None:
    """A cache of embedded slices for an embedder that declares ``resumable`` (a server)."""
    if not getattr(embedder, "resumable", False):
        return None
    from engine.settings import current

    return SliceCache(manager.root or current().index_root, theme, embedder.name)


def _read(source: SourceFile) -> tuple[bytes, str]:
    if source.problem:
        raise UnreadableFile(source.problem)
    data = read_bytes(source.path, source.key)
    return data, hashlib.sha256(data).hexdigest()


class _Prepared(BaseModel):
    """One file read and chunked, before the lock: what the write needs."""

    source: str
    size: int
    sha256: str
    chunks: list[Chunk]
    cuts: list[Cut] = Field(default_factory=list)


def _prepare(source: SourceFile, limits: ReadLimits, max_chunks: int) -> _Prepared:
    data, digest = _read(source)
    reading = read_document(source.key, source.path.suffix.lower(), data, limits)
    chunked = chunk_file(source.key, reading.sections, max_chunks)
    cuts = reading.cuts + ([Cut(kind="chunks", values={"limit": max_chunks})] if chunked.capped else [])
    return _Prepared(source=source.key, size=len(data), sha256=digest, chunks=chunked.chunks, cuts=cuts)


def _known_documents(theme: str, embedder: Embedder, manager: IndexManager) -> dict[str, DocumentInfo]:
    """The documents the theme's index holds, read without the lock (only to skip unchanged
    files); an index of another embedding model is refused before anything is read."""
    try:
        manifest = manager.get(theme).manifest
    except IndexUnreachable:
        raise  # before reading or embedding anything
    except IndexProblem:
        return {}  # none yet, or unreadable: the lock's reading decides
    require_embedder(manifest, embedder)
    return dict(manifest.documents)


def ingest_paths(
    theme: str,
    paths: Iterable[Path],
    *,
    manager: IndexManager,
    progress: Progress | None = None,
    embedder: Embedder | None = None,
    base: Path | None = None,
    limits: ReadLimits | None = None,
    max_chunks: int = MAX_CHUNKS_PER_FILE,
) -> IngestReport:
    """Add or refresh the documents under ``paths`` in the index of ``theme`` kept by ``manager``.

    Keys are paths relative to ``base`` when given, else to each directory given (or
    a single file's parent). Raises ``BadThemeName``, ``IndexBusy`` or ``IndexProblem``."""
    validate_theme(theme)
    embedder = embedder or get_embedder()
    limits = limits or ReadLimits()
    report = IngestReport(theme=theme)
    sources = collect_sources(paths, base)
    total = len(sources)
    peeked = _known_documents(theme, embedder, manager)
    prepared: list[_Prepared] = []
    held: dict[str, SourceFile] = {}  # unchanged in the index read before the lock
    for done, source in enumerate(sources, start=1):
        if progress:
            progress(done - 1, total, f"reading {source.key}")
        try:
            known = peeked.get(source.key)
            if known is not None and not source.problem and _read(source)[1] == known.sha256:
                held[source.key] = source
                continue
            prepared.append(_prepare(source, limits, max_chunks))
        except UnreadableFile as exc:
            report.skipped.append(str(exc))
    cache = _slice_cache(theme, embedder, manager)
    vectors = _embed(prepared, embedder, progress, cache)
    with manager.store.writing(theme):
        index, known_documents = _open_index(theme, embedder, manager, report)
        stale = [
            s for k, s in held.items() if k not in known_documents or known_documents[k].sha256 != peeked[k].sha256
        ]
        if stale:  # changed or gone under another writer meanwhile (or the index was rebuilt): read again
            extra = []
            for source in stale:
                try:
                    extra.append(_prepare(source, limits, max_chunks))
                except UnreadableFile as exc:
                    report.skipped.append(str(exc))
            prepared, vectors = prepared + extra, np.concatenate([vectors, _embed(extra, embedder, None, cache)])
        report.unchanged += [k for k in held if k not in {s.key for s in stale}]
        _write(theme, index, known_documents, prepared, vectors, embedder, manager, report)
    if cache is not None:
        report.resumed_slices = cache.reused
        cache.clear()  # written: nothing left to resume
    if progress:
        progress(total, total, "done")
    return report


def _write(
    theme: str,
    index: ThemeView | None,
    known_documents: dict[str, DocumentInfo],
    prepared: list[_Prepared],
    vectors: np.ndarray,
    embedder: Embedder,
    manager: IndexManager,
    report: IngestReport,
) -> None:
    """Under the lock: a file unchanged in the index as it now is stays; the rest is written at once."""
    keep, rows, start = [], [], 0
    for p in prepared:
        known = known_documents.get(p.source)
        if known is not None and known.sha256 == p.sha256:
            report.unchanged.append(p.source)  # another writer put this very content in meanwhile
        else:
            keep.append(p)
            rows.extend(range(start, start + len(p.chunks)))
            (report.replaced if known is not None else report.added).append(p.source)
            if p.cuts:
                report.cut.append(FileCuts(source=p.source, cuts=p.cuts))
        start += len(p.chunks)
    chunks = [c for p in keep for c in p.chunks]
    report.chunks_added = len(chunks)
    if not keep and not report.rebuilt:
        return
    now = datetime.now(UTC).isoformat(timespec="seconds")
    updated = manager.store.write(
        theme,
        index,
        embedding_model=embedder.name,
        dim=embedder.dim,
        remove={p.source for p in keep},
        chunks=chunks,
        vectors=vectors[rows] if len(rows) < len(vectors) else vectors,
        documents=[
            DocumentInfo(source=p.source, size=p.size, sha256=p.sha256, chunks=len(p.chunks), ingested_at=now)
            for p in keep
        ],
    )
    manager.put(updated)


EMBED_SLICE = 256  # chunks per progress step: a large theme shows its embedding advance


def _embed(
    prepared: list[_Prepared], embedder: Embedder, progress: Progress | None, cache: SliceCache | None = None
) -> np.ndarray:
    """Vectors of the files' chunks, in slices so the progress bar moves (embedding is most of an ingest);
    with a ``cache``, each slice is kept on disk as it is embedded and read back on a later run."""
    texts = [c.text for p in prepared for c in p.chunks]
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    if cache is None and (not progress or len(texts) <= EMBED_SLICE):
        if progress:
            progress(0, max(len(texts), 1), f"embedding {len(texts)} chunks")
        return embedder.encode(texts)
    parts = []
    for start in range(0, len(texts), EMBED_SLICE):
        if progress:
            progress(
                start,
                len(texts),
                say("ingest_progress", first=start + 1, last=min(start + EMBED_SLICE, len(texts)), total=len(texts)),
            )
        part = texts[start : start + EMBED_SLICE]
        vectors = cache.get(part) if cache is not None else None
        if vectors is None:
            vectors = embedder.encode(part)
            if cache is not None:
                cache.put(part, vectors)
        parts.append(vectors)
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
        print(say("line_error", detail=exc), file=sys.stderr)
        return 2
    missing = [shown_name(str(p)) for p in paths if not p.exists()]
    if missing:
        print(say("line_error", detail=say("ingest_missing", names=", ".join(missing[:5]))), file=sys.stderr)
        return 2
    try:
        report = ingest_paths(theme, paths, manager=manager, progress=_text_progress if sys.stderr.isatty() else None)
    except IndexUnreachable as exc:
        print(say("line_error", detail=exc), file=sys.stderr)
        return 3
    except (IndexProblem, IndexBusy, BadThemeName) as exc:
        print(say("line_error", detail=exc), file=sys.stderr)
        return 2
    except OSError as exc:
        unwritable = say("ingest_unwritable", theme=theme, reason=exc.strerror)
        print(say("line_error", detail=unwritable), file=sys.stderr)
        return 2
    if report.rebuilt:
        print(say("line_note", detail=report.rebuilt))
    for line in report.skipped:
        print(say("line_skipped", detail=line))
    for cut in report.cut:
        print(say("line_note", detail=cut.text()))
    print(report.summary())
    return 0
