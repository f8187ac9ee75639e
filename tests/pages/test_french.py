"""In French, no English string is left on the chat, Index browser and Tool catalogue
pages: every visible label, text and table header is collected and compared against the
English locale's values and a list of English words that French does not use."""

from __future__ import annotations

import json
import re

import pandas as pd
from streamlit.testing.v1 import AppTest

from components.i18n import LOCALES
from components.state import Preferences
from tests.apptest_helpers import APP, ROOT

BROWSER = str(ROOT / "pages/2_Index_browser.py")
CATALOGUE = str(ROOT / "pages/3_Tool_catalogue.py")
# English words no French label uses (French words such as "action", "documents", "score" or "tables" are left out)
ENGLISH_WORDS = set(
    "the and or of always top tool tools offered why size chunks chunk ingested delete search loading ready "
    "added replaced unchanged skipped embedded steps step tokens this that with your you what which about answer "
    "answers figure figures would every below full set remove cancel yes upload files file from is are was say "
    "does by no not new settings browser general theme real time data "
    "servers server routing unavailable cut length limit thought thoughts search them first now can here show "
    "export include language level detail brief detailed ask try these one name".split()
)
SKIPPED = {"Code", "Json", "Text"}  # tool output, schemas and the tools' own descriptions (written for the model)


def english_values() -> set[str]:
    english = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))
    french = json.loads((LOCALES / "fr.json").read_text(encoding="utf-8"))
    return {v for k, v in english.items() if v != french.get(k) and "{" not in v}


def visible_strings(node) -> list[str]:
    """Every string the page shows in ``node``: labels, texts, options, help, table headers."""
    out: list[str] = []
    kind = type(node).__name__
    if kind in SKIPPED:
        return out
    for attr in ("label", "value", "body", "help", "placeholder"):
        try:
            value = getattr(node, attr, None)
        except Exception:  # an element without this field raises on access
            continue
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, pd.DataFrame):
            out += [str(c) for c in value.columns]
    for option in getattr(node, "options", None) or []:
        out.append(str(option))
    for child in getattr(node, "children", {}).values():
        out += visible_strings(child)
    return out


def _words(text: str, data: set[str]) -> set[str]:
    text = re.sub(r"`[^`]*`|:material/\w+:|:\w+\[|\S+\.(?:md|csv|html|json)\b|\b\w*_\w*\b", " ", text)
    return {w for w in re.findall(r"[A-Za-z]+", text.lower()) if w not in data}


def assert_french(at: AppTest, data: set[str] = frozenset()) -> None:
    assert not at.exception, at.exception
    shown = visible_strings(at.main) + visible_strings(at.sidebar)
    assert shown, "nothing collected: the walk is broken"
    values = english_values()
    left = [s for s in shown if s.strip() in values]
    assert not left, f"English labels in French mode: {left}"
    words = [(s, sorted(_words(s, data) & ENGLISH_WORDS)) for s in shown]
    assert not [w for w in words if w[1]], f"English words in French mode: {[w for w in words if w[1]]}"


def french_app(path: str, theme: str | None) -> AppTest:
    at = AppTest.from_file(path, default_timeout=90)
    at.session_state["settings"] = Preferences(language="fr", theme=theme)
    return at.run()


def make_theme(tmp_path, monkeypatch):
    themes = tmp_path / "themes"
    (themes / "ventes").mkdir(parents=True)
    (themes / "ventes" / "guide.md").write_text(
        "# Guide\n\n## Télétravail\n\nLes analystes télétravaillent 1 921 heures par an au plus.\n", encoding="utf-8"
    )
    (themes / "ventes" / "ventes.csv").write_text("region,chiffre\nNord,1921.5\nSud,20\n", encoding="utf-8")
    monkeypatch.setenv("THEMES_ROOT", str(themes))
    from engine.context import EngineContext
    from engine.rag.ingest import ingest_paths

    ingest_paths("ventes", [themes / "ventes"], manager=EngineContext().indexes)


def test_the_catalogue_is_french_everywhere(app_env, tmp_path, monkeypatch):
    make_theme(tmp_path, monkeypatch)
    at = french_app(CATALOGUE, "ventes")
    at.text_input(key="route_query").set_value("chiffre total par region").run()
    assert_french(at)
    assert at.title[0].value == "Catalogue des outils"
    assert [t.label for t in at.tabs] == ["Un modèle qui écrit du SQL", "Un petit modèle (embarqué)"]
    assert set(at.dataframe[0].value.columns) == {"outil", "score", "proposé", "pourquoi"}
    assert any("toujours proposé" in e.label for e in at.expander)


def test_the_catalogue_shows_each_model_kind_its_table_tools(app_env, tmp_path, monkeypatch):
    make_theme(tmp_path, monkeypatch)
    at = french_app(CATALOGUE, "ventes")
    large, small = (" ".join(e.label for e in tab.expander) for tab in at.tabs)
    assert "`query_table`" in large and "`aggregate_table`" not in large
    for name in ("aggregate_table", "lookup_table", "compute_table"):
        assert f"`{name}`" in small
    assert "`query_table`" not in small


def test_the_index_browser_is_french_everywhere(app_env, tmp_path, monkeypatch):
    make_theme(tmp_path, monkeypatch)
    at = french_app(BROWSER, "ventes")
    assert_french(at)
    table = at.dataframe[0].value
    assert list(table.columns) == ["nom", "taille (Ko)", "extraits", "indexé le"]
    assert at.button(key="delete_doc").label == "Supprimer guide.md"


def test_the_chat_is_french_everywhere_with_french_numbers(app_env, tmp_path, monkeypatch):
    make_theme(tmp_path, monkeypatch)
    app_env.script.append({"text": "Thought: Je calcule.\nAnswer: Le total est de 1 921 heures."})
    at = french_app(APP, "ventes")
    assert_french(at, data={"guide"})
    at.chat_input[0].set_value("Combien d'heures de télétravail ?").run()
    assert_french(at, data={"guide"})
    footer = [c.value for c in at.caption if "jetons" in c.value]
    assert footer and re.search(r"\d+ étapes? · [\d\u202f]+ jetons · \d+,\d s", footer[-1]), footer
