"""Branches in a real browser (headless Chromium): an edited question and a regenerated
answer are new versions beside the old ones; ‹ n/N › switches between them without a
new run, and a reload reopens the branch the URL names. Screenshots are kept in artefacts/."""

import pytest

from tests.browser.conftest import ARTEFACTS
from tests.browser.test_journey_conversations import ask, settle, visible

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def shot(page, n: int, name: str) -> None:
    page.screenshot(path=str(ARTEFACTS / f"branches-{n}-{name}.png"), full_page=True)


def switcher(page, turn: str):
    """The ‹ n/N › row of the first (``question``) or last (``answer``) turn that has one."""
    rows = page.locator("[class*='st-key-branches-']")
    return rows.first if turn == "question" else rows.last


def shown(locator) -> bool:
    """Whether the element is drawn, waiting out the rerun that draws it: under load the
    answer's text can stand a moment before the run that adds its ‹ n/N › row ends."""
    locator.wait_for(state="visible", timeout=30000)
    return locator.is_visible()


def test_switching_branches_after_an_edit_and_after_a_regenerate(streamlit_app, fake_server, page):
    fake_server.script.extend(
        [
            {"text": "Answer: Paris is 180 euros."},
            {"text": "Answer: Lyon is 150 euros."},
            {"text": "Answer: Paris is 181 euros."},
        ]
    )
    page.goto(streamlit_app)
    page.get_by_test_id("stChatInputTextArea").wait_for(timeout=60000)
    ask(page, "Hotel cap in Paris?", "Paris is 180 euros")
    settle(page)

    # an edit: a second version of the question, the first one a click away
    page.get_by_role("button", name="edit").last.click()
    area = page.locator("[class*='st-key-edit-'] textarea").last
    area.wait_for(timeout=10000)
    area.fill("Hotel cap in Lyon?")
    page.get_by_role("button", name="Send again").click()
    page.get_by_text("Lyon is 150 euros", exact=False).first.wait_for(timeout=60000)
    settle(page)
    assert visible(page, "Paris is 180 euros") == 0  # not drawn beside the new version
    assert shown(switcher(page, "question").get_by_text("2/2"))
    shot(page, 1, "edited")
    runs = len(fake_server.requests)
    switcher(page, "question").get_by_role("button", name="‹").click()
    page.get_by_text("Paris is 180 euros", exact=False).first.wait_for(timeout=30000)
    settle(page)
    assert visible(page, "Lyon is 150 euros") == 0 and visible(page, "Hotel cap in Lyon?") == 0
    assert shown(switcher(page, "question").get_by_text("1/2"))
    assert len(fake_server.requests) == runs  # switched, not run again
    assert "b=" in page.url
    shot(page, 2, "first-question")

    # a regenerate on that branch: a second answer, the first one a click away
    page.get_by_role("button", name="refresh").last.click()
    page.get_by_text("Paris is 181 euros", exact=False).first.wait_for(timeout=60000)
    settle(page)
    assert visible(page, "Paris is 180 euros") == 0
    assert shown(switcher(page, "answer").get_by_text("2/2"))
    runs = len(fake_server.requests)
    switcher(page, "answer").get_by_role("button", name="‹").click()
    page.get_by_text("Paris is 180 euros", exact=False).first.wait_for(timeout=30000)
    settle(page)
    assert visible(page, "Paris is 181 euros") == 0
    assert len(fake_server.requests) == runs
    shot(page, 3, "first-answer")

    # the URL keeps the branch: a reload shows the same one
    page.reload()
    page.get_by_text("Paris is 180 euros", exact=False).first.wait_for(timeout=60000)
    settle(page)
    assert visible(page, "Paris is 181 euros") == 0 and visible(page, "Lyon is 150 euros") == 0
    assert shown(switcher(page, "answer").get_by_text("1/2"))
    shot(page, 4, "reloaded")
