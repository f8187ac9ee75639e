"""A team deployment in a real browser: two ``streamlit run app.py`` servers on two ports,
one PostgreSQL for the conversations (``DATABASE_URL``) and the indexes
(``VECTOR_STORE=pgvector``), no shared disk. They behave as one app: a conversation
goes on from one server to the other, a question asked on one is answered on the other
and the same run resumes, and documents added on one (an Index browser upload, a file dropped into the chat for
the theme) are found from the other."""

import json
import time

import pytest

from tests.browser.conftest import ARTEFACTS, drop_file, start_app, stop_app, wait_healthy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ASK = {
    "text": "Thought: I need the quarter.",
    "tool_calls": [
        {"id": "ask000042", "name": "ask_user", "arguments": '{"question": "Which quarter?", "choices": ["Q1", "Q3"]}'}
    ],
}
FLEET = "# Fleet\n\n## Trucks\n\nThe depot in Lyon runs the electric trucks of the northern routes.\n"
TOLLS = "# Tolls\n\nMotorway tolls for the trucks are paid by the depot card.\n"
SEARCH = {
    "text": "Thought: The fleet notes should say.",
    "tool_calls": [
        {"id": "s1", "name": "search_docs", "arguments": json.dumps({"query": "depot of the electric trucks"})}
    ],
}


@pytest.fixture
def two_servers(fake_server, pg_server, tmp_path):
    """Two app servers on one PostgreSQL database, each with its own data folder."""
    env = {"DATABASE_URL": pg_server.create_database("team"), "VECTOR_STORE": "pgvector"}
    started = []
    for name in ("one", "two"):
        folder = tmp_path / name
        (folder / "themes" / "handbook").mkdir(parents=True)  # an empty theme folder: the documents arrive by upload
        url, proc = start_app(fake_server, folder, THEMES_ROOT=str(folder / "themes"), **env)
        started.append((url, proc, folder))
    try:
        for url, proc, folder in started:
            wait_healthy(url, proc, folder)
        yield [url for url, _, _ in started]
    finally:
        for _, proc, _ in started:
            stop_app(proc)


def ask(page, question: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)
    box.fill(question)
    box.press("Enter")


def shown(page, text: str, timeout_ms: int = 60000) -> None:
    """Wait until ``text`` is visible (the same words may also sit in a collapsed Observation)."""
    page.get_by_text(text, exact=False).filter(visible=True).first.wait_for(timeout=timeout_ms)


def conversation_id(page) -> str:
    deadline = time.monotonic() + 30
    while "c=" not in page.url and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    return page.url.split("c=", 1)[1].split("&", 1)[0]


def test_two_servers_on_one_postgresql_behave_as_one_app(two_servers, fake_server, chromium, tmp_path):
    one, two = two_servers
    first = chromium.new_page(viewport={"width": 1100, "height": 1400})
    second = chromium.new_page(viewport={"width": 1100, "height": 1400})

    # (a) a conversation started on server one goes on on server two
    fake_server.script.extend([{"text": "Answer: Hello from server one."}, {"text": "Answer: Server two carries on."}])
    first.goto(one)
    ask(first, "Say hello")
    shown(first, "Hello from server one.", 120000)  # includes warm-up
    conversation = conversation_id(first)
    second.goto(f"{two}/?c={conversation}")
    shown(second, "Hello from server one.", 60000)  # the earlier turn, read from PostgreSQL
    ask(second, "And then?")
    shown(second, "Server two carries on.", 120000)
    history = fake_server.requests[-1]["messages"]
    assert ("assistant", "Hello from server one.") in [(m["role"], m.get("content")) for m in history]
    assert conversation_id(second) == conversation
    first.goto(f"{one}/?c={conversation}")  # and server one shows the turn server two added
    shown(first, "Server two carries on.", 60000)

    # (b) a question asked on server one is answered on server two, and the same run resumes
    fake_server.script.extend([ASK, {"text": "Answer: Noted, the third quarter it is."}])
    ask(first, "What was revenue?")
    shown(first, "Which quarter?", 60000)
    second.goto(f"{two}/?c={conversation}")
    shown(second, "Which quarter?", 60000)
    second.get_by_role("button", name="Q3").click()
    shown(second, "Noted, the third quarter it is.", 60000)
    resumed = fake_server.requests[-1]["messages"][-1]
    assert (resumed["role"], resumed["content"], resumed["tool_call_id"]) == ("tool", "Q3", "ask000042")
    second.screenshot(path=str(ARTEFACTS / "team-resumed-on-server-two.png"), full_page=True)

    # (c) a document uploaded in server one's Index browser is found from server two
    upload = tmp_path / "fleet.md"
    upload.write_text(FLEET)
    first.goto(f"{one}/index")
    first.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(str(upload))
    first.get_by_role("button", name="Ingest").click()
    shown(first, "1 added", 60000)
    assert not (tmp_path / "one" / "indexes").exists() and not (tmp_path / "two" / "indexes").exists()
    assert not (tmp_path / "two" / "themes" / "handbook" / "fleet.md").exists()  # no shared disk

    second.goto(f"{two}/index")  # server two's Index browser lists it
    shown(second, "fleet.md#", 60000)

    # and a file dropped into server one's chat, for the theme, too
    tolls = tmp_path / "tolls.md"
    tolls.write_text(TOLLS)
    fake_server.script.append({"text": "Answer: Filed."})
    first.goto(f"{one}/?c={conversation}")
    first.get_by_text("the theme", exact=True).click()
    drop_file(first, tolls)
    ask(first, "Please file this note.")
    shown(first, "Filed.")

    fake_server.script.extend([SEARCH, {"answer_from_observation": "depot"}])
    second.goto(f"{two}/?c={conversation}")
    ask(second, "Where are the electric trucks kept?")
    shown(second, "The depot in Lyon runs the electric trucks")
    observation = fake_server.requests[-1]["messages"][-1]["content"]
    assert "source: fleet.md · Fleet > Trucks" in observation
    assert "source: tolls.md · Tolls" in observation
    second.screenshot(path=str(ARTEFACTS / "team-found-on-server-two.png"), full_page=True)
    assert "sk-browser-secret" not in first.content() + second.content()
