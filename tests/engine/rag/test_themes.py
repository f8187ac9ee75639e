"""Theme names: one validator, and index paths that never leave the index root."""

import os

import pytest

from engine.rag.store import ThemeIndex, list_themes, remove_index, theme_dir
from engine.rag.themes import BadThemeName, theme_path, validate_theme


@pytest.mark.parametrize("name", ["handbook", "Q3-report", "a_b", "x" * 40, "42"])
def test_valid_names_pass_unchanged(name):
    assert validate_theme(name) == name


@pytest.mark.parametrize(
    "name",
    ["", "x", "x" * 41, "../x", "/tmp/t", "a/b", ".hidden", "a b", "café", "a\nb", "..", "CURRENT.tmp", None, 42],
)
def test_bad_names_raise_one_readable_sentence(name):
    with pytest.raises(BadThemeName) as info:
        validate_theme(name)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert "\n" not in message and len(message) < 160 and message.endswith(".")


def test_a_long_name_is_not_echoed_whole():
    with pytest.raises(BadThemeName, match="300 characters long") as info:
        validate_theme("y" * 300)
    assert "y" * 41 not in str(info.value)


def test_theme_path_refuses_a_symlink_leading_out_of_the_root(tmp_path):
    root = tmp_path / "indexes"
    root.mkdir()
    os.symlink(tmp_path, root / "escape")
    with pytest.raises(BadThemeName, match="does not resolve inside"):
        theme_path(root, "escape")
    assert theme_path(root, "fine") == (root / "fine").resolve()


def test_library_entry_points_validate(tmp_path):
    for call in (lambda: theme_dir("../x", tmp_path), lambda: ThemeIndex.load("", tmp_path)):
        with pytest.raises(BadThemeName):
            call()
    with pytest.raises(BadThemeName):
        ThemeIndex.empty("/abs", "m", 4).save(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_list_themes_shows_only_valid_names(tmp_path):
    for name in ("good", ".locks", "bad name", "x"):
        (tmp_path / name).mkdir()
    assert list_themes(tmp_path, tmp_path / "none") == ["good"]


def test_remove_index_deletes_only_its_own_generations(tmp_path):
    ThemeIndex.empty("keep", "m", 4).save(tmp_path)
    index_dir = ThemeIndex.empty("gone", "m", 4).save(tmp_path).parent
    (index_dir / "notes.txt").write_text("not ours")
    assert remove_index("gone", tmp_path)
    assert (index_dir / "notes.txt").exists() and not (index_dir / "CURRENT").exists()
    assert ThemeIndex.load("keep", tmp_path).manifest.count == 0
    assert not remove_index("never", tmp_path)
