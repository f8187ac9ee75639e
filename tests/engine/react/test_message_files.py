"""The loop's messages and tool Observation texts read as they did inline, and the loop's
loader fails loudly on a missing variable or on a key a language lacks (every key in both
languages: tests/engine/test_wording.py)."""

import json
import string

import pytest

from engine.react import prompts
from engine.react.prompts import PROMPT_DIR, PromptError, message, render


def _table() -> dict[str, dict[str, str]]:
    return json.loads((PROMPT_DIR / "messages.json").read_text(encoding="utf-8"))


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_message_formats_with_its_variables_in_both_languages():
    for language, words in _table().items():
        for key, text in words.items():
            specs = {name: spec for _, name, spec, _ in string.Formatter().parse(text) if name is not None}
            names = [name for name, spec in specs.items() if not spec]  # a number format needs a number
            filled = message(key, language, **{name: 7 if spec else f"<{name}>" for name, spec in specs.items()})
            assert all(f"<{name}>" in filled for name in names), (language, key)
            # only the escaped braces of a JSON example are left (``{{`` in the file)
            assert filled.count("{") == text.count("{{") and filled.count("}") == text.count("}}"), (language, key)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_missing_variable_fails_loudly(language):
    with pytest.raises(PromptError, match="needs the variable 'figures'"):
        message("review_unsupported", language)
    with pytest.raises(PromptError, match="needs the variable 'candidates'"):
        message("fact_several", language)


def test_a_key_missing_from_a_language_fails_loudly(monkeypatch):
    monkeypatch.setattr(prompts, "_messages", lambda: {"en": {"a": "A", "b": "B"}, "fr": {"a": "À"}})
    assert message("a", "fr") == "À"
    assert message("b", "de") == "B"  # a language the file does not have reads English
    with pytest.raises(PromptError, match="'b' has no 'fr' text"):
        message("b", "fr")
    with pytest.raises(PromptError, match="'c' has no 'en' text"):
        message("c", "de")


def test_the_moved_wording_reads_as_before():
    assert message("fact_where", "fr", source="a.md", location="p. 2") == "[a.md, p. 2]"
    assert message("fact_sep", "fr") == " ; " and message("fact_sep", "en") == "; "
    assert message("review_contradicts", "en", result="391") == (
        "This draft does not give the computed result (391); the answer below states it."
    )
    assert message("evidence_part_caution", "fr", part="Q1") == (
        "Introuvable : les sources consultées ne répondent pas à « Q1 »."
    )


def test_the_tool_observation_texts_read_as_before():
    assert render("unknown_tool", tool="x", tools="a, b") == "Error: there is no tool named 'x'. The tools are: a, b."
    assert render("tool_failed", tool="t", kind="ValueError", detail="bad") == "Error: t failed (ValueError: bad)."
    assert render("tool_timeout", tool="t", seconds="2.5") == "Error: t took longer than 2.5 s and was stopped."
    assert render("tool_blocked", reason="no.") == "Blocked: no."
    assert render("observation_cut", n=12) == "[… 12 more characters cut]"
    with pytest.raises(PromptError, match="'seconds'"):
        render("tool_timeout", tool="t")
