"""AppTest of the Settings, Index browser and Tool catalogue pages."""

from pathlib import Path

from tests.apptest_helpers import APP, ROOT, new_app

SETTINGS = str(ROOT / "pages/1_Settings.py")
BROWSER = str(ROOT / "pages/2_Index_browser.py")
CATALOGUE = str(ROOT / "pages/3_Tool_catalogue.py")


def test_settings_change_language_and_theme_for_the_next_message(app_env, tmp_path, monkeypatch):
    (tmp_path / "themes" / "finance").mkdir(parents=True)
    (tmp_path / "themes" / "handbook").mkdir(parents=True)
    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    at = new_app(APP)
    at.switch_page("pages/1_Settings.py").run()
    assert at.title[0].value.endswith("Settings")
    at.selectbox(key="settings_language").set_value("fr").run()
    assert at.title[0].value.endswith("Réglages")
    at.selectbox(key="settings_theme").set_value("finance").run()
    at.radio(key="settings_detail").set_value("brief").run()
    settings = at.session_state["settings"]
    assert (settings.language, settings.theme, settings.detail) == ("fr", "finance", "brief")

    app_env.script.append({"text": "Réponse : bonjour"})
    at.switch_page("pages/chat.py").run()
    assert at.title[0].value == "Analyste ReAct"
    at.chat_input[0].set_value("Bonjour ?").run()
    system = app_env.requests[-1]["messages"][0]["content"]
    assert (
        "Rédige la réponse en français, et tes lignes Thought aussi" in system
        and "'finance'" in system
        and "one or two sentences" in system
    )


def test_settings_test_connection_reports_one_sentence(app_env):
    app_env.script.append({"status": 401})
    at = new_app(SETTINGS)
    at.button(key="test_connection").click().run()
    assert "rejected the API key" in at.error[0].value
    app_env.script.append({"text": "OK"})
    at.button(key="test_connection").click().run()
    assert at.success[0].value.startswith("Connected")


def test_index_browser_ingests_an_uploaded_file_and_searches_it(app_env, tmp_path, monkeypatch):
    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    (tmp_path / "themes" / "ops").mkdir(parents=True)
    at = new_app(BROWSER)
    at.selectbox(key="browser_theme").set_value("ops").run()
    doc = b"# Operations\n\n## Shipping\n\nParcels to Norway take nine working days by road.\n"
    at.file_uploader(key="uploads").set_value(
        [("shipping.md", doc, "text/markdown"), ("bad.txt", b"", "text/plain")]
    ).run()
    at.button(key="ingest_button").click().run()
    assert not at.exception
    assert "1 added" in at.success[0].value
    assert any("bad.txt: the file is empty" in e.value for e in at.error)
    assert (tmp_path / "themes" / "ops" / "shipping.md").exists()
    at.run()
    assert at.dataframe[0].value["name"].tolist() == ["shipping.md"]
    at.text_input(key="browser_query").set_value("delivery time to Norway").run()
    assert "source: shipping.md · Operations > Shipping · score" in at.code[-1].value
    at.button(key="delete_doc").click().run()
    assert "Delete shipping.md from theme ops?" in at.warning[0].value  # asked first: nothing deleted yet
    assert (tmp_path / "themes" / "ops" / "shipping.md").exists()
    at.button(key="delete_doc_cancel").click().run()
    assert not at.warning and (tmp_path / "themes" / "ops" / "shipping.md").exists()
    at.button(key="delete_doc").click().run()
    at.button(key="delete_doc_yes").click().run()
    assert not (tmp_path / "themes" / "ops" / "shipping.md").exists()


def test_index_browser_creates_a_theme_and_rejects_bad_names(app_env, tmp_path, monkeypatch):
    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    (tmp_path / "themes").mkdir()
    at = new_app(BROWSER)
    at.text_input(key="new_theme").set_value("../etc").run()
    at.button(key="create_theme").click().run()
    assert at.error and not Path(tmp_path / "etc").exists()
    at.text_input(key="new_theme").set_value("legal").run()
    at.button(key="create_theme").click().run()
    assert (tmp_path / "themes" / "legal").is_dir()


def test_catalogue_lists_the_mcp_tools_and_router_scores(app_env, monkeypatch):
    monkeypatch.delenv("MCP_SERVERS")
    at = new_app(CATALOGUE)
    assert not at.exception
    labels = " ".join(e.label for e in at.expander)
    for name in ("calculator", "statistics", "search_docs", "sales_query", "clock", "system_load"):
        assert f"`{name}`" in labels
    assert any("analyst-data" in m.value and "up" in m.value for m in at.markdown)
    at.text_input(key="route_query").set_value("total sales revenue by region").run()
    table = at.dataframe[0].value
    assert "sales_query" in table["tool"].tolist()[:6]
    assert set(table.columns) == {"tool", "score", "offered", "why"}


