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


@pytest.mark.parametrize("name", ["é" * 127 + ".md", "😀" * 61 + ".md", "é" * 199 + ".md"])
def test_multibyte_names_are_limited_in_bytes_and_the_rest_of_the_drop_goes_in(tmp_path, name):
    written, refused = save_uploads(tmp_path / "ops", [(name, b"# x\n\nhello"), ("b.md", b"# b")])
    assert [p.name for p in written] == ["b.md"]
    assert len(refused) == 1 and "bytes long" in refused[0] and "over the 200-byte limit" in refused[0]
    assert f"{len(name.encode())} bytes long ({len(name)} characters)" in refused[0]


def test_the_longest_accepted_name_is_written_whatever_its_characters(tmp_path):
    name = "é" * 98 + ".md"  # 199 bytes
    written, refused = save_uploads(tmp_path, [(name, b"x")])
    assert refused == [] and [p.name for p in written] == [name] and (tmp_path / name).read_bytes() == b"x"
    assert safe_upload_name("é" * 99 + ".md")[0] is None  # 201 bytes


def test_a_failed_write_is_one_line_even_when_its_cleanup_fails(tmp_path, monkeypatch):
    import errno
    from pathlib import Path

    real_write = Path.write_bytes

    def write(self, data):
        if "bad" in Path(data.decode()).name:
            raise OSError(errno.ENAMETOOLONG, "File name too long")
        return real_write(self, data)

    def unlink(self, missing_ok=False):
        raise OSError(errno.ENAMETOOLONG, "File name too long")

    monkeypatch.setattr(Path, "write_bytes", write)
    monkeypatch.setattr(Path, "unlink", unlink)
    written, refused = save_uploads(tmp_path, [("a.md", b"bad"), ("b.md", b"good")])
    assert [p.name for p in written] == ["b.md"]
    assert refused == ["a.md: cannot be saved (File name too long)."]


def test_the_temporary_file_is_not_named_after_the_upload(tmp_path, monkeypatch):
    import os

    seen = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: seen.append(os.path.basename(a)) or real(a, b))
    save_uploads(tmp_path, [("z" * 190 + ".md", b"x")])
    assert len(seen) == 1 and "z" not in seen[0] and len(seen[0].encode()) < 40
