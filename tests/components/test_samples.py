"""Sample questions are drawn from the theme's document sections and its tables."""

from components.samples import _TEMPLATES, column_words, sample_questions, section_question
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
    assert "What does travel.md say about hotels?" in english and "What does guide.md say about télétravail?" in english
    assert len(english) == 3  # one section per document
    french = sample_questions(index, catalog, "fr")
    assert french[0] == "Quel est le total de « revenue » par « region » ?"
    assert "Que dit travel.md à propos de « Hotels » ?" in french
    assert sample_questions(None, None, "en") == []


def test_a_heading_that_asks_is_the_question_and_columns_read_as_words():
    assert section_question("faq.html", "Where is the sales data?", "en") == "Where is the sales data?"
    assert section_question("faq.html", "Où sont les données ?", "fr") == "Où sont les données ?"
    assert section_question("notes.md", "VAT rules", "en") == "What does notes.md say about VAT rules?"
    words = _TEMPLATES["en"]
    assert column_words("revenue_eur", words) == "revenue (EUR)"
    assert column_words("unit-price", words) == "unit price"
    assert column_words("margin_pct", words) == "margin (%)"
