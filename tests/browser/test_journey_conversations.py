"""The conversation list and deletions in a real browser (headless Chromium), written
from issue 19's journey: the export after switching conversations is the one on
screen, an answer is drawn once, a rename updates the heading, the highlight follows,
full-text search finds a conversation by a word of its turns, deleting a conversation
deletes its files (and says so), and the Index browser asks before deleting a document.
Screenshots are kept in artefacts/."""

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTEFACTS, start_app, stop_app, wait_healthy

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DOC = "# Operations\n\n## Shipping\n\nParcels to Norway take nine working days by road.\n"


def shot(page, n, name):
    page.screenshot(path=str(ARTEFACTS / f"conversations-{n}-{name}.png"), full_page=True)


@pytest.fixture
def app_with_a_theme(fake_server, tmp_path):
    """The app over a theme ``ops`` whose one document is already indexed."""
    from engine.rag.ingest import ingest_paths
    from engine.rag.manager import IndexManager

    themes = tmp_path / "themes"
    (themes / "ops").mkdir(parents=True)
    (themes / "ops" / "shipping.md").write_text(DOC)
    manager = IndexManager(root=tmp_path / "indexes")
    ingest_paths("ops", [themes / "ops" / "shipping.md"], base=themes / "ops", manager=manager)
    manager.close()
    url, proc = start_app(fake_server, tmp_path, THEMES_ROOT=str(themes))
    wait_healthy(url, proc, tmp_path)
    yield url
    stop_app(proc)


def conversation_id(page) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if "c=" in page.url:
            return page.url.split("c=")[1].split("&")[0]
        time.sleep(0.2)
    raise AssertionError(f"no conversation in the URL: {page.url}")


def ask(page, question: str, wait_for: str) -> str:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    page.get_by_text(wait_for, exact=False).first.wait_for(timeout=240000)  # the first includes warm-up
    page.get_by_text(" tokens · ", exact=False).last.wait_for(timeout=60000)  # the footer: the turn has ended
    return conversation_id(page)


def visible(page, text: str) -> int:
    return sum(1 for element in page.get_by_text(text, exact=False).all() if element.is_visible())


def settle(page) -> None:
    """Wait for the script run to end: until then the page may still show the last run's elements, faded."""
    page.wait_for_timeout(500)
    page.get_by_test_id("stStatusWidget").wait_for(state="hidden", timeout=60000)
    page.wait_for_timeout(500)


def lit(page, cid: str) -> bool:
    """Whether the conversation's row is highlighted (drawn as the primary button)."""
    settle(page)
    buttons = page.locator(f".st-key-conv_open_{cid} [data-testid='stBaseButton-primary']").all()
    return any(button.is_visible() for button in buttons)


def row(page, cid: str):
    return page.locator(f".st-key-conv_open_{cid}")


