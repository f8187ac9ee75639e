"""Index browser: documents and chunks per theme, search like search_docs, upload,
delete, and create a theme."""

from __future__ import annotations

import re
from pathlib import Path

import streamlit as st

from components.i18n import t
from components.state import session
from engine.rag.store import IndexProblem, list_themes, themes_root

st.set_page_config(page_title="Index browser", page_icon="📚")
conversation, settings = session()
lang = settings.language
THEMES_ROOT = themes_root()
st.title(f"📚 {t('index_browser', lang)}")

themes = list_themes()
with st.expander(t("create_theme", lang)):
    new_name = st.text_input(t("theme_name", lang), key="new_theme")
    if st.button(t("create", lang), key="create_theme"):
        if re.fullmatch(r"[A-Za-z0-9_-]{2,40}", new_name or ""):
            (THEMES_ROOT / new_name).mkdir(parents=True, exist_ok=True)
            st.success(t("theme_created", lang, name=new_name))
            themes = list_themes()
        else:
            st.error(t("bad_theme_name", lang))

if not themes:
    st.info(t("no_index", lang))
    st.stop()
default = settings.theme if settings.theme in themes else themes[0]
theme = st.selectbox(t("theme", lang), themes, index=themes.index(default), key="browser_theme")

from engine.rag.manager import default_manager  # noqa: E402

index = None
try:
    index = default_manager().get(theme)
except IndexProblem as exc:
    if "no index yet" in str(exc):
        st.info(t("no_index", lang))
    else:
        st.error(str(exc))

if index is not None and index.manifest.documents:
    st.subheader(t("documents", lang))
    rows = [
        {"name": d.source, "size (KB)": round(d.size / 1024, 1), "chunks": d.chunks, "ingested at": d.ingested_at}
        for d in sorted(index.manifest.documents.values(), key=lambda d: d.source)
    ]
    st.dataframe(rows, hide_index=True, use_container_width=True)
    names = [r["name"] for r in rows]
    chosen = st.selectbox(t("chunks_of", lang), names, key="browser_doc")
    for chunk in index.chunks_of(chosen):
        with st.expander(f"{chunk.chunk_id} · {chunk.location}"):
            st.text(chunk.text)
    if st.button(f"🗑️ {t('delete', lang)} {chosen}", key="delete_doc"):
        from engine.rag.ingest import delete_document

        delete_document(theme, chosen)
        source_file = THEMES_ROOT / theme / chosen
        if source_file.is_file():
            source_file.unlink()
        st.success(t("deleted", lang, name=chosen))
        st.rerun()

    query = st.text_input(t("search_box", lang), key="browser_query")
    if query.strip():
        from engine.tools.theme import format_hits, search_hits

        st.code(format_hits(search_hits(theme, query, 4)), language=None, wrap_lines=True)

st.subheader(t("upload", lang))
uploads = st.file_uploader(
    t("upload", lang),
    accept_multiple_files=True,
    type=["txt", "md", "pdf", "html", "htm", "csv"],
    key="uploads",
    label_visibility="collapsed",
)
if uploads and st.button(t("ingest", lang), key="ingest_button"):
    from engine.rag.ingest import ingest_paths

    target = THEMES_ROOT / theme
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for upload in uploads:
        safe = Path(upload.name).name
        path = target / safe
        path.write_bytes(upload.getvalue())
        paths.append(path)
    bar = st.progress(0.0, text="…")
    try:
        report = ingest_paths(
            theme, paths, progress=lambda done, total, msg: bar.progress(done / max(total, 1), text=msg)
        )
    except IndexProblem as exc:
        st.error(str(exc))
    else:
        st.success(t("ingested", lang, summary=report.summary()))
        for line in report.skipped:
            st.error(f"{t('skipped', lang)}: {line}")
