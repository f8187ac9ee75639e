"""Markdown that cannot make the browser fetch anything.

Model, tool and document text is drawn as markdown (answers, Thoughts, warnings,
footnotes, titles, labels). Markdown images (``![x](url)``, ``![x][ref]``) and raw HTML
tags (``<img>``, ``<iframe>``, ``<video>``…) would make the browser load a URL chosen by
whoever wrote the text, with whatever they put in its query string: the conversation
leaks, to a server that only has to log its requests. ``inert`` keeps the text as it
reads and takes the loading away: an image becomes a link (shown, never fetched) and a
zero-width space after a tag's ``<`` makes it text (an entity such as ``&lt;`` would be
swallowed by a bare link before it). Code spans and fenced code blocks are left
as they are: their content is shown as text already, and escapes would show there.

Every place that draws untrusted markdown goes through ``inert`` (``components.render.draw``,
the answer stream of the tracer, the page titles and labels).
"""

from __future__ import annotations

import re

ZWSP = "\u200b"  # invisible; after "<" no tag opens, and "<" still ends a bare link as it did
_FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")  # at the margin only: a fence indented in a list may end early
_CLOSING = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")
_BACKTICKS = re.compile(r"`+")
# "!" before "[" opens an image; "<" before a letter, "/", "!" or "?" opens a tag, a comment or a directive.
_LOADER = re.compile(r"!(?=\[)|<(?=[A-Za-z/!?])")


def _escaped(text: str, position: int) -> bool:
    """Whether the character at ``position`` follows an odd run of backslashes (it is literal)."""
    start = position
    while start > 0 and text[start - 1] == "\\":
        start -= 1
    return (position - start) % 2 == 1


def _neutralise(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        if _escaped(text, match.start()):  # escaped already: literal
            return match.group()
        return "<" + ZWSP if match.group() == "<" else "\\!"

    return _LOADER.sub(replace, text)


def _line(text: str) -> str:
    """Neutralise the loaders of one line outside a fence, leaving its code spans alone.

    A span is closed on the same line only: a span across lines that the renderer would
    not see as one (a heading, a new paragraph) must never hide an image."""
    if "!" not in text and "<" not in text:
        return text
    out: list[str] = []
    i = 0
    while True:
        tick = text.find("`", i)
        if tick < 0:
            out.append(_neutralise(text[i:]))
            return "".join(out)
        if _escaped(text, tick):  # an escaped backtick opens nothing
            out.append(_neutralise(text[i : tick + 1]))
            i = tick + 1
            continue
        out.append(_neutralise(text[i:tick]))
        run = _BACKTICKS.match(text, tick)
        assert run is not None
        width = len(run.group())
        found = _BACKTICKS.search(text, run.end())
        while found is not None and len(found.group()) != width:  # closed by a run of the same width
            found = _BACKTICKS.search(text, found.end())
        if found is None:  # no closing run: the backticks are literal
            out.append(run.group())
            i = run.end()
        else:
            out.append(text[tick : found.end()])
            i = found.end()


def inert(markdown: str) -> str:
    """``markdown`` drawn the same, minus everything that would load a remote resource."""
    if not markdown or ("!" not in markdown and "<" not in markdown):
        return markdown
    out: list[str] = []
    fence: str | None = None
    for line in markdown.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if fence is not None:
            closing = _CLOSING.match(body)
            if closing is not None and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
                fence = None
            out.append(line)
            continue
        opening = _FENCE.match(body)
        if opening is not None and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            fence = opening.group(1)  # an info string with a backtick does not open a backtick fence
            out.append(line)
            continue
        out.append(_line(line))
    return "".join(out)
