"""The tables written inside documents, as grids of cell texts: Markdown pipe tables, HTML
``<table>`` elements (with their column and row spans) and PDF tables (pdfplumber, which
finds the cells of ruled tables).

Every table is numbered in the order the document holds it; that position names it.
What a document can cost is bounded: its size, the tables read from it, the columns and
cells of one table, the PDF pages searched. A table over a bound is refused with one
sentence; the document's other tables are still read. A damaged file gives one sentence.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from engine.rag.cuts import MAX_FILE_SECONDS
from engine.rag.readers import UnreadableFile, decode_text
from engine.tools.tables.messages import say
from engine.tools.tables.report_cells import lead_unit

MAX_CELL_CHARS = 400
LEAD_CHARS = 300  # of the text before a table: its introducing sentence
LEAD_LINES = 12  # lines of a Markdown paragraph read back from a table (a file of one long paragraph costs no more)
PDF_LEAD_POINTS = 40.0  # the strip above a PDF table read as its lead (two or three lines)
_MD_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_MD_SPLIT = re.compile(r"(?<!\\)\|")
_FENCE = re.compile(r"^\s*(```|~~~)")
# A note's own statement of the unit of every table in it: "(Tabular amounts in millions, unless otherwise disclosed)"
_TABULAR = re.compile(r"(?i)\btabular (?:dollar )?(?:amounts|figures) (?:are )?in (?:thousands|millions|billions)\b")
DOCUMENT_SUFFIXES = (".md", ".markdown", ".html", ".htm", ".pdf")


@dataclass(frozen=True)
class DocumentLimits:
    max_tables: int = 20  # tables read from one document
    max_columns: int = 200  # columns of one table
    max_cells: int = 20_000  # cells of one table
    max_pages: int = 50  # PDF pages searched for tables
    max_seconds: float = MAX_FILE_SECONDS  # searching one PDF for tables
    max_page_content: int = 300_000  # a page's decoded drawing instructions (pdfplumber: ~30 s per MB)
    clock: Callable[[], float] = field(default=time.monotonic)


@dataclass(frozen=True)
class Grid:
    position: int  # 1-based, in the document's order
    location: str  # "table 2", "page 3, table 1"
    rows: list[list[str]]
    lead: str = ""  # the text just before the table, which may state its unit ("… as follows (in thousands):")


class _Refused(Exception):
    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


class _Found:
    """The grids of one document, numbered, with one sentence per refused table."""

    def __init__(self, name: str, limits: DocumentLimits, language: str) -> None:
        self.name, self.limits, self.language = name, limits, language
        self.grids: list[Grid] = []
        self.problems: list[str] = []
        self.count = 0

    @property
    def full(self) -> bool:
        return self.count >= self.limits.max_tables

    def say(self, key: str, **values: object) -> None:
        limit = getattr(self.limits, f"max_{_LIMIT[key]}", 0)
        self.problems.append(say(f"doc_{key}", self.language, name=self.name, limit=limit, **values))

    def add(self, rows: Iterator[list[str]] | list[list[str]], page: int | None = None, lead: str = "") -> None:
        if self.full:
            if self.count == self.limits.max_tables:
                self.say("too_many")
                self.count += 1
            return
        self.count += 1
        where = (
            say("doc_where", self.language, n=self.count)
            if page is None
            else say("doc_where_page", self.language, page=page, n=self.count)
        )
        try:
            grid = _bounded(rows, self.limits)
        except _Refused as refused:
            self.say(refused.key, where=where, **refused.values)
            return
        if grid:
            self.grids.append(Grid(self.count, where, grid, " ".join(lead.split())[-LEAD_CHARS:]))


_LIMIT = {"too_wide": "columns", "too_big": "cells", "too_many": "tables", "pages": "pages"}
_LIMIT |= {"seconds": "seconds", "page_content": "page_content"}
_LIMIT |= {"damaged": "", "not_pdf": ""}


def _bounded(rows: Iterator[list[str]] | list[list[str]], limits: DocumentLimits) -> list[list[str]]:
    out: list[list[str]] = []
    cells = 0
    for row in rows:
        if len(row) > limits.max_columns:
            raise _Refused("too_wide", columns=len(row))
        cells += len(row)
        if cells > limits.max_cells:
            raise _Refused("too_big")
        out.append([(c or "")[:MAX_CELL_CHARS] for c in row])
    return out


def _md_cells(line: str) -> list[str]:
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return [c.strip().replace("\\|", "|") for c in _MD_SPLIT.split(text)]


def markdown_grids(text: str, found: _Found) -> None:
    """Pipe tables: a header line, a rule line ("|---|:--:|"), then rows, outside code fences."""
    lines = text.splitlines()
    fenced = False
    i = 0
    while i < len(lines) - 1:
        line = lines[i]
        if _FENCE.match(line):
            fenced = not fenced
        if fenced or "|" not in line or "|" not in lines[i + 1] or not _MD_RULE.match(lines[i + 1]):
            i += 1
            continue
        end = i + 2
        while end < len(lines) and "|" in lines[end] and lines[end].strip():
            end += 1
        block = [lines[i], *lines[i + 2 : end]]
        lead = _paragraph_before(lines, i)
        if not lead_unit(lead) and (stated := _TABULAR.findall("\n".join(lines[:i]))):
            lead = f"{lead} ({stated[-1]})"  # "(Tabular amounts in millions, unless otherwise disclosed)" above
        found.add((_md_cells(line) for line in block), lead=lead)
        i = end
        if found.full and found.count > found.limits.max_tables:
            return


def _paragraph_before(lines: list[str], at: int) -> str:
    """The paragraph that ends just before line ``at`` (blank lines skipped, its last
    ``LEAD_LINES`` lines), if it is no table."""
    end = at
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    start = end
    while start > max(0, end - LEAD_LINES) and lines[start - 1].strip() and "|" not in lines[start - 1]:
        start -= 1
    return " ".join(lines[start:end])


def _text_before(element: object) -> str:
    """The text of the element just before an HTML table (its caption first, if it has one)."""
    caption = element.find("caption")  # type: ignore[attr-defined]
    if caption is not None:
        return " ".join(caption.itertext())
    previous = element.getprevious()  # type: ignore[attr-defined]
    while previous is not None and not isinstance(previous.tag, str):
        previous = previous.getprevious()
    if previous is None:
        parent = element.getparent()  # type: ignore[attr-defined]
        return (parent.text or "") if parent is not None else ""  # "<body>Text (in millions):<table>"
    return " ".join(previous.itertext())[-LEAD_CHARS:]


def _span(cell: object, attr: str, cap: int) -> int:
    try:
        return max(1, min(int(str(cell.get(attr, "1")).strip() or 1), cap))  # type: ignore[attr-defined]
    except ValueError:
        return 1


def _fill(row: list[str], col: int, pending: dict[int, tuple[int, str]]) -> int:
    """Append the texts of the cells above that span down into this row from ``col`` on."""
    while col in pending:
        left, text = pending[col]
        row.append(text)
        if left <= 1:
            del pending[col]
        else:
            pending[col] = (left - 1, text)
        col += 1
    return col


def _html_rows(table: object, limits: DocumentLimits) -> Iterator[list[str]]:
    """The rows of one ``<table>``, column and row spans filled with the spanning text."""
    pending: dict[int, tuple[int, str]] = {}  # column → (rows still covered, text)
    for tr in table.xpath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr"):  # type: ignore[attr-defined]
        cells = tr.xpath("./td | ./th")
        if len(cells) > limits.max_columns:
            raise _Refused("too_wide", columns=len(cells))
        row: list[str] = []
        col = _fill(row, 0, pending)
        for cell in cells:
            text = " ".join(" ".join(cell.itertext()).split())[:MAX_CELL_CHARS]
            across = _span(cell, "colspan", limits.max_columns + 1)
            down = _span(cell, "rowspan", 1000)
            for _ in range(across):
                if down > 1:
                    pending[col] = (down - 1, text)
                row.append(text)
                col += 1
                if col > limits.max_columns:
                    raise _Refused("too_wide", columns=col)
            col = _fill(row, col, pending)
        yield row


def html_grids(text: str, found: _Found) -> None:
    """Every ``<table>`` that holds no other table (an outer one is page layout)."""
    from lxml import etree

    if not text.strip():
        return
    parser = etree.HTMLParser(recover=True, no_network=True, remove_comments=True, remove_pis=True, huge_tree=True)
    root = etree.fromstring(text, parser)
    if root is None:
        return
    for table in root.iter("table"):
        if table.find(".//table") is not None:
            continue
        found.add(_html_rows(table, found.limits), lead=_text_before(table))
        if found.full and found.count > found.limits.max_tables:
            return


def _above(page: object, table: object) -> str:
    """The text of the strip just above a PDF table, its introducing line; "" at the page's top."""
    x0, top, x1, _ = page.bbox  # type: ignore[attr-defined]
    bottom = table.bbox[1]  # type: ignore[attr-defined]
    if bottom - top < 1:
        return ""
    try:
        strip = page.crop((x0, max(top, bottom - PDF_LEAD_POINTS), x1, bottom))  # type: ignore[attr-defined]
    except ValueError:  # a table drawn past the page's box: no strip to read
        return ""
    return strip.extract_text() or ""


