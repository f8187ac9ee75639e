"""HTML to text: each text once, headings kept, scripts dropped, any depth."""

from engine.rag.html_text import html_to_text, strip_tags
from engine.rag.readers import _html


def test_headings_paragraphs_and_no_script():
    html = (
        "<html><body><h1>FAQ</h1><h2>Approval</h2><p>Dashboards are <b>approved</b> by Tomasz.</p>"
        "<script>alert(1)</script><style>p{}</style><!-- hidden --><p>After &amp; more.</p></body></html>"
    )
    sections = _html(html)
    assert [s.location for s in sections] == ["FAQ > Approval"]
    assert sections[0].text == "Dashboards are approved by Tomasz.\n\nAfter & more."


def test_nested_list_items_are_not_repeated():
    text = html_to_text("<ul><li>one<ul><li>two<ul><li>three</li></ul></li></ul> tail</li></ul>")
    assert text.split("\n") == ["one", "", "two", "", "three", "", "tail", ""]


def test_past_the_parser_depth_limit_no_text_is_lost():
    html = "<div>" * 5000 + "deep &lt;text&gt;<script>secret()</script> end"
    assert html_to_text(html) == "deep <text> end"


def test_strip_tags_handles_unclosed_constructs():
    assert strip_tags("a<b c<d") == "a"
    assert strip_tags("x<script>never closed") == "x"
    assert strip_tags("<p>one</p><p>two</p>") == "one\n\ntwo"


def test_empty_and_broken_markup():
    assert html_to_text("") == ""
    assert html_to_text("<!--" * 1000) == ""
    assert "text" in html_to_text("<p>text<<<>>></p></div></span>")
