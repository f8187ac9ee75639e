"""Labels in both languages: numbers as each writes them, a missing variable fails."""

import json
import re

import pytest

from components.i18n import LOCALES, LocaleError, number, plural, t


def test_numbers_are_written_as_each_language_writes_them():
    assert number(1921, "en") == "1,921" and number(1921, "fr") == "1\u202f921"
    assert number(1921.54, "fr", 1) == "1\u202f921,5" and number(3.25, "en", 1) == "3.2"
    assert plural("step", 1200, "fr") == "1\u202f200 étapes"


def test_a_label_missing_its_variable_fails():
    with pytest.raises(LocaleError, match="truncated"):
        t("truncated", "fr")
    assert t("truncated", "fr", n=3).startswith("Sortie tronquée")


def test_both_locales_have_the_same_keys_and_variables():
    english = json.loads((LOCALES / "en.json").read_text(encoding="utf-8"))
    french = json.loads((LOCALES / "fr.json").read_text(encoding="utf-8"))
    assert english.keys() == french.keys()
    for key, text in english.items():
        assert sorted(set(re.findall(r"\{(\w+)", text))) == sorted(set(re.findall(r"\{(\w+)", french[key]))), key
