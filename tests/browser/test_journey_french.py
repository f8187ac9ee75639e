"""The journey in French, in a real browser: the chat, Index browser and Tool catalogue
pages show no English UI string; brief and detailed answers differ; a footnote mark is
a link that brings its passage into view. The model is a small one served over the
OpenAI-compatible API (the fake server), so the engine's own plan and check run."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTEFACTS, start_app, stop_app, wait_healthy
from tests.pages.test_french import ENGLISH_WORDS, english_values

pytestmark = [pytest.mark.browser, pytest.mark.slow]

POLICY = "# Guide\n\n## Hôtels\n\nLe plafond d'hôtel à Paris est de 180 euros par nuit.\n"
QUESTION = "Quel est le plafond d'hôtel par nuit à Paris ?"
ANSWER = "Answer: Le plafond est de 180 euros par nuit [guide.md]."


def shot(page, name):
    page.screenshot(path=str(ARTEFACTS / f"journey-fr-{name}.png"), full_page=True)


def english_left(text: str) -> list[str]:
    """English locale values and English words in ``text`` (a page's visible text)."""
    values = [v for v in english_values() if len(v) > 3 and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", text)]
    cleaned = re.sub(r"\S+\.(?:md|csv|html|json)\b|\b\w*_\w*\b", " ", text)
    words = sorted({w for w in re.findall(r"[A-Za-z]+", cleaned.lower())} & ENGLISH_WORDS)
    return values + words


def visible_text(page) -> str:
    """The app's own text: the main area and the sidebar, without code blocks (tool output),
    schemas and the tools' own descriptions (written for the model, as the AppTests skip them)."""
    return page.evaluate(
        """() => [...document.querySelectorAll("[data-testid='stMain'], [data-testid='stSidebar']")]
        .map(root => { const c = root.cloneNode(true);
            c.querySelectorAll("pre, code, [data-testid='stCode'], [data-testid='stText'], [data-testid='stJson']").forEach(n => n.remove());
            return c.innerText; }).join("\\n")"""
    )


def go(page, name):
    """A page through the sidebar's navigation: the session (and its settings) stays."""
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=name).click()
    page.wait_for_timeout(1000)


def choose(page, index, option):
    page.get_by_test_id("stSelectbox").nth(index).click()
    page.get_by_role("option", name=option).click()
    page.wait_for_timeout(800)


def set_detail(page, label):
    """Pick a detail level and wait for the rerun that stores it, before leaving the page."""
    page.get_by_test_id("stMain").get_by_test_id("stRadio").first.get_by_text(label, exact=True).click()
    page.wait_for_function(
        f"[...document.querySelectorAll('input[type=radio]')].some(r => r.checked && "
        f"(r.closest('label') || r.parentElement).innerText.includes({label!r}))",
        timeout=30000,
    )
    page.wait_for_timeout(2500)  # the rerun that assigns the setting finishes


def ask(page, fake_server, question):
    """Ask in a new, empty conversation; wait for this run's footer (not a previous turn's)."""
    page.get_by_test_id("stChatMessage").first.wait_for(state="detached", timeout=30000)
    before = len(fake_server.requests)
    box = page.get_by_test_id("stChatInputTextArea")
    box.wait_for(timeout=60000)
    box.fill(question)
    box.press("Enter")
    page.wait_for_function("() => true")  # let the submission reach the server
    for _ in range(1200):  # the run's model call (after warm-up and the engine's search)
        if len(fake_server.requests) > before:
            break
        page.wait_for_timeout(200)
    assert len(fake_server.requests) > before, "the question never reached the model"
    reply = page.get_by_test_id("stChatMessage").last
    reply.get_by_text("jetons", exact=False).wait_for(timeout=240000)  # the footer: the turn has ended


def test_the_journey_in_french(fake_server, page, tmp_path):
    themes = tmp_path / "themes"
    (themes / "voyages").mkdir(parents=True)
    (themes / "voyages" / "guide.md").write_text(POLICY, encoding="utf-8")
    fake_server.script.append({"text": ANSWER, "repeat": True})  # warm-up may ask too
    url, proc = start_app(
        fake_server,
        tmp_path,
        MISTRAL_API_KEY="",
        OPENAI_BASE_URL=f"http://127.0.0.1:{fake_server.port}/v1",
        OPENAI_MODEL="small",
        OPENAI_SMALL_MODEL="1",
        THEMES_ROOT=str(themes),
    )
    try:
        wait_healthy(url, proc, tmp_path)
        page.goto(url)
        page.get_by_test_id("stChatInputTextArea").wait_for(timeout=60000)
        go(page, "Settings")
        choose(page, 0, "voyages")
        choose(page, 1, "Français")
        page.get_by_role("heading", name="Réglages").wait_for(timeout=30000)
        set_detail(page, "Bref")

        go(page, "Index des documents")
        page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(themes / "voyages" / "guide.md"))
        page.get_by_role("button", name="Indexer").click()
        page.get_by_text("Indexé", exact=False).first.wait_for(timeout=240000)
        page.get_by_test_id("stDataFrame").first.wait_for(timeout=60000)
        assert page.title() == "Index des documents"
        shot(page, "index")
        left = english_left(visible_text(page))
        assert not left, f"English on the French Index browser: {left}"

        answers = {}
        for detail in ("brief", "detailed"):
            if detail == "detailed":
                go(page, "Réglages")
                set_detail(page, "Détaillé")
            go(page, "Discussion")
            page.get_by_role("button", name="Nouvelle conversation").first.click()
            ask(page, fake_server, QUESTION)
            shot(page, f"chat-{detail}")
            answers[detail] = page.get_by_test_id("stChatMessage").last.inner_text()
            asked = fake_server.requests[-1]["messages"][0]["content"]
            assert {"brief": "one or two sentences", "detailed": "caveats"}[
                detail
            ] in asked  # the level reached the run
            left = english_left(visible_text(page))
            assert not left, f"English on the French chat page ({detail}): {left}"
        assert "180 euros" in answers["brief"] and "180 euros" in answers["detailed"]
        passage = "Le plafond d'hôtel à Paris"  # in the footnote at both levels; quoted below the answer when detailed
        assert answers["detailed"].count(passage) > answers["brief"].count(passage) >= 1

        mark = page.get_by_test_id("stChatMessage").last.locator("a[href^='#fn-']").first
        mark.wait_for(timeout=30000)
        anchor = mark.get_attribute("href")[1:]
        page.evaluate("window.scrollTo(0, 0)")
        mark.click()
        page.wait_for_function(f"location.hash === '#{anchor}'", timeout=10000)
        target = page.locator(f"[id='{anchor}']")
        expect(target).to_have_count(1, timeout=10000)
        footnote = target.locator("xpath=following::*[contains(., 'guide.md')][1]")
        footnote.first.wait_for(timeout=10000)
        assert footnote.first.is_visible()
        shot(page, "footnote")

        go(page, "Catalogue des outils")
        page.get_by_role("heading", name="Catalogue des outils").wait_for(timeout=60000)
        page.wait_for_timeout(1500)
        assert page.title() == "Catalogue des outils"
        shot(page, "tools")
        left = english_left(visible_text(page))
        assert not left, f"English on the French Tool catalogue: {left}"
    finally:
        stop_app(proc)