def test_index_browser_after_create_the_new_theme_is_selected(app_env, tmp_path, monkeypatch):
    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    (tmp_path / "themes" / "alpha").mkdir(parents=True)
    at = new_app(BROWSER)
    assert at.selectbox(key="browser_theme").value == "alpha"
    at.text_input(key="new_theme").set_value("zulu").run()
    at.button(key="create_theme").click().run()
    assert not at.exception
    assert at.selectbox(key="browser_theme").value == "zulu"


def test_index_browser_shows_the_index_after_ingest_and_refuses_files_one_line_each(app_env, tmp_path, monkeypatch):
    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    (tmp_path / "themes" / "ops").mkdir(parents=True)
    at = new_app(BROWSER)
    long_name = "n" * 300 + ".md"
    at.file_uploader(key="uploads").set_value(
        [
            ("route.md", b"# Route\n\nTrucks leave at six.\n", "text/markdown"),
            ("blob.bin", b"\x00\x01", "application/octet-stream"),
            (long_name, b"# Long\n\nname.\n", "text/markdown"),
            ("é" * 199 + ".md", b"# Accents\n\nname.\n", "text/markdown"),  # 401 bytes: over NAME_MAX
        ]
    ).run()
    at.button(key="ingest_button").click().run()
    assert not at.exception
    assert "1 added" in at.success[0].value
    errors = [e.value for e in at.error]
    assert len(errors) == 3
    assert any("blob.bin: unsupported file type '.bin'" in e for e in errors)
    assert any("over the 200-byte limit" in e and long_name not in e for e in errors)
    assert any("401 bytes long (202 characters), over the 200-byte limit" in e for e in errors)
    assert not any("no index yet" in i.value for i in at.info)  # the page shows the index as it now is
    assert at.dataframe[0].value["name"].tolist() == ["route.md"]


def test_index_browser_removes_a_damaged_index_after_confirmation(app_env, tmp_path, monkeypatch):
    import os

    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    (tmp_path / "themes" / "ops").mkdir(parents=True)
    (tmp_path / "themes" / "ops" / "a.md").write_text("# A\n\nAlpha content.\n")
    from engine.rag.ingest import ingest_paths
    from engine.rag.manager import IndexManager
    from engine.rag.store import ThemeIndex

    indexes = Path(os.environ["INDEX_ROOT"])
    ingest_paths("ops", [tmp_path / "themes" / "ops"], manager=IndexManager(root=indexes))
    gen = indexes / "ops" / ThemeIndex.load("ops", indexes).generation
    (gen / "vectors.npy").write_bytes(b"broken")
    at = new_app(BROWSER)
    at.selectbox(key="browser_theme").set_value("ops").run()
    assert any("damaged" in e.value for e in at.error)
    at.button(key="remove_index").click().run()
    assert "Remove the whole index of theme ops" in at.warning[0].value
    at.button(key="remove_cancel").click().run()
    assert (indexes / "ops" / "CURRENT").exists()
    at.button(key="remove_index").click().run()
    at.button(key="remove_yes").click().run()
    assert not at.exception
    assert not (indexes / "ops").exists() and (tmp_path / "themes" / "ops" / "a.md").exists()
    assert any("was removed" in s.value for s in at.success)


def test_index_browser_on_pgvector_lists_searches_deletes_and_removes(app_env, pg_server, tmp_path, monkeypatch):
    from engine.rag.ingest import ingest_paths
    from engine.rag.manager import IndexManager
    from engine.settings import current

    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    monkeypatch.setenv("VECTOR_STORE", "pgvector")
    monkeypatch.setenv("DATABASE_URL", pg_server.create_database("browser"))
    elsewhere = tmp_path / "elsewhere"  # ingested by another server: no folder under this one's themes root
    elsewhere.mkdir()
    (elsewhere / "routes.md").write_text("# Routes\n\n## Norway\n\nParcels to Norway take nine working days.\n")
    (elsewhere / "fees.md").write_text("# Fees\n\nA late delivery costs 40 euros.\n")
    other_server = IndexManager.for_settings(current())
    ingest_paths("logistics", [elsewhere], manager=other_server)

    at = new_app(BROWSER)
    assert not at.exception
    assert at.selectbox(key="browser_theme").options == ["logistics"]
    assert at.dataframe[0].value["name"].tolist() == ["fees.md", "routes.md"]
    at.text_input(key="browser_query").set_value("delivery time to Norway").run()
    assert "source: routes.md · Routes > Norway · score" in at.code[-1].value
    at.selectbox(key="browser_doc").set_value("routes.md").run()
    at.button(key="delete_doc").click().run()
    at.button(key="delete_doc_yes").click().run()
    assert not at.exception
    assert any("routes.md" in s.value for s in at.success)
    assert at.dataframe[0].value["name"].tolist() == ["fees.md"]
    assert set(other_server.get("logistics").manifest.documents) == {"fees.md"}  # gone from the database

    at.button(key="remove_index").click().run()
    at.button(key="remove_yes").click().run()
    assert not at.exception
    assert other_server.store.themes() == []
    assert any("no index" in i.value.lower() for i in at.info)
    other_server.close()


