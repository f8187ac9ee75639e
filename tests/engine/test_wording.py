"""The engine's message files: every key in English and French with the same variables,
and the one loader fails loudly on a missing variable or a key a language lacks."""

import string
from pathlib import Path

import pytest

from engine.tools import messages as tool_messages
from engine.tools.tables.messages import say, statements
from engine.wording import MessageError, fill, load

ROOT = Path(__file__).resolve().parents[2]
FILES = [
    ROOT / "engine/cli.json",
    ROOT / "engine/tracing.json",
    ROOT / "engine/react/prompts/messages.json",
    ROOT / "engine/tools/messages.json",
    ROOT / "engine/tools/tables/messages.json",
    ROOT / "engine/tools/tables/statements.json",
    ROOT / "engine/grounding/messages.json",
    ROOT / "engine/rag/cuts.json",
    ROOT / "engine/rag/messages.json",
    ROOT / "engine/llm/messages.json",
]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_key_is_in_english_and_french_with_the_same_variables(path):
    table = load(path)
    assert set(table) == {"en", "fr"}
    assert set(table["en"]) == set(table["fr"])
    for key, english in table["en"].items():
        assert english and table["fr"][key], key
        assert _fields(english) == _fields(table["fr"][key]), key


def test_a_missing_variable_or_key_fails_loudly():
    table = {"en": {"a": "{n} rows", "b": "B"}, "fr": {"a": "{n} lignes"}}
    assert fill(table, "a", "fr", n=2) == "2 lignes"
    assert fill(table, "b", "de") == "B"  # a language the file does not have reads English
    with pytest.raises(MessageError, match="needs the variable 'n'"):
        fill(table, "a", "en")
    with pytest.raises(MessageError, match="'b' has no 'fr' text"):
        fill(table, "b", "fr")
    with pytest.raises(MessageError, match="'c' has no 'en' text"):
        fill(table, "c", "de")


def test_the_table_tools_read_their_sentences_through_it():
    assert say("unreadable", "fr", name="a.csv") == "a.csv n'a pas pu être lu comme une table ; il n'a pas été chargé."
    assert say("too_wide", "en", name="w.csv", columns=1200, limit=1000) == (
        "w.csv has 1,200 columns, over the limit of 1,000 for a table; it was not loaded."
    )
    assert say("doc_where_page", "fr", page=3, n=1) == "page 3, tableau 1"
    with pytest.raises(MessageError, match="needs the variable 'source'"):
        say("clarify_value", "en", column="region", value="Peru")
    assert statements("de")["sep"] == "; " and statements("fr")["sep"] == " ; "
    with pytest.raises(TypeError):
        statements("en")["sep"] = ", "  # read-only: no run can change another's wording


def test_the_tools_read_their_sentences_through_it():
    say_tool = tool_messages.say
    assert say_tool("calc_division_by_zero") == "division by zero."
    assert say_tool("text_replace_limit", size=250000, limit=200000) == (
        "text_tools replace would produce 250,000 characters, over the 200,000 limit; "
        "replace in a shorter text or with a shorter replacement."
    )
    assert say_tool("tool_duplicate", "fr", name="calculator") == (
        "deux outils s'appellent 'calculator' ; le second n'a pas été ajouté."
    )
    assert (
        say_tool("text_listed_first", limit=3, key="dates") == "only the first 3 dates are listed"
    )  # a value named key
    assert say("no_row", table="t", column="c", value="v", values="") == "No row of t has c = 'v'."  # named table
    with pytest.raises(MessageError, match="needs the variable 'limit'"):
        say_tool("calc_too_long")
