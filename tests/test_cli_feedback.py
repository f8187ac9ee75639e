"""``python -m engine feedback``: a user's rated answers, one QA case candidate per line."""

import json

import pytest

from engine.store import ConversationStore
from tests.test_cli import cli

GROUNDING = {
    "citations": [
        {"n": 1, "source": "q3_report.pdf", "location": "p. 4", "quote": "Revenue: 11.6 M€", "evidence": 1},
        {"n": 2, "source": "q3_report.pdf", "location": "p. 5", "quote": "Q2: 10.9 M€", "evidence": 1},
    ],
    "unsupported": ["12.4 M€"],
    "grounding": "partly",
}
CAUTIONS = [
    {"kind": "unsupported", "text": "12.4 M€ is in no source.", "draft_only": False},
    {"kind": "replaced", "text": "The draft named the wrong quarter.", "draft_only": True},
]


def fill(url: str) -> dict[str, str]:
    """alice rates two answers of one conversation (one of them twice) and leaves one unrated; bob rates his own."""
    store = ConversationStore(url)
    conv = store.create("alice", "", "reports", {"language": "fr"})
    turns = [
        {"id": "u1", "role": "user", "content": "Quel est le chiffre d'affaires du T3 ?"},
        {"id": "a1", "role": "assistant", "answer": "11,6 M€ [1], contre 12,4 M€", "grounding": GROUNDING},
        {"id": "u2", "role": "user", "content": "Et au T2 ?"},
        {"id": "a2", "role": "assistant", "answer": "10,9 M€ [2]", "cautions": CAUTIONS},
        {"id": "u3", "role": "user", "content": "Merci"},
        {"id": "a3", "role": "assistant", "answer": "De rien."},
    ]
    for turn in turns:
        store.save_turn("alice", conv.id, turn)
    store.set_feedback("alice", conv.id, "a1", "up", "first look")
    store.set_feedback("alice", conv.id, "a2", "up")
    store.set_feedback("alice", conv.id, "a1", "down", 'Le 12,4 M€ est inventé. <b>"quoted"</b>\nSecond line.')
    other = store.create("bob", "bob's")
    store.save_turn("bob", other.id, {"id": "u1", "role": "user", "content": "bob's question"})
    store.save_turn("bob", other.id, {"id": "a1", "role": "assistant", "answer": "bob's answer"})
    store.set_feedback("bob", other.id, "a1", "down", "bob's comment")
    store.close()
    return {"alice": conv.id, "bob": other.id}


def lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_jsonl_holds_each_rated_answer_with_its_question_grounding_and_comment(tmp_path):
    url = f"sqlite:///{tmp_path / 'app.db'}"
    ids = fill(url)
    proc = cli("feedback", "--format", "jsonl", "--user", "alice", env={"DATABASE_URL": url})
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    cases = lines(proc.stdout)
    assert [(c["turn_id"], c["rating"]) for c in cases] == [("a2", "up"), ("a1", "down")]  # oldest rating first
    a2, a1 = cases
    assert a1["question"] == "Quel est le chiffre d'affaires du T3 ?" and a1["language"] == "fr"
    assert a1["answer"] == "11,6 M€ [1], contre 12,4 M€" and a1["theme"] == "reports"
    assert a1["comment"] == 'Le 12,4 M€ est inventé. <b>"quoted"</b>\nSecond line.'
    assert a1["grounding"] == {
        "verdict": "partly",
        "unsupported": ["12.4 M€"],
        "invented_sources": [],
        "cautions": [],
        "notes": [],
    }
    assert [c["quote"] for c in a1["citations"]] == ["Revenue: 11.6 M€", "Q2: 10.9 M€"]
    assert a1["sources"] == ["q3_report.pdf"]
    assert a1["conversation_id"] == ids["alice"] and a1["rated_at"]
    assert a1["id"].startswith("feedback_") and a1["id"] == a1["id"].lower() and len(a1["id"]) <= 60
    assert a2["question"] == "Et au T2 ?" and a2["comment"] == ""
    assert a2["grounding"]["cautions"] == [{"kind": "unsupported", "text": "12.4 M€ is in no source."}]
    assert a2["grounding"]["notes"] == [{"kind": "replaced", "text": "The draft named the wrong quarter."}]
    assert a2["grounding"]["verdict"] == "none" and a2["citations"] == [] and a2["sources"] == []
    assert "bob" not in proc.stdout


def test_json_format_rating_filter_and_the_default_user(tmp_path):
    url = f"sqlite:///{tmp_path / 'app.db'}"
    fill(url)
    proc = cli("feedback", "--format", "json", "--user", "alice", "--rating", "down", env={"DATABASE_URL": url})
    assert proc.returncode == 0, proc.stderr
    assert [c["turn_id"] for c in json.loads(proc.stdout)] == ["a1"]
    # no --user: the app's local user, who rated nothing here
    proc = cli("feedback", env={"DATABASE_URL": url})
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    proc = cli("feedback", "--format", "json", env={"DATABASE_URL": url})
    assert (proc.returncode, json.loads(proc.stdout)) == (0, [])


def test_another_user_sees_only_their_own_ratings(tmp_path):
    url = f"sqlite:///{tmp_path / 'app.db'}"
    ids = fill(url)
    proc = cli("feedback", "--user", "bob", env={"DATABASE_URL": url})
    assert proc.returncode == 0, proc.stderr
    assert [(c["conversation_id"], c["comment"]) for c in lines(proc.stdout)] == [(ids["bob"], "bob's comment")]
    proc = cli("feedback", "--user", "mallory", env={"DATABASE_URL": url})
    assert (proc.returncode, proc.stdout) == (0, "")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--format", "csv"], "invalid choice: 'csv'"),
        (["--rating", "meh"], "'up' or 'down'"),
        (["--user", "a\nb"], "one line"),
        (["--user", "x" * 500], "at most 200 characters"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, words, tmp_path):
    url = f"sqlite:///{tmp_path / 'app.db'}"
    proc = cli("feedback", *args, env={"DATABASE_URL": url})
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and words in proc.stderr


def test_an_unreachable_database_exits_3_with_one_line(tmp_path):
    proc = cli("feedback", env={"DATABASE_URL": "postgresql://nobody:secret-pw@127.0.0.1:9/none"})
    assert proc.returncode == 3
    assert len(proc.stderr.strip().splitlines()) == 1 and "cannot be reached" in proc.stderr
    assert "secret-pw" not in proc.stderr


def test_jsonl_from_postgresql(pg_server):
    url = pg_server.create_database()
    fill(url)
    proc = cli("feedback", "--user", "alice", env={"DATABASE_URL": url})
    assert proc.returncode == 0, proc.stderr
    assert [(c["turn_id"], c["rating"], c["question"]) for c in lines(proc.stdout)] == [
        ("a2", "up", "Et au T2 ?"),
        ("a1", "down", "Quel est le chiffre d'affaires du T3 ?"),
    ]
