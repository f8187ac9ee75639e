"""What the analyst is told about the tables inside dropped documents."""

from components.attachments import document_tables
from engine.context import EngineContext


def test_tables_inside_dropped_documents_are_listed(tmp_path):
    report = tmp_path / "report.md"
    report.write_text("| | 2019 |\n|---|---|\n| Revenue | 5 |\n\n| | 2018 |\n|---|---|\n| Costs | 3 |\n")
    notes = tmp_path / "notes.md"
    notes.write_text("# No table\n")
    listed = document_tables(EngineContext(), [report, notes, tmp_path / "sales.csv"], "en")
    assert listed == ["report.md (table 1)", "report.md (table 2)"]
    assert document_tables(EngineContext(), [tmp_path / "sales.csv"], "fr") == []


def drop_page():
    """A page that drops two files into a conversation, as the chat input does."""
    import os
    from pathlib import Path

    from components.attachments import ingest_dropped
    from components.state import Preferences
    from engine.context import EngineContext
    from tests.engine.rag.conftest import shared_stream_pdf

    class Dropped:
        def __init__(self, name, data):
            self.name, self.data = name, data

        def getvalue(self):
            return self.data

    files = [Dropped("shared.pdf", shared_stream_pdf(3000, lines=20)), Dropped("é" * 199 + ".md", b"# A\n\nb")]
    ingest_dropped(files, Preferences(theme=None), Path(os.environ["DROP_FOLDER"]), EngineContext(), "fr")


def test_a_drop_says_which_file_was_indexed_in_part_and_which_name_is_too_long(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("DROP_FOLDER", str(tmp_path / "conv"))
    monkeypatch.setenv("INDEX_ROOT", str(tmp_path / "indexes"))
    at = AppTest.from_function(drop_page, default_timeout=90).run()
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "shared.pdf : indexé en partie (2\u202f999 page(s) reprenant le contenu d'une page précédente "
        "non indexée(s) à nouveau)."
    ]
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "401 bytes long (202 characters), over the 200-byte limit" in errors[0]
    assert (tmp_path / "conv" / "files" / "shared.pdf").exists()
