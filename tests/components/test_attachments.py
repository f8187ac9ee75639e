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
