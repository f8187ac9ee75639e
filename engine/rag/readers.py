"""Reading source documents into structured sections, with clear reasons to skip.

Each reader returns ``Section``s: a piece of text with its location (a page or a
heading path). A bad file raises ``UnreadableFile`` with one readable sentence.
"""

from __future__ import annotations

import csv
import io
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from engine.rag.cuts import Cut, FileCuts, ReadLimits
from engine.rag.messages import say

SUPPORTED = frozenset({".txt", ".md", ".markdown", ".pdf", ".html", ".htm", ".csv"})
MAX_FILE_BYTES = 20 * 1024 * 1024
CSV_ROWS_PER_SECTION = 20


class UnreadableFile(Exception):
    """A file that cannot be ingested; the message says why in one sentence."""


@dataclass
class Section:
    text: str
    location: str  # "page 3", "Expenses > Travel", "rows 21-40"


@dataclass
class Reading:
    """A file's sections, and the bounds that cut it (empty when it was read whole)."""

    sections: list[Section]
    cuts: list[Cut] = field(default_factory=list)


def check_file(path: Path, name: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> int:
    """The file's size, after checking its type and size without reading it."""
    name = name or path.name
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED:
        shown = suffix[:20] or say("file_type_none")
        raise UnreadableFile(say("file_type", name=name, suffix=shown, supported=", ".join(sorted(SUPPORTED))))
    try:
        info = path.stat()
    except OSError as exc:
        raise UnreadableFile(say("file_unreadable", name=name, reason=exc.strerror)) from None
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFile(say("file_not_regular", name=name))
    if info.st_size == 0:
        raise UnreadableFile(say("file_empty", name=name))
    if info.st_size > max_bytes:
        raise UnreadableFile(say("file_too_big", name=name, size=info.st_size / 2**20, limit=max_bytes / 2**20))
    return info.st_size


def read_bytes(path: Path, name: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The file's content, checked first and never more than ``max_bytes`` (a file growing meanwhile)."""
    name = name or path.name
    check_file(path, name, max_bytes)
    try:
        with path.open("rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise UnreadableFile(say("file_unreadable", name=name, reason=exc.strerror)) from None
    if len(data) > max_bytes:
        raise UnreadableFile(say("file_grew", name=name, limit=max_bytes / 2**20))
    return data


def read_sections(path: Path, max_bytes: int = MAX_FILE_BYTES, name: str | None = None) -> list[Section]:
    name = name or path.name
    return sections_from_bytes(name, path.suffix.lower(), read_bytes(path, name, max_bytes))


def sections_from_bytes(name: str, suffix: str, data: bytes) -> list[Section]:
    """The sections of a file's content; ``name`` is only used in messages and CSV headers."""
    return read_document(name, suffix, data).sections


def read_document(name: str, suffix: str, data: bytes, limits: ReadLimits | None = None) -> Reading:
    """The sections of a file's content within ``limits``, and the cuts that applied."""
    limits = limits or ReadLimits()
    cuts: list[Cut] = []
    if suffix == ".pdf":
        sections = _pdf(name, data, limits, cuts)
    else:
        text = decode_text(name, data)
        if suffix in (".html", ".htm"):
            sections = _html(text)
        elif suffix == ".csv":
            sections = _csv(name, text)
        else:
            sections = _markdown(text)
    sections = _bounded([s for s in sections if s.text.strip()], limits.file_chars, cuts)
    if not sections and cuts:
        raise UnreadableFile(FileCuts(source=name, cuts=cuts).text(key="nothing"))
    if not sections:
        raise UnreadableFile(say("file_no_text", name=name))
    return Reading(sections, cuts)


def _bounded(sections: list[Section], limit: int, cuts: list[Cut]) -> list[Section]:
    """The sections up to ``limit`` characters in all, the last one cut (a ``file_chars`` cut)."""
    used = 0
    for i, section in enumerate(sections):
        if used + len(section.text) > limit:
            kept = sections[:i]
            if limit - used > 0:
                kept.append(Section(section.text[: limit - used], section.location))
            if not any(c.kind == "file_chars" for c in cuts):
                cuts.append(Cut(kind="file_chars", values={"limit": limit, "location": section.location}))
            return kept
        used += len(section.text)
    return sections


def decode_text(name: str, data: bytes) -> str:
    head = data[:8192]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise UnreadableFile(say("file_utf16_damaged", name=name)) from None
    if b"\x00" in head:
        raise UnreadableFile(say("file_binary", name=name))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    text = data.decode("cp1252", errors="replace")
    bad = text.count("\ufffd") + sum(1 for ch in text[:8192] if ord(ch) < 32 and ch not in "\n\r\t\f")
    if bad > max(3, len(text[:8192]) // 100):
        raise UnreadableFile(say("file_encoding", name=name))
    return text


_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def _markdown(text: str) -> list[Section]:
    """Split at headings; the location is the heading path (``Policy > Travel``)."""
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    buf: list[str] = []

    def flush() -> None:
        body = "\n".join(buf).strip()
        if body:
            sections.append(Section(body, " > ".join(h for _, h in path) or "top"))
        buf.clear()

    for line in text.splitlines():
        match = _HEADING.match(line)
        if match:
            flush()
            level = len(match.group(1))
            path = [(lv, h) for lv, h in path if lv < level] + [(level, match.group(2))]
            continue
        buf.append(line)
    flush()
    return sections


def _html(text: str) -> list[Section]:
    from engine.rag.html_text import html_to_text

    return _markdown(html_to_text(text))


def _csv(name: str, text: str) -> list[Section]:
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as exc:
        raise UnreadableFile(say("csv_unreadable", name=name, detail=exc)) from None
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    if len(rows) < 2:
        raise UnreadableFile(say("csv_no_rows", name=name))
    header, data = rows[0], rows[1:]
    if not all(cell.strip() for cell in header[1:]) or len(set(header)) < len(header):
        return _report_csv(rows)
    sections = [Section(f"Columns of {name}: " + ", ".join(header), "header")]
    for start in range(0, len(data), CSV_ROWS_PER_SECTION):
        block = data[start : start + CSV_ROWS_PER_SECTION]
        lines = ["; ".join(f"{h}: {v}" for h, v in zip(header, row, strict=False)) for row in block]
        sections.append(Section("\n".join(lines), f"rows {start + 1}-{start + len(block)}"))
    return sections


_FIGURE_CELL = re.compile(r"^[(\-−–]?[$€£¥]?\s?\d[\d,.\s]*\)?%?$")
_YEAR_CELL = re.compile(r"^(?:FY\s?)?(?:19|20)\d\d$")
_CSV_HEADER_MAX_ROWS = 4


def _is_figure_cell(cell: str) -> bool:
    text = cell.strip()
    return bool(_FIGURE_CELL.match(text)) and not _YEAR_CELL.match(text)


def _markdown_row(cells: list[str], width: int) -> str:
    padded = [" ".join(c.split()).replace("|", "\\|") for c in cells] + [""] * (width - len(cells))
    return "| " + " | ".join(padded) + " |"


def _report_csv(rows: list[list[str]]) -> list[Section]:
    """A CSV whose header spans rows (a report's table: blank or repeated header cells, as
    "| | Years ended December 31 | |" over "| | 2019 | 2018 |"), as Markdown tables: its header
    rows (those before the first figure) over each slice of rows, as a report shows it."""
    width = max(len(r) for r in rows)
    count = 1
    while count < min(len(rows) - 1, _CSV_HEADER_MAX_ROWS):
        row = rows[count]
        if any(_is_figure_cell(c) for c in row[1:]) or row[0].strip() and not any(c.strip() for c in row[1:]):
            break  # a row of figures, or a section row ("Deferred tax assets:"): the body starts
        count += 1
    head = [_markdown_row(rows[0], width), "|" + "---|" * width]
    head += [_markdown_row(r, width) for r in rows[1:count]]
    data = rows[count:]
    sections = []
    for start in range(0, len(data), CSV_ROWS_PER_SECTION):
        block = data[start : start + CSV_ROWS_PER_SECTION]
        lines = head + [_markdown_row(r, width) for r in block]
        sections.append(Section("\n".join(lines), f"rows {start + 1}-{start + len(block)}"))
    return sections


def _pdf(name: str, data: bytes, limits: ReadLimits, cuts: list[Cut]) -> list[Section]:
    import logging

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    if not data.lstrip().startswith(b"%PDF"):
        raise UnreadableFile(say("pdf_not_pdf", name=name))
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UnreadableFile(say("pdf_encrypted", name=name))
        return _pdf_pages(reader, limits, cuts)
    except UnreadableFile:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, OSError) as exc:
        raise UnreadableFile(say("pdf_damaged", name=name, kind=type(exc).__name__)) from None


def _pdf_pages(reader, limits: ReadLimits, cuts: list[Cut]) -> list[Section]:
    """Each page's text within the limits. A page drawing the same content as an earlier
    one (one content stream shared by every page) is read once and not indexed again."""
    started = limits.clock()
    total = len(reader.pages)
    sections: list[Section] = []
    seen: set[tuple[str, str]] = set()
    used = repeated = oversized = long_pages = 0
    for number, page in enumerate(reader.pages, start=1):
        if limits.clock() - started > limits.seconds:
            cuts.append(Cut(kind="seconds", values={"seconds": round(limits.seconds), "page": number, "total": total}))
            break
        if page.get("/Contents") is None:
            continue  # a blank page
        key = (repr(page.get("/Contents")), repr(page.get("/Resources")))
        if key in seen:
            repeated += 1
            continue
        seen.add(key)
        contents = page.get_contents()
        if contents is not None and len(contents.get_data()) > limits.page_content_bytes:
            oversized += 1
            continue
        text = page.extract_text() or ""
        if len(text) > limits.page_chars:
            text, long_pages = text[: limits.page_chars], long_pages + 1
        if text.strip():
            sections.append(Section(text, f"page {number}"))
            used += len(text)
        if used > limits.file_chars:
            break  # the file_chars cut is recorded where the sections are bounded
    for kind, pages, limit in (
        ("page_chars", long_pages, limits.page_chars),
        ("page_content", oversized, limits.page_content_bytes),
        ("repeated", repeated, None),
    ):
        if pages:
            cuts.append(Cut(kind=kind, values={"pages": pages} | ({"limit": limit} if limit else {})))
    return sections
