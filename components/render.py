"""Block → widgets, as a pure function, and the one place that draws widgets.

``block_widgets`` turns a ReAct block into plain ``Widget`` data, so it can be tested
without Streamlit; ``draw`` puts widgets on the page. Model, tool and document text
is never rendered as HTML: markdown goes through ``st.markdown`` without
``unsafe_allow_html``, tool output through ``st.code``, tables through
``st.dataframe`` and charts through ``st.vega_lite_chart``, and labels are stripped of
markup. Every text ``draw`` puts on the page as markdown goes through ``inert`` first,
so no image or tag in it ever makes the browser fetch a URL.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from components.block_styles import BLOCK_STYLES
from components.i18n import number, t
from components.inert import inert
from engine.react.types import ANSWER_TYPES, ReActBlock, ReActType

OBSERVATION_PREVIEW_CHARS = 1500
_LABEL_UNSAFE = re.compile(r"[\[\]\\`<>#|~:$]")
_ANCHOR_UNSAFE = re.compile(r"[^A-Za-z0-9-]")
_LONE_NUMBER = re.compile(r"^(\s*\d+)([.)])(\s*)$", re.MULTILINE)
_FORMULA_START = frozenset("=+-@")
_NUMBER_TEXT = re.compile("[-+]?\\d[\\d,. \u00a0\u202f]*%?")  # "-3.5", "+5%", "-1 234,5": values, not formulas


@dataclass
class Widget:
    kind: str  # expander, markdown, code, warning, error, info, caption, show_all, dataframe, chart, anchor, footnote
    text: str = ""
    label: str = ""
    expanded: bool = False
    language: str | None = None
    key: str = ""
    data: Any = None
    children: list[Widget] = field(default_factory=list)


def safe_label(text: str, limit: int = 60) -> str:
    """Model text inside a widget label: no markup, one line, bounded."""
    line = " ".join(_LABEL_UNSAFE.sub("", text).split())
    line = line if len(line) <= limit else line[: limit - 1] + "…"
    return line.replace("*", "\\*").replace("_", "\\_")


def spreadsheet_safe(value: Any) -> Any:
    """A table cell as a spreadsheet may read it: a table's CSV download and a copied range
    carry cells verbatim, and text starting with ``=``, ``+``, ``-`` or ``@`` (after any
    leading spaces, tabs or line breaks) is a formula there (``=HYPERLINK("http://…?"&A1)``
    sends the sheet out). Such text gets a leading apostrophe, which spreadsheets show as
    text. Numbers, numbers written as text ("-3.5", "+5%") and a lone "-" stay as they are."""
    if not isinstance(value, str):
        return value
    head = value.lstrip(" \t\r\n").rstrip()
    if len(head) > 1 and head[0] in _FORMULA_START and not _NUMBER_TEXT.fullmatch(head):
        return "'" + value
    return value


def spreadsheet_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows for ``st.dataframe`` (whose toolbar downloads them as CSV), names and cells made
    ``spreadsheet_safe``."""
    return [{spreadsheet_safe(k): spreadsheet_safe(v) for k, v in row.items()} for row in rows]


def answer_markdown(text: str) -> str:
    """The answer as markdown that shows what the model wrote: a line that is only a
    number ("108.") is not turned into a list marker."""
    return _LONE_NUMBER.sub(lambda m: f"{m.group(1)}\\{m.group(2)}{m.group(3)}", text)


def _title(block_type: ReActType, lang: str, extra: str = "") -> str:
    style = BLOCK_STYLES[block_type]
    name = t(style.label_key, lang)
    return f"{style.material} :{style.color}[**{name}**]" + (f" :{style.color}[{extra}]" if extra else "")


def _pretty_input(text: str) -> tuple[str, str | None]:
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False), "json"
    except (ValueError, TypeError):
        return text, None


def _payload(block: ReActBlock) -> dict[str, Any] | None:
    try:
        value = json.loads(block.content)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, dict) else None


def _table_widgets(block: ReActBlock, lang: str) -> list[Widget]:
    data = _payload(block)
    if data is None or not isinstance(data.get("columns"), list) or not isinstance(data.get("rows"), list):
        return [Widget("code", text=block.content[:OBSERVATION_PREVIEW_CHARS])]
    columns = [str(c) for c in data["columns"]]
    rows = spreadsheet_rows([dict(zip(columns, row, strict=False)) for row in data["rows"] if isinstance(row, list)])
    title = safe_label(str(data.get("title") or ""))
    children = [Widget("dataframe", data=rows)]
    total = data.get("total_rows")
    if isinstance(total, int) and total > len(rows):  # cut to fit the turn: say how much is kept
        children.append(
            Widget("caption", text=t("table_rows_kept", lang, kept=number(len(rows), lang), total=number(total, lang)))
        )
    return [Widget("expander", label=_title(ReActType.TABLE, lang, title), children=children)]


