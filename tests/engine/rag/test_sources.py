"""Document keys: paths relative to the ingest root, and names that cannot be keys."""

import os

from engine.rag.sources import collect_sources, key_problem, shown_name


def test_keys_are_relative_to_the_directory_given(tmp_path):
    for sub in ("a", "b", "b/deep"):
        (tmp_path / sub).mkdir(parents=True)
        (tmp_path / sub / "notes.md").write_text("x")
    (tmp_path / "a" / "image.png").write_bytes(b"x")
    keys = [s.key for s in collect_sources([tmp_path])]
    assert keys == ["a/notes.md", "b/notes.md", "b/deep/notes.md"]


def test_a_single_file_is_keyed_by_its_name_or_relative_to_a_base(tmp_path):
    (tmp_path / "sub").mkdir()
    doc = tmp_path / "sub" / "memo.md"
    doc.write_text("x")
    assert [s.key for s in collect_sources([doc])] == ["memo.md"]
    assert [s.key for s in collect_sources([doc], base=tmp_path)] == ["sub/memo.md"]
    assert len(collect_sources([doc, doc, tmp_path / "sub"])) == 1


def test_unusable_names_get_one_printable_line(tmp_path):
    raw = os.path.join(os.fsencode(tmp_path), b"\xff\xfe.md")
    open(raw, "wb").close()
    (tmp_path / "line\nbreak.md").write_text("x")
    problems = sorted(s.problem for s in collect_sources([tmp_path]) if s.problem)
    assert len(problems) == 2
    assert any("not valid UTF-8" in p for p in problems) and any("control characters" in p for p in problems)
    for line in problems:
        line.encode("utf-8")  # printable: never a surrogate
        assert "\n" not in line
    assert "over the 255-byte limit" in key_problem("n" * 256)
    assert key_problem("n" * 255) is None and key_problem("é" * 127) is None
    assert "256 bytes long (128 characters)" in key_problem("é" * 128)  # counted as the file system counts
    assert key_problem("/".join(["d" * 200] * 2)) is None and "over the" in key_problem("/".join(["d" * 200] * 3))
    assert len(shown_name("z" * 500)) == 80


def test_symlinked_directories_are_not_followed(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "doc.md").write_text("x")
    os.symlink(tmp_path, tmp_path / "real" / "loop")
    assert [s.key for s in collect_sources([tmp_path / "real"])] == ["doc.md"]
