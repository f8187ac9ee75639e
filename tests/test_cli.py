"""``python -m engine`` as a user runs it, in a subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cli(*args, env=None, timeout=240, stdin=None):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("MISTRAL_", "OPENAI_"))}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        input=stdin,
    )


def mistral_env(server):
    return {
        "MISTRAL_API_KEY": "sk-cli-secret",
        "MISTRAL_SERVER_URL": f"http://127.0.0.1:{server.port}",
        "LLM_MAX_RETRY_S": "0.5",
    }


def jsonl(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def test_jsonl_blocks_and_done_object(fake_server):
    fake_server.script.extend(
        [
            {
                "text": "Thought: multiply",
                "tool_calls": [{"id": "k1", "name": "calculator", "arguments": '{"expression": "17*23"}'}],
            },
            {"text": "Answer: 391"},
        ]
    )
    proc = cli("ask", "What is 17*23?", "--format", "jsonl", env=mistral_env(fake_server))
    assert proc.returncode == 0, proc.stderr
    lines = jsonl(proc.stdout)
    assert [line["type"] for line in lines] == ["thought", "action", "action_input", "observation", "answer", "done"]
    done = lines[-1]
    assert done["status"] == "answered" and done["answer"] == "391" and done["iterations"] == 2
    assert done["usage"]["total_tokens"] > 0 and done["elapsed"] >= 0
    assert done["grounding"] == "verified" and done["citations"] and done["unsupported"] == []
    assert done["cautions"] == []  # a traced answer carries no caution
    assert "sk-cli-secret" not in proc.stdout + proc.stderr


def test_the_done_object_carries_the_cautions_about_the_answer(fake_server):
    fake_server.script.extend(
        [
            {"tool_calls": [{"id": "k1", "name": "calculator", "arguments": '{"expression": "17*23"}'}]},
            {"text": "Answer: 17 * 23 = 291"},
        ]
    )
    proc = cli("ask", "What is 17*23?", "--format", "jsonl", env=mistral_env(fake_server))
    assert proc.returncode == 0, proc.stderr
    done = jsonl(proc.stdout)[-1]
    assert done["answer"] == "17 * 23 = 291" and done["unsupported"] == ["291"]  # the existing fields stay
    assert done["cautions"] == [
        {"kind": "unsupported", "text": "Not verified: 291 does not follow from 17 * 23, which is 391."}
    ]


def test_answer_user_resumes_suspended_runs(fake_server):
    fake_server.script.extend(
        [
            {"tool_calls": [{"id": "ask1", "name": "ask_user", "arguments": '{"question": "Which year?"}'}]},
            {"text": "Answer: 2025 it is"},
        ]
    )
    proc = cli("ask", "Revenue?", "--format", "jsonl", "--answer-user", "2025", env=mistral_env(fake_server))
    assert proc.returncode == 0, proc.stderr
    lines = jsonl(proc.stdout)
    assert {"type": "observation", "content": "2025"} in lines
    assert lines[-1]["status"] == "answered" and lines[-1]["answer"] == "2025 it is"
    assert lines[-1]["iterations"] == 2


def test_suspension_with_no_reply_left_exits_zero_and_asks(fake_server):
    fake_server.script.append(
        {"tool_calls": [{"id": "ask1", "name": "ask_user", "arguments": '{"question": "Which year?"}'}]}
    )
    proc = cli("ask", "Revenue?", "--format", "jsonl", env=mistral_env(fake_server))
    assert proc.returncode == 0
    assert jsonl(proc.stdout)[-1]["status"] == "suspended"
    assert proc.stderr.strip() == "The agent asks: Which year?"


def test_history_file_is_used(fake_server, tmp_path):
    history = tmp_path / "h.json"
    history.write_text(
        json.dumps(
            [
                {"role": "user", "content": "Our fiscal year starts in April."},
                {"role": "assistant", "content": "Noted."},
            ]
        )
    )
    fake_server.script.append({"text": "Answer: April"})
    proc = cli("ask", "When does it start?", "--history", str(history), env=mistral_env(fake_server))
    assert proc.returncode == 0
    sent = fake_server.requests[0]["messages"]
    assert sent[1] == {"role": "user", "content": "Our fiscal year starts in April."}
    assert "April" in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("ask",),
        ("ask", "q", "--format", "xml"),
        ("ask", "q", "--history", "/nonexistent/file.json"),
        ("ask", "   "),
        ("frobnicate",),
    ],
)
def test_bad_input_exits_2_with_one_line(args):
    proc = cli(*args)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stderr.startswith("error:")


def test_malformed_history_exits_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a list"}')
    proc = cli("ask", "q", "--history", str(bad))
    assert proc.returncode == 2 and "must be a JSON list" in proc.stderr


def test_unreachable_backend_exits_3_with_one_line():
    proc = cli("ask", "q", env={"MISTRAL_API_KEY": "sk-secret-x", "MISTRAL_SERVER_URL": "http://127.0.0.1:9"})
    assert proc.returncode == 3
    assert proc.stderr.strip().splitlines() == [
        "error: Cannot reach the Mistral server at 127.0.0.1:9; is it running and is the address right?"
    ]
    assert "sk-secret-x" not in proc.stdout + proc.stderr
    assert "Error: Cannot reach" in proc.stdout


@pytest.mark.slow
def test_embedded_gemma_answers_through_the_cli():
    """A real llama.cpp run of the embedded model; it must end with an Answer block."""
    proc = cli("ask", "What is 17 * 23?", "--format", "jsonl", timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = jsonl(proc.stdout)
    assert lines[-1]["type"] == "done" and lines[-1]["status"] == "answered"
    assert lines[-2]["type"] in ("answer", "final_answer") and lines[-2]["content"].strip()
    assert lines[-1]["answer"].strip()
    assert proc.stderr.strip() == ""


def test_ingest_then_ask_on_the_demo_theme_cites_its_source(fake_server, tmp_path):
    """End to end: the CLI ingests the demo corpus, the agent searches it, and the answer
    (only in the corpus) cites its source file."""
    env = {"INDEX_ROOT": str(tmp_path / "indexes"), "MCP_SERVERS": "off"}
    proc = cli("ingest", "--theme", "handbook", "data/themes/handbook", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "4 added" in proc.stdout and "0 skipped" in proc.stdout
    again = cli("ingest", "--theme", "handbook", "data/themes/handbook", env=env)
    assert "4 unchanged" in again.stdout and "0 chunks embedded" in again.stdout

    fake_server.script.extend(
        [
            {
                "text": "Thought: The policy is in the handbook.",
                "tool_calls": [
                    {"id": "s1", "name": "search_docs", "arguments": '{"query": "hotel cost cap per night Paris"}'}
                ],
            },
            {"answer_from_observation": "160 euros"},
        ]
    )
    proc = cli(
        "ask",
        "What is the hotel cap per night in Paris?",
        "--theme",
        "handbook",
        "--format",
        "jsonl",
        env=env | mistral_env(fake_server),
    )
    assert proc.returncode == 0, proc.stderr
    lines = jsonl(proc.stdout)
    observation = next(line for line in lines if line["type"] == "observation")
    assert (
        "source: analyst_handbook.md · Halden & Co. Analyst Handbook > Expense policy > Travel"
        in observation["content"]
    )
    done = lines[-1]
    assert done["status"] == "answered"
    assert "160 euros per night in Paris" in done["answer"] and "[analyst_handbook.md]" in done["answer"]
    assert "cite it in the answer as [source]" in fake_server.requests[0]["messages"][0]["content"]


def test_ingest_reports_bad_files_and_missing_paths(tmp_path):
    env = {"INDEX_ROOT": str(tmp_path / "indexes")}
    (tmp_path / "empty.md").write_text("")
    (tmp_path / "ok.md").write_text("# Fine\n\nSome content.")
    proc = cli("ingest", "--theme", "xx", str(tmp_path / "empty.md"), str(tmp_path / "ok.md"), env=env)
    assert proc.returncode == 0
    assert "skipped: empty.md: the file is empty." in proc.stdout and "1 added" in proc.stdout
    missing = cli("ingest", "--theme", "xx", str(tmp_path / "nope.md"), env=env)
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_ingest_then_ask_on_pgvector_finds_the_document(fake_server, pg_server, tmp_path):
    """VECTOR_STORE=pgvector: the CLI ingests into PostgreSQL (no FAISS file), a re-ingest of a
    changed file replaces its chunks, and search_docs in an ``ask`` finds the new text."""
    env = {
        "VECTOR_STORE": "pgvector",
        "DATABASE_URL": pg_server.create_database("cli"),
        "INDEX_ROOT": str(tmp_path / "indexes"),
        "MCP_SERVERS": "off",
    }
    doc = tmp_path / "fleet.md"
    doc.write_text("# Fleet\n\n## Trucks\n\nThe fleet has 41 electric trucks.\n")
    proc = cli("ingest", "--theme", "fleet", str(doc), env=env)
    assert proc.returncode == 0, proc.stderr
    assert "1 added" in proc.stdout
    doc.write_text("# Fleet\n\n## Trucks\n\nThe fleet has 57 electric trucks since May.\n")
    proc = cli("ingest", "--theme", "fleet", str(doc), env=env)
    assert "1 replaced" in proc.stdout and "1 chunks embedded" in proc.stdout
    assert not (tmp_path / "indexes").exists()

    fake_server.script.extend(
        [
            {
                "text": "Thought: The fleet document says.",
                "tool_calls": [{"id": "s1", "name": "search_docs", "arguments": '{"query": "electric trucks count"}'}],
            },
            {"text": "Answer: The fleet has 57 electric trucks [fleet.md]."},
        ]
    )
    proc = cli(
        "ask", "How many electric trucks?", "--theme", "fleet", "--format", "jsonl", env=env | mistral_env(fake_server)
    )
    assert proc.returncode == 0, proc.stderr
    observation = next(line for line in jsonl(proc.stdout) if line["type"] == "observation")["content"]
    assert "source: fleet.md · Fleet > Trucks" in observation
    assert "57 electric trucks since May" in observation and "41 electric" not in observation


def test_ingest_with_a_dead_vector_store_exits_3_with_one_line(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\nText.\n")
    env = {"VECTOR_STORE": "pgvector", "DATABASE_URL": f"postgresql://ana:s3cr3t-pw@/analyst?host={tmp_path}"}
    proc = cli("ingest", "--theme", "ops", str(tmp_path / "a.md"), env=env)
    assert proc.returncode == 3
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: The vector store (PostgreSQL at")
    assert "cannot be reached" in lines[0] and "s3cr3t-pw" not in proc.stderr + proc.stdout
    unknown = cli("ingest", "--theme", "ops", str(tmp_path / "a.md"), env={"VECTOR_STORE": "chroma"})
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == "error: VECTOR_STORE='chroma' is not known; use faiss or pgvector."


def test_ask_dash_reads_a_long_question_from_stdin(fake_server):
    fake_server.script.append({"text": "Answer: read it"})
    question = "Summarise this: " + "figures and words " * 1500 + "END-OF-QUESTION"  # 27,000 characters
    proc = cli("ask", "-", "--format", "jsonl", env=mistral_env(fake_server), stdin=question)
    assert proc.returncode == 0, proc.stderr
    assert jsonl(proc.stdout)[-1]["answer"] == "read it"
    sent = fake_server.requests[0]["messages"][-1]["content"]
    assert "END-OF-QUESTION" in sent and len(sent) >= len(question)


def test_a_question_over_the_limit_is_cut_and_the_run_says_so(fake_server):
    fake_server.script.append({"text": "Answer: read it"})
    question = "Summarise this: " + "figures and words " * 11_000 + "END-OF-QUESTION"  # 198,000 characters
    proc = cli("ask", "-", "--format", "jsonl", env=mistral_env(fake_server), stdin=question)
    assert proc.returncode == 0, proc.stderr
    lines = jsonl(proc.stdout)
    assert lines[-1]["answer"] == "read it"
    assert any(x["type"] == "warning" and "The question was too long" in x["content"] for x in lines)
    sent = fake_server.requests[0]["messages"][-1]["content"]
    assert "END-OF-QUESTION" not in sent and sent.startswith("Summarise this:") and len(sent) <= 8000 * 4


def test_ask_dash_with_empty_or_undecodable_stdin_exits_2():
    assert cli("ask", "-", stdin="   ").returncode == 2
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "ask", "-"], cwd=ROOT, input=b"\xff\xfe\xfa", capture_output=True, timeout=120
    )
    assert proc.returncode == 2 and proc.stderr.decode().strip() == "error: the question on stdin is not UTF-8 text"


@pytest.mark.parametrize("theme", ["x" * 300, "/tmp/t", "../x", "", "a b"])
@pytest.mark.parametrize("command", ["ingest", "ask"])
def test_hostile_theme_names_exit_2_with_one_line(theme, command, tmp_path):
    args = ("ingest", "--theme", theme, "README.md") if command == "ingest" else ("ask", "q", "--theme", theme)
    proc = cli(*args, env={"INDEX_ROOT": str(tmp_path / "indexes")})
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: The theme name")
    assert not (tmp_path / "indexes").exists() or list((tmp_path / "indexes").iterdir()) == []


def test_deeply_nested_history_exits_2_with_one_line(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    proc = cli("ask", "q", "--history", str(deep))
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: history file {deep} is nested too deeply to be a conversation"
