"""The report journey in a real browser (headless Chromium) with the default embedded
backend (no MISTRAL key): a CSV dropped into the chat is the table the next question
queries, with the month it names; a caution about an answer stays visible with Show
Thoughts off, in the chat and in the Markdown export. Screenshots go to artefacts/.

The 270M model runs in the app itself. On a shared 2-core machine every model call takes
up to a minute, so the app runs with one model step per question (``max_iterations`` in
models.json); the engine's own first step, the answer check and the fallback to the
engine's result are the ones every embedded run takes."""

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTEFACTS, ROOT, drop_file, start_app, stop_app, wait_healthy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ANSWER_TIMEOUT_MS = 900_000  # model warm-up and two embedded model calls on a loaded machine
THEME_TOTAL = "48,196,900"  # the sum of the theme's own sales table: never the answer here


def orders_csv(path: Path) -> int:
    """Orders dated by day across four months and three regions; returns the March total."""
    rng = random.Random(7)
    rows, march = ["date,region,product,revenue"], 0
    for month in (1, 2, 3, 4):
        for day in (3, 11, 19, 27):
            for region in ("North", "South", "East"):
                value = rng.randint(1000, 9999)
                march += value if month == 3 else 0
                rows.append(f"2025-{month:02d}-{day:02d},{region},Widget,{value}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return march


def shot(page, n, name):
    page.screenshot(path=str(ARTEFACTS / f"journey-reports-{n}-{name}.png"), full_page=True)


@pytest.fixture
def embedded_app(fake_server, tmp_path):
    """The app on the embedded model: the Mistral key is empty, so nothing reaches ``fake_server``."""
    env = {"MISTRAL_API_KEY": "", "INDEX_ROOT": str(tmp_path / "indexes"), "MODELS_JSON": str(tmp_path / "models.json")}
    (tmp_path / "models.json").write_text(json.dumps({"engine": {"max_iterations": 1}}), encoding="utf-8")
    prepared = subprocess.run(
        [sys.executable, "-m", "engine", "prepare"], cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True
    )
    assert prepared.returncode == 0, prepared.stderr[-2000:]  # the demo theme's index, built in tmp_path
    url, proc = start_app(fake_server, tmp_path, **env)
    wait_healthy(url, proc, tmp_path, timeout_s=120)
    yield url
    stop_app(proc)
    assert not fake_server.requests  # the embedded model answered, not the Mistral path


def ended(page, question: str) -> None:
    """Wait for the run that answers ``question`` to end: its footer ("1 step · 2,403 tokens · …") is drawn last."""
    page.get_by_test_id("stChatMessage").filter(has_text=question).last.wait_for(timeout=120000)
    page.get_by_test_id("stChatMessage").last.get_by_text(" tokens · ", exact=False).wait_for(timeout=ANSWER_TIMEOUT_MS)
    page.wait_for_timeout(2000)


def answer_text(page) -> str:
    """The last message's text once it is whole: a rerun may redraw it empty for a moment."""
    last = page.get_by_test_id("stChatMessage").last
    expect(last).to_contain_text(" tokens · ", timeout=30000)  # its footer, drawn last
    return last.inner_text()


def test_a_dropped_csv_answers_for_its_month_and_cautions_stay_visible_with_thoughts_off(embedded_app, page, tmp_path):
    csv = tmp_path / "orders.csv"
    march = orders_csv(csv)
    page.goto(embedded_app)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=120000)

    # 1. drop a CSV with a date and a region column, with a question about one month
    drop_file(page, csv)
    box.fill("What was the total revenue in March?")
    shot(page, 1, "csv-dropped")
    box.press("Enter")
    ended(page, "What was the total revenue in March?")

    # Show Thoughts off: the answer and its cautions must stand without the trace
    toggle = page.get_by_test_id("stSidebar").locator("[data-testid='stCheckbox']", has_text="Show Thoughts")
    toggle.get_by_text("Show Thoughts").click()
    expect(toggle.locator("input")).not_to_be_checked(timeout=30000)
    page.wait_for_timeout(3000)  # the rerun without the trace
    answer = answer_text(page)
    assert f"{march:,}" in answer  # the March sum of the dropped file
    assert "orders.csv" in answer and "March" in answer  # stated with the file and the month it filtered on
    assert THEME_TOTAL not in page.content()  # not the theme's table
    mark = page.get_by_test_id("stChatMessage").last.locator("a[href^='#fn-']").first
    mark.wait_for(timeout=30000)
    anchor = mark.get_attribute("href")[1:]
    mark.click()  # the footnote mark opens its line, which quotes the rows of the dropped file
    page.wait_for_function(f"location.hash === '#{anchor}'", timeout=10000)
    footnote = page.locator(f"[id='{anchor}']").locator("xpath=following::*[contains(., 'orders.csv')][1]").first
    footnote.wait_for(timeout=30000)
    quoted = footnote.inner_text()
    assert "orders.csv" in quoted and f"{march:,}" in quoted
    shot(page, 2, "march-answer")

    # 2. a period the plan cannot filter on: the answer carries a caution, shown with Thoughts off
    box.fill("What was the total revenue in March and April?")
    box.press("Enter")
    ended(page, "What was the total revenue in March and April?")
    last = page.get_by_test_id("stChatMessage").last
    expect(last.get_by_text("does not filter on the period", exact=False).first).to_be_visible(timeout=30000)
    assert not last.get_by_text("Thought:", exact=False).count()  # the trace is hidden
    shot(page, 3, "caution-thoughts-off")

    # 3. the Markdown export without Thoughts keeps both answers, the citation and the caution
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Export", exact=True).click()
    with page.expect_download(timeout=60000) as download:
        sidebar.get_by_role("button", name="Markdown").click()
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    assert "What was the total revenue in March?" in exported
    assert f"{march:,}" in exported and "orders.csv" in exported
    assert "Thought:" not in exported  # exported without the trace
    cautions = [line for line in exported.splitlines() if line.startswith("> **Caution:**")]
    assert any("does not filter on the period" in line for line in cautions)
    (ARTEFACTS / "journey-reports-export.md").write_text(exported, encoding="utf-8")
    shutil.copy(tmp_path / "streamlit.log", ARTEFACTS / "journey-reports-streamlit.log")
