"""The analyst's journey in a real browser (headless Chromium), screenshots kept in
artefacts/: drop a CSV into the chat, ask a question that needs query_table, see the
table and the chart, copy the answer, regenerate it and switch between its two versions,
stop a run, switch to French."""

import json
import time

import pytest

from tests.browser.conftest import ARTEFACTS, drop_file

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CSV = "region,month,amount\nNorth,2025-01,120\nNorth,2025-02,130\nSouth,2025-01,90\nSouth,2025-02,95\nEast,2025-01,60\n"
SQL = "SELECT region, SUM(amount) AS total FROM fleet GROUP BY region ORDER BY total DESC"


def shot(page, n, name):
    page.screenshot(path=str(ARTEFACTS / f"journey-{n}-{name}.png"), full_page=True)


def visible(page, text: str) -> bool:
    return any(element.is_visible() for element in page.get_by_text(text, exact=False).all())


def test_the_analyst_journey(streamlit_app, fake_server, page, tmp_path):
    csv = tmp_path / "fleet.csv"
    csv.write_text(CSV)
    fake_server.script.extend(
        [
            {
                "text": "Thought: I sum the amounts by region.",
                "tool_calls": [{"id": "q1", "name": "query_table", "arguments": json.dumps({"sql": SQL})}],
            },
            {"text": "Answer: North leads with a total of 250."},
            {"text": "Answer: Regenerated: North has the largest total, 250."},
            {
                "text": "Thought: long.\nAnswer: Start of a long answer. " + " ".join(f"w{i}" for i in range(3000)),
                "delay_s": 0.05,
            },
        ]
    )
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(streamlit_app)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)

    # 1. drop a CSV into the chat, with a question
    drop_file(page, csv)
    box.fill("Total amount by region in fleet.csv?")
    shot(page, 1, "csv-dropped")
    box.press("Enter")

    # 2-3. the question needs query_table; its table and the chart show
    page.get_by_text("North leads with a total of", exact=False).first.wait_for(timeout=240000)  # includes warm-up
    table = page.locator("[data-testid='stExpander']", has=page.locator("[data-testid='stDataFrame']")).first
    table.wait_for(timeout=120000)  # a loaded machine can take long to draw the Observation's table
    table.locator("summary").click()
    table.get_by_test_id("stDataFrame").wait_for(timeout=30000)
    page.locator("[data-testid='stVegaLiteChart'], .vega-embed").first.wait_for(timeout=30000)
    request = fake_server.requests[0]
    described = next(t for t in request["tools"] if t["function"]["name"] == "query_table")["function"]["description"]
    assert "fleet(" in described  # the dropped CSV became a table at once
    shot(page, 3, "table-and-chart")

    # 4. copy the answer
    page.get_by_role("button", name="content_copy").last.click()
    code = page.get_by_test_id("stCode").last
    code.hover()
    code.get_by_role("button", name="Copy to clipboard").click(force=True)
    time.sleep(0.5)
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "North leads with a total of 250." in copied
    shot(page, 4, "copied")
    page.keyboard.press("Escape")

    # 5. regenerate it
    page.get_by_role("button", name="refresh").last.click()
    page.get_by_text("Regenerated: North has the largest total", exact=False).first.wait_for(timeout=60000)
    page.get_by_test_id("stStatusWidget").wait_for(state="hidden", timeout=60000)  # the rerun has ended
    deadline = time.monotonic() + 30  # the last run's elements may linger, faded, for a moment after it
    while time.monotonic() < deadline and visible(page, "North leads with a total of"):
        page.wait_for_timeout(250)
    assert not visible(page, "North leads with a total of")  # a second version, not drawn beside the new one
    shot(page, 5, "regenerated")
    versions = page.locator("[class*='st-key-branches-']").last
    versions.get_by_text("2/2").wait_for(timeout=30000)  # a loaded machine draws the versions after the answer
    runs = len(fake_server.requests)
    versions.get_by_role("button", name="‹").click()  # the first answer is one click away, not run again
    page.get_by_text("North leads with a total of", exact=False).first.wait_for(timeout=30000)
    page.get_by_test_id("stStatusWidget").wait_for(state="hidden", timeout=60000)
    assert len(fake_server.requests) == runs and not visible(page, "Regenerated: North has the largest total")
    page.locator("[class*='st-key-branches-']").last.get_by_role("button", name="›").click()
    page.get_by_text("Regenerated: North has the largest total", exact=False).first.wait_for(timeout=30000)
    page.get_by_test_id("stStatusWidget").wait_for(state="hidden", timeout=60000)

    # 6. stop a run
    box.fill("Write a long report")
    box.press("Enter")
    page.get_by_text("Start of a long answer", exact=False).first.wait_for(timeout=60000)
    # the run has its Stop below it while it goes (its answer streams for about 3 minutes); on a
    # loaded machine the page may take a while to say the script is running
    page.locator(".st-key-run_stop button").first.click(timeout=120000)
    page.get_by_text("Stopped: the run was interrupted", exact=False).wait_for(timeout=30000)
    shot(page, 6, "stopped")

    # 7. switch to French
    page.get_by_role("link", name="Settings").click()
    page.get_by_text("Language of answers").wait_for(timeout=30000)
    page.get_by_test_id("stSelectbox").nth(1).click()
    page.get_by_role("option", name="Français").click()
    page.get_by_role("heading", name="Réglages").wait_for(timeout=30000)
    page.get_by_role("link", name="Discussion").wait_for(timeout=30000)
    page.get_by_role("link", name="Discussion").click()
    page.get_by_placeholder("Posez une question", exact=False).wait_for(timeout=30000)
    page.get_by_text("Afficher le raisonnement", exact=False).first.wait_for(timeout=30000)
    shot(page, 7, "french")
    assert "sk-browser-secret" not in page.content()
