"""Markdown from models, tools and documents can never make the browser fetch a URL."""

import re

import pytest

from components.footnotes import escape
from components.inert import inert
from components.render import Widget, draw
from components.throttle import Throttle
from components.tracer import StreamlitChatTracer
from tests.components.test_tracer import Recorder

LEAK = "http://127.0.0.1:9/leak.png?d=conversation"
# an image, or a tag that loads, left in the text: what the renderer would fetch
_LOADS = re.compile(r"(?<!\\)!\[|<(?:img|iframe|video|audio|source|object|embed|link|picture|svg|image)\b", re.I)


def loads(markdown: str) -> bool:
    """True when ``markdown`` still holds an unescaped image or a loading tag anywhere (a test oracle, not the
    mechanism: the hostile cases below hold no real code, so anything left would be drawn)."""
    return bool(_LOADS.search(markdown.replace("\\\\", "")))


@pytest.mark.parametrize(
    "hostile",
    [
        f"![x]({LEAK})",
        f"Text ![x]({LEAK}) more",
        f"![x][r]\n\n[r]: {LEAK}",
        "![x]\n\n[x]: " + LEAK,
        f"\\\\![x]({LEAK})",  # an escaped backslash, then a real image
        f'<img src="{LEAK}">',
        f'<IMG SRC="{LEAK}">',
        f'<iframe src="{LEAK}"></iframe>',
        f'<video poster="{LEAK}"></video>',
        f"[![badge]({LEAK})](http://example.org)",
        f"\\`![x]({LEAK})\\`",  # escaped backticks open no code span
        f"`a\n\n![x]({LEAK})\n\nb`",  # a span never closes across paragraphs
        f"# `heading\n![x]({LEAK}) `",
        f"- item\n  ```\n![x]({LEAK})\n",  # a fence in a list item ends with the item
        f"``` a`b\n![x]({LEAK})\n```",  # not a fence: its info string holds a backtick
        f"| a | b |\n|---|---|\n| ![x]({LEAK}) | <img src={LEAK}> |",
        f"> quote ![x]({LEAK})",
    ],
)
def test_images_and_tags_are_neutralised(hostile):
    assert loads(hostile)
    shown = inert(hostile)
    assert not loads(shown)
    assert LEAK in shown  # the link is still shown, as text or a link


@pytest.mark.parametrize(
    "text",
    [
        "The total is 391 EUR. Great!",
        "a < b and b > c, 3<4",
        "Use `![x](u)` and `<img>` in code",
        "```html\n<img src='u'>\n![x](u)\n```",
        "~~~\n<iframe>\n~~~",
        "[a link](http://example.org) stays a link",
        escape("<b>bold</b> ![i](u)"),  # literal markdown from footnotes: already inert, unchanged
    ],
)
def test_text_that_loads_nothing_is_kept_exactly(text):
    assert inert(text) == text


def test_an_image_becomes_a_link_with_the_same_words():
    assert inert("See ![the chart](http://x/c.png).") == "See \\![the chart](http://x/c.png)."


def test_a_tag_keeps_its_text_visible():
    assert inert("<img src=x>") == "<\u200bimg src=x>"  # reads the same: the space is zero-width


def test_inert_is_stable_when_applied_twice():
    text = f"![x]({LEAK}) <img src={LEAK}>"
    assert inert(inert(text)) == inert(text)


def test_a_large_text_is_neutralised_in_linear_time():
    import time

    text = ("![x](u) `code` <b> " * 50_000) + "\n```\n" + "<img>\n" * 10_000 + "```\n"
    started = time.perf_counter()
    shown = inert(text)
    assert time.perf_counter() - started < 2.0 and shown.count("\\![x]") == 50_000


def test_draw_neutralises_every_markdown_widget():
    log = []
    widgets = [
        Widget(kind, text=f"![x]({LEAK})") for kind in ("markdown", "warning", "error", "info", "caption", "footnote")
    ] + [Widget("expander", label=f"![x]({LEAK})", children=[])]
    draw(widgets, Recorder(log))
    texts = [text for _, text in log]
    assert len(texts) == 7 and all(t.startswith("\\![x]") for t in texts)


def test_the_answer_stream_draws_no_image_live_or_final():
    log = []
    tracer = StreamlitChatTracer(Recorder(log), throttle=Throttle(0))
    for token in ["Answer: Here ", f"![x]({LEAK})", "\n\nand ", f'<img src="{LEAK}">', " done."]:
        tracer.feed(token)
    tracer.close()
    drawn = [text for kind, text in log if kind == "markdown"]
    assert drawn and not any(loads(text) for text in drawn)
