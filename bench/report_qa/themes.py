"""A context as an analyst would hold it: the report text with its table in place, and the table as a file.

Each context becomes a theme folder with two files:

- ``report.md``: the paragraphs in their order, with the table as a Markdown table in
  place. TAT-QA does not say where the table stood, so it goes after the first paragraph
  that introduces it (ends with ``:``, as "... were as follows (in thousands):"), else after
  the headings that open the extract (short lines without a final full stop), else after the
  first paragraph. The table's first row is the Markdown header; further header rows stay
  body rows, as a report pasted into Markdown keeps them.
- ``table.csv``: the table's rows as they are (cells verbatim, multi-line cells quoted).
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from bench.report_qa.dataset import Context

REPORT_FILE = "report.md"
TABLE_FILE = "table.csv"
_HEADING_MAX_CHARS = 100


def theme_name(context: Context) -> str:
    """A valid theme name (letters, digits, '-'), unique per context."""
    return f"tatqa-{context.index:04d}"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def markdown_table(rows: list[list[str]]) -> str:
    """The rows as a GitHub Markdown table, the first row as its header; short rows are padded."""
    width = max((len(r) for r in rows), default=0)
    if width == 0:
        return ""
    padded = [[_cell(c) for c in r] + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(padded[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in padded[1:]]
    return "\n".join(lines)


# "… is summarized in the following table, in millions.": the sentence a report writes just before its table
_INTRODUCES = re.compile(r"(?i)\b(?:the following table|the table below|as follows|were as follows|summarized below)\b")


def _table_position(texts: list[str]) -> int:
    """How many paragraphs stand before the table: up to the one that introduces it."""
    for i, text in enumerate(texts):
        if text.rstrip().endswith(":") or _INTRODUCES.search(text):
            return i + 1
    headings = 0
    for text in texts:
        stripped = text.strip()
        if len(stripped) > _HEADING_MAX_CHARS or stripped.endswith("."):
            break
        headings += 1
    return headings or min(1, len(texts))


def report_markdown(context: Context) -> str:
    texts = [p.text.strip() for p in sorted(context.paragraphs, key=lambda p: p.order) if p.text.strip()]
    at = _table_position(texts)
    blocks = texts[:at] + [markdown_table(context.table.table)] + texts[at:]
    return "\n\n".join(b for b in blocks if b) + "\n"


def table_csv(context: Context) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(context.table.table)
    return out.getvalue()


def write_theme(context: Context, themes_root: Path) -> Path:
    """The theme folder of ``context`` under ``themes_root``, written fresh."""
    folder = themes_root / theme_name(context)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / REPORT_FILE).write_text(report_markdown(context), encoding="utf-8")
    (folder / TABLE_FILE).write_text(table_csv(context), encoding="utf-8")
    return folder
