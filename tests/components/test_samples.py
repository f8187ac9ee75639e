"""Sample questions are drawn from the theme's document sections and its tables."""

from components.samples import sample_questions
from engine.context import EngineContext
from engine.rag.ingest import ingest_paths


def test_samples_name_sections_of_different_documents_and_a_table(tmp_path, monkeypatch):
    docs = tmp_path / "themes" / "ops"
    docs.mkdir(parents=True)
    (docs / "travel.md").write_text("# Travel\n\n## Hotels\n\nThe cap is 180 euros.\n\n## Meals\n\nMeals: 35 euros.\n")
    (docs / "guide.md").write_text("# Guide\n\n## Télétravail\n\nDeux jours par semaine.\n")
    (docs / "sales.csv").write_text("region,revenue\nNorth,10\nSouth,20\n")
    monkeypatch.setenv("INDEX_ROOT", str(tmp_path / "indexes"))
    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    context = EngineContext()
    ingest_paths("ops", [docs], manager=context.indexes)
    index, catalog = context.indexes.get("ops"), context.table_catalog([docs])
    english = sample_questions(index, catalog, "en")
    assert english[0] == "What is the total revenue by region?"
    assert "What does travel.md say about Hotels?" in english and "What does guide.md say about Télétravail?" in english
    assert len(english) == 3  # one section per document
    assert sample_questions(index, catalog, "fr")[0] == "Quel est le total de revenue par region ?"
    assert sample_questions(None, None, "en") == []