def block_widgets(
    block: ReActBlock, lang: str = "en", input_block: ReActBlock | None = None, key: str = ""
) -> list[Widget]:
    """The widgets of one block (an Action carries its Action Input)."""
    kind = block.type
    if kind in ANSWER_TYPES:
        return [Widget("markdown", text=answer_markdown(block.content))]
    if kind is ReActType.ERROR:
        return [Widget("error", text=block.content)]
    if kind is ReActType.WARNING:
        return [Widget("warning", text=block.content)]
    if kind is ReActType.NOTE:
        return [Widget("caption", text=block.content)]
    if kind is ReActType.DRAFT:
        body = Widget("markdown", text=answer_markdown(block.content))
        return [Widget("expander", label=_title(kind, lang), children=[body])]
    if kind is ReActType.TABLE:
        return _table_widgets(block, lang)
    if kind is ReActType.CHART:
        spec = _payload(block)
        return [Widget("chart", data=spec)] if spec is not None else []
    if kind is ReActType.ACTION:
        children = []
        if input_block is not None and input_block.content:
            pretty, language = _pretty_input(input_block.content)
            children.append(Widget("code", text=pretty, language=language))
        return [Widget("expander", label=_title(kind, lang, safe_label(block.content)), children=children)]
    if kind is ReActType.ACTION_INPUT:  # an input with no Action before it
        pretty, language = _pretty_input(block.content)
        code = Widget("code", text=pretty, language=language)
        return [Widget("expander", label=_title(ReActType.ACTION, lang), children=[code])]
    if kind is ReActType.OBSERVATION:
        text = block.content
        children = [Widget("code", text=text[:OBSERVATION_PREVIEW_CHARS], language=None)]
        if len(text) > OBSERVATION_PREVIEW_CHARS:
            hidden = len(text) - OBSERVATION_PREVIEW_CHARS
            children.append(Widget("caption", text=t("truncated", lang, n=hidden)))
            children.append(Widget("show_all", label=t("show_all", lang), text=text, key=key))
        return [Widget("expander", label=_title(kind, lang), children=children)]
    if kind is ReActType.THOUGHT:
        thought = Widget("markdown", text=block.content)
        return [Widget("expander", label=_title(kind, lang), expanded=True, children=[thought])]
    return [Widget("expander", label=_title(ReActType.UNKNOWN, lang), children=[Widget("code", text=block.content)])]


def group_indices(blocks: list[ReActBlock]) -> list[list[int]]:
    """Blocks drawn together: an Action and the Action Input that follows it."""
    groups: list[list[int]] = []
    for i, block in enumerate(blocks):
        if block.type is ReActType.ACTION_INPUT and groups and blocks[groups[-1][-1]].type is ReActType.ACTION:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def group_widgets(blocks: list[ReActBlock], lang: str, key: str) -> list[Widget]:
    first = blocks[0]
    return block_widgets(first, lang, input_block=blocks[1] if len(blocks) > 1 else None, key=key)


def draw(widgets: list[Widget], container: Any = None) -> None:
    import streamlit as st

    target = container if container is not None else st
    for widget in widgets:
        if widget.kind == "markdown":
            target.markdown(inert(widget.text))
        elif widget.kind == "code":
            target.code(widget.text, language=widget.language, wrap_lines=True)
        elif widget.kind == "warning":
            target.warning(inert(widget.text), icon=":material/warning:")
        elif widget.kind == "error":
            target.error(inert(widget.text), icon=":material/error:")
        elif widget.kind == "info":
            target.info(inert(widget.text))
        elif widget.kind == "anchor":  # the id is ours (letters, digits, dashes): no model text in HTML
            target.html(f'<span id="{_ANCHOR_UNSAFE.sub("", widget.key)}"></span>')
        elif widget.kind == "footnote":
            target.caption(inert(widget.text))
        elif widget.kind == "caption":
            target.caption(inert(widget.text))
        elif widget.kind == "dataframe":
            target.dataframe(widget.data, hide_index=True, width="stretch")
        elif widget.kind == "chart":
            target.vega_lite_chart(widget.data, width="stretch")
        elif widget.kind == "show_all":
            if target.toggle(inert(widget.label), key=f"showall-{widget.key}"):
                target.code(widget.text, language=None, wrap_lines=True)
        elif widget.kind == "expander":
            expander = target.expander(inert(widget.label), expanded=widget.expanded)
            draw(widget.children, expander)
