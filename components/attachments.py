"""Files dropped into the chat: saved under safe names and ingested with a progress
bar, into the theme or into this conversation only. A CSV, and every table inside a
dropped Markdown, HTML or PDF document, becomes a table for the table tools at once (a
conversation's own tables come first for its questions); every refused file gets its
own line; nothing else is lost."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import streamlit as st

from components.i18n import t
from components.inert import inert
from components.state import Conversation, Preferences

FILE_TYPES = ["csv", "pdf", "md", "markdown", "txt", "html", "htm"]
ATTACHMENTS_THEME = "attachments"  # the index name inside a conversation's own folder


def _folder_of(context: Any, conversation_id: str) -> Path | None:
    """``data/attachments/<id>``, beside the indexes; None for anything that is not an id (never a path)."""
    from engine.store.inputs import valid_id

    return context.settings.index_root.parent / "attachments" / conversation_id if valid_id(conversation_id) else None


def attachments_dir(context: Any, conversation: Conversation) -> Path | None:
    """Where this conversation's own files live, beside the indexes under ``data/`` (None before it is stored)."""
    return _folder_of(context, conversation.id) if conversation.id else None


def attached_files(context: Any, conversation_id: str) -> int:
    """How many files the analyst dropped into this conversation."""
    folder = _folder_of(context, conversation_id)
    files = folder / "files" if folder is not None else None
    return sum(1 for p in files.iterdir() if p.is_file()) if files is not None and files.is_dir() else 0


def remove_attachments(context: Any, conversation_id: str) -> None:
    """Delete a deleted conversation's files and their index (its whole folder)."""
    folder = _folder_of(context, conversation_id)
    if folder is not None and folder.is_dir():
        shutil.rmtree(folder)


def ragkwargs_for(settings: Preferences, folder: Path | None) -> dict[str, Any]:
    """What a run gets: the theme, the answer style, and this conversation's files."""
    out: dict[str, Any] = {"theme": settings.theme, "language": settings.language, "detail": settings.detail}
    if folder is not None and folder.is_dir():
        out["attachments"] = [folder / "files"]
        if (folder / "index").is_dir():
            out["attachments_index"] = folder / "index"
    return out


def document_tables(context: Any, paths: list[Path], lang: str) -> list[str]:
    """ "report.md (table 1)" for each table found inside the dropped documents."""
    from engine.tools.tables.doc_tables import DOCUMENT_SUFFIXES

    documents = [p for p in paths if p.suffix.lower() in DOCUMENT_SUFFIXES]
    if not documents:
        return []
    catalog = context.table_catalog(documents)
    return [t("files_document_table", lang, source=i.source, location=i.location) for i in catalog.tables.values()]


def ingest_dropped(files: list[Any], settings: Preferences, folder: Path | None, context: Any, lang: str) -> None:
    """Save and ingest ``files`` (Streamlit UploadedFile objects) where the analyst chose."""
    from engine.rag.ingest import ingest_paths
    from engine.rag.locking import IndexBusy
    from engine.rag.store import IndexProblem
    from engine.rag.themes import BadThemeName
    from engine.rag.uploads import save_uploads

    to_theme = settings.files_to == "theme" and settings.theme
    if not to_theme and folder is None:
        st.error(t("files_no_conversation", lang))
        return
    target = context.settings.themes_root / settings.theme if to_theme else folder / "files"
    paths, refused = save_uploads(target, [(f.name, f.getvalue()) for f in files])
    cut: list[str] = []
    documents = [p for p in paths if p.suffix.lower() != ".csv"]
    bar = st.progress(0.0, text=t("files_ingesting", lang))
    try:
        if documents:
            theme = settings.theme if to_theme else ATTACHMENTS_THEME
            manager = context.indexes if to_theme else context.indexes_at(folder / "index")
            report = ingest_paths(
                theme,
                documents,
                base=target,
                manager=manager,
                progress=lambda done, total, msg: bar.progress(done / max(total, 1), text=msg[:80]),
            )
            refused += report.skipped
            cut = [c.text(lang) for c in report.cut]
    except (IndexProblem, IndexBusy, BadThemeName) as exc:
        refused.append(str(exc))
    bar.progress(1.0, text=t("files_done", lang, n=len(paths) - len([r for r in refused if r])))
    tables = [p.name for p in paths if p.suffix.lower() == ".csv"] + document_tables(context, paths, lang)
    if tables:
        st.success(inert(t("files_tables", lang, names=", ".join(tables))), icon=":material/table_chart:")
    for line in cut:  # file names hold what the file's sender chose
        st.warning(inert(line), icon=":material/content_cut:")
    for line in refused:
        st.error(inert(f"{t('skipped', lang)}: {line}"), icon=":material/block:")