def test_the_conversation_list_journey(app_with_a_theme, fake_server, page, tmp_path):
    fake_server.script.extend(
        [
            {
                "text": "Thought: I multiply.",
                "tool_calls": [{"id": "c1", "name": "calculator", "arguments": '{"expression": "17*23"}'}],
            },
            {"text": "Answer: 17 * 23 = 391.\n\nThat is the product of the two."},
            {"text": "Answer: The Grand Hotel by the harbour."},
        ]
    )
    page.goto(app_with_a_theme)
    page.get_by_test_id("stChatInputTextArea").wait_for(timeout=60000)

    # 1. a single answer: the marked one, not a plain copy under it
    first = ask(page, "What is 17*23?", "That is the product")
    settle(page)
    assert visible(page, "That is the product") == 1  # not drawn again as plain text
    assert visible(page, "391⁽¹⁾") == 1
    shot(page, 1, "single-answer")

    # 2. a second conversation; the highlight follows "New conversation" and the new one
    page.locator(".st-key-conv_new button").click()
    page.get_by_role("heading", name="What is 17*23?").first.wait_for(state="detached", timeout=30000)
    assert not lit(page, first)
    second = ask(page, "Which hotel in Oslo?", "Grand Hotel by the harbour")
    assert second != first
    assert lit(page, second) and not lit(page, first)

    # 3. switch back to the first, then export: the file is the conversation on screen
    row(page, first).locator("button").first.click()
    page.get_by_role("heading", name="What is 17*23?").first.wait_for(timeout=30000)
    assert lit(page, first) and not lit(page, second)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_test_id("stExpander").filter(has_text="Export").locator("summary").click()
    with page.expect_download(timeout=30000) as download:
        sidebar.get_by_role("button", name="Markdown").click()
    exported = Path(download.value.path()).read_text()
    assert "# What is 17*23?" in exported and "That is the product" in exported
    assert "Oslo" not in exported
    shot(page, 3, "switched-and-exported")

    # 4. the row's menu shows its icon; a rename updates the heading at once
    settle(page)
    menu = page.locator(f".st-key-conv_menu_{first} button").first
    assert menu.get_by_test_id("stIconMaterial").first.inner_text() == "more_vert"  # the icon, drawn
    assert menu.bounding_box()["width"] > 30
    menu.click()
    title = page.locator(f".st-key-conv_title_{first} input")
    title.fill("Multiplication")
    title.press("Enter")
    page.locator(f".st-key-conv_rename_{first} button").click()
    page.get_by_role("heading", name="Multiplication").first.wait_for(timeout=30000)
    shot(page, 4, "renamed")

    # 5. full-text search: a word of the second conversation's answer, not of its title
    search = page.locator(".st-key-conv_search input")
    search.fill("harbour")
    search.press("Enter")
    row(page, first).first.wait_for(state="detached", timeout=30000)
    expect(row(page, second).first).to_be_visible(timeout=30000)
    search.fill('NEAR( "*')
    search.press("Enter")
    page.get_by_text("No conversation matches this search.").wait_for(timeout=30000)
    assert page.get_by_test_id("stException").count() == 0
    search.fill("")
    search.press("Enter")
    row(page, first).first.wait_for(timeout=30000)
    shot(page, 5, "searched")

    # 6. delete the second conversation: its files go with it, and the confirmation says so
    folder = tmp_path / "attachments" / second
    (folder / "files").mkdir(parents=True)
    (folder / "files" / "fleet.csv").write_text("region,amount\nNorth,120\n")
    (folder / "index").mkdir()
    settle(page)
    page.locator(f".st-key-conv_menu_{second} button").first.click()
    page.locator(f".st-key-conv_delete_{second} button").wait_for(timeout=30000)
    settle(page)  # the rerun that opening the menu asks for ends before Delete is clicked, as a person's would
    page.locator(f".st-key-conv_delete_{second} button").click()
    warning = page.get_by_text("1 attached file(s)", exact=False)
    warning.wait_for(timeout=30000)
    settle(page)
    # the menu closes over the question (it takes a rerun: waited for, and it must happen)
    page.locator(f".st-key-conv_rename_{second}").wait_for(state="hidden", timeout=30000)
    shot(page, 6, "delete-asked")
    assert folder.exists()
    page.locator(".st-key-conv_yes button").click()
    row(page, second).first.wait_for(state="detached", timeout=30000)
    assert not folder.exists()

    # 7. the Index browser asks before deleting a document
    document = tmp_path / "themes" / "ops" / "shipping.md"
    page.get_by_role("link", name="Index browser").click()
    delete = page.locator(".st-key-delete_doc button")
    delete.wait_for(timeout=60000)
    delete.click()
    page.get_by_text("Delete shipping.md from theme ops?", exact=False).wait_for(timeout=30000)
    assert document.exists()
    shot(page, 7, "document-delete-asked")
    page.locator(".st-key-delete_doc_yes button").click()
    page.get_by_text("Deleted shipping.md.", exact=False).wait_for(timeout=60000)
    assert not document.exists()
