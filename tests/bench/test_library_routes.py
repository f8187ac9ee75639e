"""The library's routes in bench_ingest: a bench-only venv that is absent is one line, never a crash."""

from pathlib import Path

from bench import library_routes


def test_an_absent_venv_is_one_line_each_and_no_route(tmp_path, capsys):
    found, workers = library_routes.routes(
        "all-MiniLM-L6-v2",
        tmp_path / "model",
        tmp_path / "no-venvs",
        tmp_path / "work",
        [],
        skip=("torch", "torch-bf16"),
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert found == [] and workers == []
    assert len(lines) == 4 and all(": not installable: " in line for line in lines)
    assert sum("transformers<4.58" in line for line in lines) == 2  # onnx, onnx-int8
    assert sum("transformers<5.6" in line for line in lines) == 2  # openvino, openvino-int8


def test_a_worker_that_cannot_load_reports_one_sentence(tmp_path, capsys):
    """A venv whose python is this one, on a directory that is no model: the worker answers with its
    error and the bench goes on without the route."""
    import sys

    venv = tmp_path / "venvs" / "st-onnx" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(Path(sys.executable))
    found, workers = library_routes.routes(
        "m",
        tmp_path / "not-a-model",
        tmp_path / "venvs",
        tmp_path / "work",
        [],
        skip=("torch", "torch-bf16", "onnx-int8"),
    )
    out = capsys.readouterr().out
    assert found == [] and workers == []
    assert 'backend="onnx", float32: did not load: ' in out
