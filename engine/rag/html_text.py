"""HTML to heading-marked text in time linear in the input.

libxml2 (through ``lxml``) parses the page, recovering from broken markup; one
iterative walk then emits each piece of text once, under the innermost block
element that holds it (a nested ``<li>`` does not repeat its children's text), so
deep nesting or a huge page costs no more than its size. Scripts, styles,
templates and comments are dropped. libxml2 stops at 2,048 levels of nesting; a
page that deep is read by a plain linear scan of its tags instead, so no text is lost.
"""

from __future__ import annotations

import html as html_lib
from types import MappingProxyType

BLOCKS = frozenset({
    "p", "li", "td", "th", "pre", "blockquote", "div", "section", "article", "ul", "ol", "table", "tr",
    "br", "dd", "dt", "header", "footer", "main", "aside", "nav", "body", "title", "caption", "figcaption",
})  # fmt: skip
HEADINGS = MappingProxyType({"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6})
SKIPPED = frozenset({"script", "style", "noscript", "template"})


class _Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.buf: list[str] = []
        self.heading = 0

    def add(self, text: str | None) -> None:
        if text:
            self.buf.append(text)

    def flush(self) -> None:
        text = " ".join(" ".join(self.buf).split())
        self.buf.clear()
        if text:
            self.lines.append(f"{'#' * self.heading} {text}" if self.heading else text + "\n")


def html_to_text(html: str) -> str:
    """Markdown-like text: ``#`` headings, one paragraph per block element."""
    from lxml import etree

    if not html.strip():
        return ""
    parser = etree.HTMLParser(recover=True, no_network=True, remove_comments=True, remove_pis=True, huge_tree=True)
    root = etree.fromstring(html, parser)
    if any(e.type_name == "ERR_RESOURCE_LIMIT" for e in parser.error_log):
        return strip_tags(html)
    if root is None:
        return ""
    out = _Lines()
    skip = 0
    for event, element in etree.iterwalk(root, events=("start", "end")):
        tag = element.tag if isinstance(element.tag, str) else ""
        tag = tag.lower()
        if event == "start":
            if tag in SKIPPED or not tag:
                skip += 1
                continue
            if skip:
                continue
            if tag in HEADINGS or tag in BLOCKS:
                out.flush()
                out.heading = HEADINGS.get(tag, 0)
            out.add(element.text)
            continue
        if tag in SKIPPED or not tag:
            skip -= 1
        elif not skip and (tag in HEADINGS or tag in BLOCKS):
            out.flush()
            out.heading = 0
        if not skip:
            out.add(element.tail)
    out.flush()
    return "\n".join(out.lines)


def strip_tags(html: str) -> str:
    """The text between tags, by one forward scan (every ``find`` starts where the last ended)."""
    lower = html.lower()
    out: list[str] = []
    i = 0
    while True:
        start = html.find("<", i)
        if start < 0:
            out.append(html[i:])
            break
        out.append(html[i:start])
        end = html.find(">", start)
        if end < 0:
            break
        name = lower[start + 1 : end].strip("/! \t\n").split(None, 1)
        tag = name[0] if name else ""
        i = end + 1
        if tag in SKIPPED:
            close = lower.find(f"</{tag}", i)
            i = len(html) if close < 0 else (lower.find(">", close) + 1 or len(html))
        out.append("\n\n" if tag in BLOCKS or tag in HEADINGS else " ")
    paragraphs = (" ".join(html_lib.unescape(part).split()) for part in "".join(out).split("\n\n"))
    return "\n\n".join(p for p in paragraphs if p)
