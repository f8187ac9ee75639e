"""Index browser: documents and chunks per theme, search like search_docs, upload,
delete a document or the theme's whole index, and create a theme."""

from __future__ import annotations

import streamlit as st

from components.app_context import engine_context, known_themes
from components.i18n import number, t
from components.inert import inert
from components.render import spreadsheet_rows
from components.state import session
from engine.rag.locking import IndexBusy
from engine.rag.store import IndexProblem, themes_root
from engine.rag.themes import BadThemeName, theme_path

conversation, settings = session()
lang = settings.language
st.set_page_config(page_title=t("index_browser", lang), page_icon=":material/library_books:")
THEMES_ROOT = themes_root()
st.title(t("index_browser", lang))

themes, indexed = known_themes()
with st.expander(t("create_theme", lang), icon=":material/create_new_folder:"):
    new_name = st.text_input(t("theme_name", lang), key="new_theme", max_chars=40)
    if st.button(t("create", lang), key="create_theme", icon=":material/add:"):
        try:
            folder = theme_path(THEMES_ROOT, new_name)
        except BadThemeName:
            st.error(t("bad_theme_name", lang))
        else:
            name = folder.name
            folder.mkdir(parents=True, exist_ok=True)
            st.success(t("theme_created", lang, name=name))
            themes = sorted({*themes, name})
            st.session_state["browser_theme"] = name  # the new theme is selected

if not themes:
    st.info(t("no_index", lang))
    st.stop()
if st.session_state.get("browser_theme") not in themes:
    st.session_state["browser_theme"] = settings.theme if settings.theme in themes else themes[0]
theme = st.selectbox(t("theme", lang), themes, key="browser_theme")

for kind, message in st.session_state.pop("browser_messages", []):  # the outcome of the last action
    getattr(st, kind)(inert(message))  # may name a file: its sender chose the name

index, documents = None, {}
try:
    indexes = engine_context().indexes
    index = indexes.get(theme)
    documents = index.manifest.documents
except IndexProblem as exc:
    if "no index yet" in str(exc):
        st.info(t("no_index", lang))
    else:
        st.error(inert(str(exc)))


def ingest_summary(report, lang: str) -> str:
    """What an ingest did, in the page's language."""
    counts = {
        "added": len(report.added),
        "replaced": len(report.replaced),
        "unchanged": len(report.unchanged),
        "skipped": len(report.skipped),
        "chunks": report.chunks_added,
    }
    return t("ingest_summary", lang, theme=report.theme, **{k: number(v, lang) for k, v in counts.items()})


def finish(messages: list[tuple[str, str]]) -> None:
    """Show ``messages`` on the next run, which draws the index as it now is."""
    st.session_state["browser_messages"] = messages
    st.rerun()


if documents:
    st.subheader(t("documents", lang))
    rows = [
        {
            t("col_name", lang): d.source,
            t("col_size_kb", lang): number(d.size / 1024, lang, 1),
            t("col_chunks", lang): number(d.chunks, lang),
            t("col_ingested_at", lang): d.ingested_at,
        }
        for d in sorted(documents.values(), key=lambda d: d.source)
    ]
    st.dataframe(spreadsheet_rows(rows), hide_index=True, width="stretch")
    names = sorted(d.source for d in documents.values())
    chosen = st.selectbox(t("chunks_of", lang), names, key="browser_doc")
    try:
        chunks = index.chunks_of(chosen)
    except IndexProblem as exc:
        st.error(inert(str(exc)))
        chunks = []
    for chunk in chunks:
        with st.expander(inert(f"{chunk.chunk_id} · {chunk.location}")):
            st.text(chunk.text)
    asked = st.session_state.get("confirm_delete_doc")
    if asked != [theme, chosen]:  # one click asks; the document goes only on the second, confirmed one
        if st.button(inert(t("delete_doc", lang, name=chosen)), key="delete_doc", icon=":material/delete:"):
            st.session_state["confirm_delete_doc"] = [theme, chosen]
            st.rerun()
    else:
        st.warning(inert(t("delete_confirm", lang, name=chosen, theme=theme)), icon=":material/warning:")
        yes, no = st.columns(2)
        if yes.button(
            inert(t("delete_yes", lang, name=chosen)), key="delete_doc_yes", icon=":material/delete_forever:"
        ):
            from engine.rag.ingest import delete_document
            from engine.rag.uploads import source_file

            st.session_state.pop("confirm_delete_doc", None)
            try:
                delete_document(theme, chosen, indexes)
            except (IndexProblem, IndexBusy) as exc:
                finish([("error", str(exc))])
            path = source_file(THEMES_ROOT / theme, chosen)
            if path is not None and path.is_file():
                path.unlink()
            finish([("success", t("deleted", lang, name=chosen))])
        if no.button(t("cancel", lang), key="delete_doc_cancel", icon=":material/close:"):
            st.session_state.pop("confirm_delete_doc", None)
            st.rerun()

    query = st.text_input(t("search_box", lang), key="browser_query", max_chars=500)
    if query.strip():
        from engine.tools.theme import format_hits, search_hits

        try:
            st.code(format_hits(search_hits(theme, query, 4, manager=indexes)), language=None, wrap_lines=True)
        except IndexProblem as exc:
            st.error(inert(str(exc)))

st.subheader(t("upload", lang))
uploads = st.file_uploader(t("upload", lang), accept_multiple_files=True, key="uploads", label_visibility="collapsed")
if uploads and st.button(t("ingest", lang), key="ingest_button", icon=":material/upload_file:"):
    from engine.rag.ingest import ingest_paths
    from engine.rag.uploads import save_uploads

    target = THEMES_ROOT / theme
    paths, refused = save_uploads(target, [(u.name, u.getvalue()) for u in uploads])
    bar = st.progress(0.0, text="…")
    messages: list[tuple[str, str]] = []
    try:
        report = ingest_paths(
            theme,
            paths,
            base=target,
            manager=engine_context().indexes,
            progress=lambda done, total, msg: bar.progress(done / max(total, 1), text=msg),
        )
    except (IndexProblem, IndexBusy, BadThemeName) as exc:
        messages.append(("error", str(exc)))
    else:
        messages.append(("success", t("ingested", lang, summary=ingest_summary(report, lang))))
        if report.rebuilt:
            messages.append(("warning", t("rebuilt", lang, why=report.rebuilt)))
        refused += report.skipped
        messages += [("warning", cut.text(lang)) for cut in report.cut]
    messages += [("error", f"{t('skipped', lang)}: {line}") for line in refused]
    finish(messages)

if index is not None or theme in indexed:
    with st.expander(t("remove_index", lang), icon=":material/delete_forever:"):
        if not st.session_state.get("confirm_remove"):
            if st.button(t("remove_index", lang), key="remove_index", icon=":material/delete_forever:"):
                st.session_state["confirm_remove"] = theme
                st.rerun()
        elif st.session_state["confirm_remove"] == theme:
            st.warning(t("remove_confirm", lang, theme=theme))
            yes, no = st.columns(2)
            if yes.button(t("remove_yes", lang), key="remove_yes", icon=":material/delete_forever:"):
                from engine.rag.ingest import remove_theme_index

                st.session_state.pop("confirm_remove", None)
                try:
                    remove_theme_index(theme, engine_context().indexes)
                except (IndexProblem, IndexBusy) as exc:
                    finish([("error", str(exc))])
                finish([("success", t("removed", lang, theme=theme))])
            if no.button(t("cancel", lang), key="remove_cancel", icon=":material/close:"):
                st.session_state.pop("confirm_remove", None)
                st.rerun()
        else:
            st.session_state.pop("confirm_remove", None)