def pdf_grids(data: bytes, found: _Found) -> None:
    """The ruled tables pdfplumber finds on the first pages."""
    if not data.lstrip().startswith(b"%PDF"):
        found.say("not_pdf")
        return
    import logging

    import pdfplumber

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            pages = pdf.pages
            limits, started, seen, oversized, timed_out = found.limits, found.limits.clock(), set(), 0, False
            for number, page in enumerate(pages[: limits.max_pages], start=1):
                if limits.clock() - started > limits.max_seconds:
                    found.say("seconds", page=number)
                    timed_out = True
                    break
                streams = list(page.page_obj.contents or [])
                key = tuple(getattr(st, "objid", None) or id(st) for st in streams)
                if key in seen:  # one content stream shared by many pages: its tables are the same
                    continue
                seen.add(key)
                if sum(len(st.get_data()) for st in streams) > limits.max_page_content:
                    oversized += 1
                    continue
                for table in page.find_tables():
                    found.add(
                        [[c or "" for c in row] for row in table.extract()], page=number, lead=_above(page, table)
                    )
                page.close()
                if found.full and found.count > found.limits.max_tables:
                    return
            if oversized:
                found.say("page_content", pages=oversized)
            if len(pages) > found.limits.max_pages and not timed_out:
                found.say("pages")
    except Exception:  # pdfminer raises many kinds on damaged files; each is one sentence here
        found.say("damaged")


def document_grids(
    name: str, suffix: str, data: bytes, limits: DocumentLimits | None = None, language: str = "en"
) -> tuple[list[Grid], list[str]]:
    """The table grids of a document's content and one sentence per table (or file) refused.
    ``name`` is used in messages only."""
    found = _Found(name, limits or DocumentLimits(), language)
    suffix = suffix.lower()
    if suffix == ".pdf":
        pdf_grids(data, found)
        return found.grids, found.problems
    try:
        text = decode_text(name, data)
    except UnreadableFile as exc:
        return [], [str(exc)]
    if suffix in (".html", ".htm"):
        html_grids(text, found)
    else:
        markdown_grids(text, found)
    return found.grids, found.problems
