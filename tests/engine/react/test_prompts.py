"""Prompt templates are data, and a missing variable fails loudly."""

import pytest

from engine.react.prompts import PROMPT_DIR, PromptError, render


def test_a_missing_variable_fails_loudly():
    with pytest.raises(PromptError, match="'tool'"):
        render("cycle_warning", count=3)


def test_every_template_renders_with_its_variables():
    from string import Template

    for path in PROMPT_DIR.glob("*.txt"):
        names = {m.group("named") or m.group("braced") for m in Template.pattern.finditer(path.read_text())}
        names.discard(None)
        text = render(path.stem, **{n: f"<{n}>" for n in names})
        assert "$" not in text.replace("$$", ""), path.name
