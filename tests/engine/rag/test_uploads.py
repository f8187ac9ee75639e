"""Uploaded files: safe names, atomic writes, one line per refusal."""

import pytest

from engine.rag.uploads import safe_upload_name, save_uploads, source_file


@pytest.mark.parametrize(
    ("name", "expected"),
    [("report.md", "report.md"), ("../../etc/passwd", "passwd"), ("C:\\docs\\memo.txt", "memo.txt")],
)
def test_upload_names_are_bare_file_names(name, expected):
    assert safe_upload_name(name) == (expected, None)


@pytest.mark.parametrize("name", ["", "..", ".env", "n" * 300 + ".md", "tab\there.md"])
def test_unusable_upload_names_are_refused(name):
    bare, problem = safe_upload_name(name)
    assert bare is None and problem and "\n" not in problem


def test_save_uploads_writes_and_refuses(tmp_path):
    written, refused = save_uploads(tmp_path / "ops", [("a.md", b"x"), ("n" * 300 + ".md", b"y"), (".x", b"z")])
    assert [p.name for p in written] == ["a.md"] and (tmp_path / "ops" / "a.md").read_bytes() == b"x"
    assert len(refused) == 2 and "300" not in refused[1]
    assert sorted(p.name for p in (tmp_path / "ops").iterdir()) == ["a.md"]


def test_source_file_stays_in_the_theme_folder(tmp_path):
    assert source_file(tmp_path, "sub/a.md") == (tmp_path / "sub" / "a.md").resolve()
    assert source_file(tmp_path, "../outside.md") is None
    assert source_file(tmp_path, "/etc/passwd") is None
