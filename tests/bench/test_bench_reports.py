"""bench/bench_reports.py end to end in strong mode: one context, two questions, asked through the CLI
with the scripted strong model on the Mistral path (the fake server); the embedding model ingests and
searches, no chat model is loaded. Plus the scripted answers against the real tuning part."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.report_qa.dataset import DATASET_FILE, load_contexts, select
from bench.report_qa.scripted import right_answer, wrong_answer
from bench.report_qa.trust import classify

ROOT = Path(__file__).resolve().parents[2]

CONTEXT = {
    "table": {
        "uid": "t1",
        "table": [
            ["", "2019", "2018"],
            ["", "$M", "$M"],
            ["Software", "1,950", "1,538"],
            ["Hardware", "300", "310"],
            ["Total", "2,250", "1,848"],
        ],
    },
    "paragraphs": [
        {"uid": "p1", "order": 1, "text": "Revenue by segment was as follows (in millions):"},
        {"uid": "p2", "order": 2, "text": "Software revenue grew on new subscription contracts."},
    ],
    "questions": [
        {
            "uid": "q1", "order": 1, "question": "What was the change in Software revenue between 2018 and 2019?",
            "answer": 412, "derivation": "1,950-1,538", "answer_type": "arithmetic", "answer_from": "table",
            "scale": "million",
        },
        {
            "uid": "q2", "order": 2, "question": "What was the Hardware revenue in 2019?",
            "answer": ["300"], "derivation": "", "answer_type": "span", "answer_from": "table", "scale": "million",
        },
        {
            "uid": "q3", "order": 3, "question": "Never asked: the limit is two questions",
            "answer": ["x"], "derivation": "", "answer_type": "span", "answer_from": "text", "scale": "",
        },
    ],
}  # fmt: skip


def test_strong_mode_end_to_end_classes_a_right_answer_and_a_12_percent_off_one_apart(tmp_path):
    dataset = tmp_path / "gold.json"
    dataset.write_text(json.dumps([CONTEXT, {**CONTEXT, "questions": []}]), encoding="utf-8")
    out = tmp_path / "results.json"
    args = ["--strong", "--part", "tune", "--limit-contexts", "1", "--limit-questions", "2"]
    proc = subprocess.run(
        [sys.executable, "bench/bench_reports.py", *args, "--dataset", str(dataset), "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("machine: ")
    assert "part tune: 1 contexts, 2 questions" in proc.stdout
    for heading in ("strong model, scripted", "misses (wrong answers not flagged):", "false alarms", "seconds per"):
        assert heading in proc.stdout

    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["contexts"] == [0] and payload["questions"] == 2
    results = payload["results"]
    assert [(r["uid"], r["variant"]) for r in results] == [
        ("q1", "right"),
        ("q1", "wrong"),
        ("q2", "right"),
        ("q2", "wrong"),
    ]
    for r in results:
        assert r["status"] == "answered" and r["theme"] == "tatqa-0000"
        assert set(r["verdict"]) >= {"trust", "em", "f1", "direct", "found", "flagged", "flags"}
        assert r["done"]["type"] == "done" and r["done"]["answer"] == r["answer"]
    right, wrong = results[0], results[1]
    assert right["answer"] == "412 million = 1,950 − 1,538" and wrong["answer"] == "461 million = 1,950 − 1,538"
    assert right["verdict"]["direct"] and right["verdict"]["em"] == 1.0
    assert not wrong["verdict"]["found"] and wrong["verdict"]["em"] == 0.0
    assert right["verdict"]["trust"] in ("right", "evidence_only")
    assert wrong["verdict"]["trust"] in ("wrong_flagged", "confidently_wrong")

    again = subprocess.run(
        [sys.executable, "bench/bench_reports.py", "--rescore", str(out)], cwd=ROOT, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stderr
    assert proc.stdout.split("strong model, scripted")[1].split("\n\n")[0] in again.stdout  # same table


def test_on_the_tuning_part_every_scripted_right_answer_is_right_and_no_wrong_one_states_the_gold():
    assert DATASET_FILE.is_file(), f"the report-qa dataset is expected at {DATASET_FILE}"
    questions = [q for c in select(load_contexts(), "tune") for q in c.questions]
    assert len(questions) > 700
    misread = [
        q.uid for q in questions if classify(q, {"status": "answered", "answer": right_answer(q)}).trust != "right"
    ]
    assert misread == []
    wrongs = [(q, wrong_answer(q)) for q in questions]
    stated = [q.uid for q, w in wrongs if w is not None and classify(q, {"status": "answered", "answer": w}).direct]
    assert stated == []
    assert sum(w is not None for _, w in wrongs) > 0.7 * len(questions)


def test_a_slice_after_the_first_contexts_starts_where_it_says():
    tune = select(load_contexts(), "tune")
    assert [c.index for c in select(load_contexts(), "tune", 2, skip_contexts=3)] == [c.index for c in tune[3:5]]
    with pytest.raises(ValueError, match="--skip-contexts"):
        select(load_contexts(), "tune", skip_contexts=-1)
