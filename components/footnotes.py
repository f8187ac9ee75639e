"""Footnotes for an answer: a mark after each traced figure, a flag on each untraced one.

Pure functions from (answer, GroundingReport) to markdown; no Streamlit import. Marks
are superscript digits (``391⁽¹⁾``), which no markdown reads as syntax, and untraced
figures are wrapped as ``:orange-background[4,7 %] :material/warning:``. Text placed inside a mark or a
footnote is escaped, so neither the answer nor a quoted document can open a directive,
a link, LaTeX or HTML through them.
"""

from __future__ import annotations

import re

from engine.grounding.figures import inside, merge_spans
from engine.grounding.models import Figure, GroundingReport

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|:$~&])")
_CODE_SPAN = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.S)
_ANCHOR_UNSAFE = re.compile(r"[^A-Za-z0-9-]")
# between two marked figures of one expression: operators, and numbers that need no mark of
# their own (a constant such as 100, a figure the question gives)
_EXPRESSION_GAP = re.compile(r"(?:\s*[()]*\s*(?:[-+*/×÷=−x·]|\\\*)\s*[()]*\s*(?:\d[\d.,]*)?)+")
FLAG = ":material/warning:"  # a Material icon: no emoji font needed

_TEXT = {
    "en": {
        "unsupported": ("{n} figure could not be traced to a source.", "{n} figures could not be traced to a source."),
        "invented": ("Not among the sources searched: {names}.",),
        "quote": "“{quote}”",
        "sep": ": ",
    },
    "fr": {
        "unsupported": (
            "{n} chiffre n'a pas pu être relié à une source.",
            "{n} chiffres n'ont pas pu être reliés à une source.",
        ),
        "invented": ("Absent des sources consultées : {names}.",),
        "quote": "« {quote} »",
        "sep": " : ",
    },
}


def _text(lang: str) -> dict:
    return _TEXT.get(lang, _TEXT["en"])


def mark(n: int) -> str:
    """The footnote mark of citation ``n``: ⁽¹⁾, ⁽¹²⁾."""
    return f"⁽{str(n).translate(_SUPERSCRIPT)}⁾"


def escape(text: str) -> str:
    """Untrusted text as literal markdown: every markdown character backslash-escaped,
    line breaks folded to spaces."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _code_spans(answer: str) -> list[tuple[int, int]]:
    return merge_spans([m.span() for m in _CODE_SPAN.finditer(answer)]) if "`" in answer else []


def _flagged(figure_text: str, before: str) -> str:
    # A space keeps the directive from gluing onto a preceding word or colon (":red:orange…").
    lead = "" if not before or before.isspace() or before in "([{\"'«“" else " "
    return f"{lead}:orange-background[{escape(figure_text)}] {FLAG}"


def anchor_id(prefix: str, n: int) -> str:
    """The page anchor of footnote ``n`` of a turn: letters, digits and dashes only."""
    return f"fn-{_ANCHOR_UNSAFE.sub('-', prefix)}-{n}"


def linked_mark(n: int, prefix: str | None) -> str:
    """The mark, as a link to its footnote line when the turn has an anchor ``prefix``."""
    return f"[{mark(n)}](#{anchor_id(prefix, n)})" if prefix is not None else mark(n)


def _operands(answer: str, edits: list[tuple[Figure, int]]) -> set[int]:
    """Positions in ``edits`` of figures that are operands of an expression whose last
    figure carries the same footnote ("12.5 / 100 * 3480 = 435"): only the last one is marked."""
    dropped: set[int] = set()
    for i in range(len(edits) - 1):
        (figure, n), (following, m) = edits[i], edits[i + 1]
        if n == m and _EXPRESSION_GAP.fullmatch(answer[figure.end : following.start]):
            dropped.add(i)
    return dropped


def annotate(answer: str, report: GroundingReport, lang: str = "en", anchor: str | None = None) -> str:
    """The answer as markdown, with ⁽n⁾ after each traced figure (a link to its footnote
    line when ``anchor`` names the turn; one mark per expression, on its last figure) and
    a flag on each figure no evidence holds. Figures inside code spans are left as they are."""
    code = _code_spans(answer)
    unsupported = set(report.unsupported)
    edits: list[tuple[Figure, str]] = []
    cited: list[tuple[Figure, int]] = []  # (figure, footnote) in order, to drop operands' marks
    last_end = -1
    for figure in sorted(report.figures, key=lambda f: f.start):
        if figure.start < last_end or answer[figure.start : figure.end] != figure.text:
            continue  # overlapping or stale: leave the text untouched
        if code and inside(code, figure.start):
            continue
        if figure.citation is not None:
            cited.append((figure, figure.citation))
            edits.append((figure, ""))  # filled below, once the expressions are known
        elif figure.text in unsupported:
            before = answer[figure.start - 1] if figure.start else ""
            edits.append((figure, _flagged(figure.text, before)))
        else:
            continue
        last_end = figure.end
    operands = {id(cited[i][0]) for i in _operands(answer, cited)}
    edits = [
        (f, r if r else f.text if id(f) in operands else f.text + linked_mark(f.citation or 0, anchor))
        for f, r in edits
    ]
    out, cursor = [], 0
    for figure, replacement in edits:
        out.append(answer[cursor : figure.start])
        out.append(replacement)
        cursor = figure.end
    out.append(answer[cursor:])
    return "".join(out)


def footnote_lines(report: GroundingReport, lang: str = "en") -> list[str]:
    """One markdown line per citation: ⁽1⁾ *source* (location): “quote”; a derived figure's
    line starts with its derivation (**412 = 1,950 − 1,538 (table.csv, Software, 2019 and 2018)**)."""
    words = _text(lang)
    lines = []
    for citation in report.citations:
        where = f"*{escape(citation.source)}*"
        if citation.location:
            where += f" ({escape(citation.location)})"
        quote = words["quote"].format(quote=escape(citation.quote))
        derived = f"**{escape(citation.derivation)}**{words['sep']}" if citation.derivation else ""
        lines.append(f"{mark(citation.n)} {derived}{where}{words['sep']}{quote}")
    return lines


def unsupported_note(report: GroundingReport, lang: str = "en") -> str | None:
    """ "2 figures could not be traced to a source." (None when every figure was traced)."""
    count = len(report.unsupported)
    if not count:
        return None
    one, many = _text(lang)["unsupported"]
    return (one if count == 1 else many).format(n=count)


def invented_note(report: GroundingReport, lang: str = "en") -> str | None:
    """The sources the answer names that the run never returned (None when there are none)."""
    if not report.invented_sources:
        return None
    names = ", ".join(escape(name) for name in report.invented_sources)
    return _text(lang)["invented"][0].format(names=names)