def test_index_browser_with_a_dead_vector_store_says_so_in_one_sentence(app_env, tmp_path, monkeypatch):
    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    (tmp_path / "themes" / "ops").mkdir(parents=True)
    monkeypatch.setenv("VECTOR_STORE", "pgvector")
    monkeypatch.setenv("DATABASE_URL", f"postgresql://ana:s3cr3t-pw@/analyst?host={tmp_path}")
    at = new_app(BROWSER)
    assert not at.exception
    assert at.selectbox(key="browser_theme").options == ["ops"]  # the theme folders are still offered
    errors = [e.value for e in at.error]
    assert errors and all("The vector store (PostgreSQL at" in e and "cannot be reached" in e for e in errors)
    assert not any("s3cr3t-pw" in e or "\n" in e for e in errors)


def test_index_browser_lists_a_formula_like_file_name_as_text(app_env, tmp_path, monkeypatch):
    # The documents table is downloadable as CSV from its toolbar: a name a spreadsheet would
    # run as a formula is shown with an apostrophe (the file keeps its name).
    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    (tmp_path / "themes" / "ops").mkdir(parents=True)
    at = new_app(BROWSER)
    at.selectbox(key="browser_theme").set_value("ops").run()
    doc = b"# Notes\n\nParcels to Norway take nine working days by road.\n"
    at.file_uploader(key="uploads").set_value([("@SUM(1).md", doc, "text/markdown")]).run()
    at.button(key="ingest_button").click().run()
    assert not at.exception and "1 added" in at.success[0].value
    at.run()
    assert at.dataframe[0].value["name"].tolist() == ["'@SUM(1).md"]
    assert (tmp_path / "themes" / "ops" / "@SUM(1).md").exists()


def test_index_browser_says_in_one_line_that_a_file_was_indexed_in_part(app_env, tmp_path, monkeypatch):
    from tests.engine.rag.conftest import shared_stream_pdf

    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    (tmp_path / "themes" / "ops").mkdir(parents=True)
    at = new_app(BROWSER)
    at.file_uploader(key="uploads").set_value(
        [("shared.pdf", shared_stream_pdf(3000, lines=20), "application/pdf")]
    ).run()
    at.button(key="ingest_button").click().run()
    assert not at.exception
    assert "1 added" in at.success[0].value
    warnings = [w.value for w in at.warning]
    assert warnings == [
        "shared.pdf: indexed in part (2,999 page(s) repeating an earlier page's content not indexed again)."
    ]


def test_catalogue_shows_an_mcp_tool_that_collides_with_a_built_in_renamed(app_env, tmp_path, monkeypatch):
    import json

    server = str(ROOT / "tests/mcp_servers/hostile_server.py")
    (tmp_path / "mcp.json").write_text(
        json.dumps({"servers": [{"name": "hostile", "command": "python", "args": [server]}]})
    )
    monkeypatch.delenv("MCP_SERVERS")
    monkeypatch.setenv("MCP_SERVERS_JSON", str(tmp_path / "mcp.json"))
    at = new_app(CATALOGUE)
    assert not at.exception
    labels = [e.label for e in at.expander]
    assert "`calculator` · always on" in labels  # the built-in, unreplaced
    assert any(label.startswith("`hostile__calculator` · from the MCP server hostile") for label in labels)
    warnings = [w.value for w in at.warning]
    assert any("`calculator` is offered as `hostile__calculator`: a built-in tool has that name" in w for w in warnings)


def test_catalogue_marks_a_server_that_refuses_our_credential_unauthorised(app_env, tmp_path, monkeypatch):
    import json

    from tests.mcp_servers.token_server import running

    with running("tok-catalogue-secret") as url:
        config = {"servers": [{"name": "guarded", "url": url, "token_env": "GUARDED_TOKEN"}]}
        (tmp_path / "mcp.json").write_text(json.dumps(config))
        monkeypatch.delenv("MCP_SERVERS")
        monkeypatch.setenv("MCP_SERVERS_JSON", str(tmp_path / "mcp.json"))
        monkeypatch.setenv("GUARDED_TOKEN", "tok-not-the-right-one")
        at = new_app(CATALOGUE)
        assert not at.exception
        assert any("**guarded**: unauthorised" in m.value for m in at.markdown)
        warnings = [w.value for w in at.warning]
        assert any(w.startswith("This server refused our credential") for w in warnings)
        page = json.dumps([e.value for e in (*at.markdown, *at.warning, *at.caption)])
        assert "tok-not-the-right-one" not in page
