"""Structure-aware chunking: paragraphs grouped up to a size, with overlap, never
across a section (heading or page) boundary, nor across a line that opens a comparison of
two periods ("Fiscal Year 2018 Compared with Fiscal Year 2017"), which joins the location.

Linear in the text: a long paragraph is walked with a cursor (never re-sliced), and a
file stops at ``MAX_CHUNKS_PER_FILE`` chunks (the ingest says so in one line).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator

from pydantic import BaseModel

from engine.grounding.units import PERIOD_HEADING
from engine.rag.readers import Section

CHUNK_CHARS = 900
OVERLAP_CHARS = 150
MAX_CHUNKS_PER_FILE = 4000  # ~3.6 M characters: a 1,000-page report fits; a 20 MB code dump does not

_BREAK = re.compile(r"\n\s*\n")
_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")  # a Markdown table's "|---|---|" line
_NOT_YEAR_DIGIT = re.compile(r"(?<!\d)(?!(?:19|20)\d\d(?!\d))\d")  # a digit outside a year: a figure, not a header
HEAD_CHARS = 400  # a longer table head is not repeated
_SENTENCE_START = re.compile(r"(?:[.!?]\s+|\n\s*)(?=\S)")
_SPACE = " \t\n\r\f\v"


class Chunk(BaseModel):
    chunk_id: str
    source: str
    location: str
    text: str
    content_hash: str


class Chunked(BaseModel):
    chunks: list[Chunk]
    capped: bool = False  # the file had more than ``max_chunks`` chunks; the rest was left out


def _blocks(text: str) -> Iterator[str]:
    """The blank-line separated blocks of ``text``, stripped, lazily."""
    start = 0
    for match in _BREAK.finditer(text):
        block = text[start : match.start()].strip()
        if block:
            yield block
        start = match.end()
    block = text[start:].strip()
    if block:
        yield block


def table_head(block: str) -> str:
    """The header lines of a Markdown table that opens ``block``: its lines down to the rule,
    and the lines after it that hold no figure but years ("| ($ in millions) | 2019 | 2018 |");
    "" for another block, or a head longer than ``HEAD_CHARS``. A piece of the table cut from
    its head repeats it, so its rows keep their periods."""
    lines = block[: HEAD_CHARS * 2].split("\n")
    if not lines[0].lstrip().startswith("|"):
        return ""
    rule = next((i for i, line in enumerate(lines[:4]) if _RULE.match(line)), None)
    if rule is None:
        return ""
    end = rule + 1
    while end < len(lines) - 1 and lines[end].lstrip().startswith("|") and not _NOT_YEAR_DIGIT.search(lines[end]):
        end += 1
    head = "\n".join(lines[:end])
    return head if len(head) <= HEAD_CHARS else ""


def _paragraphs(text: str) -> Iterator[str]:
    """Paragraphs of at most ``CHUNK_CHARS``: a longer one is split at sentence ends
    (else at the limit), walking it once with a cursor; each piece of a table after the
    first opens with the table's head."""
    for part in _blocks(text):
        pos, end = 0, len(part)
        head = table_head(part)
        while end - pos > CHUNK_CHARS:
            limit = pos + CHUNK_CHARS
            cut = max(part.rfind(". ", pos, limit), part.rfind("\n", pos, limit))
            cut = cut + 1 if cut - pos > CHUNK_CHARS // 3 else limit
            piece = part[pos:cut].strip()
            if piece:
                yield f"{head}\n{piece}" if head and pos > 0 else piece
            pos = cut
            while pos < end and part[pos] in _SPACE:
                pos += 1
        if pos < end:
            yield f"{head}\n{part[pos:]}" if head and pos > 0 else part[pos:]


def _texts(sections: Iterable[Section]) -> Iterator[tuple[str, str]]:
    """(location, chunk text) in order."""
    for section in sections:
        current, location = "", section.location
        for para in _paragraphs(section.text):
            if PERIOD_HEADING.fullmatch(para.strip()):  # "Fiscal Year 2018 Compared with Fiscal Year 2017": a part
                if current.strip():
                    yield location, current
                heading = " ".join(para.split()).lstrip("# ")
                current, location = para, f"{section.location} > {heading}" if section.location else heading
                continue
            if current and len(current) + len(para) + 2 > CHUNK_CHARS:
                yield location, current
                overlap = _overlap(current)
                head = table_head(current.rsplit("\n\n", 1)[-1]) if overlap.lstrip().startswith("|") else ""
                if head and para.startswith(f"{head}\n"):  # the table goes on: its last rows, then the next ones
                    current = f"{head}\n{overlap}\n{para[len(head) + 1 :]}"
                elif head:  # the last rows of a table, under their head
                    current = f"{head}\n{overlap}\n\n{para}"
                else:
                    current = f"{overlap}\n\n{para}" if overlap else para
            else:
                current = f"{current}\n\n{para}" if current else para
        if current.strip():
            yield location, current


def _overlap(text: str) -> str:
    """The start of the next chunk: the last whole sentences or lines of ``text`` within
    ``OVERLAP_CHARS``, so a chunk does not open inside a sentence ("by 2,000,000 the number
    of shares …" without its "increase"); nothing when its last sentence is longer."""
    window = text[-OVERLAP_CHARS:]
    start = _SENTENCE_START.search(window)
    return window[start.end() :] if start is not None else ""


def chunk_file(source: str, sections: Iterable[Section], max_chunks: int = MAX_CHUNKS_PER_FILE) -> Chunked:
    """The chunks of one file, at most ``max_chunks`` (``capped`` says when more were left out)."""
    chunks: list[Chunk] = []
    for location, text in _texts(sections):
        if len(chunks) >= max_chunks:
            return Chunked(chunks=chunks, capped=True)
        chunks.append(_make(source, location, text, len(chunks)))
    return Chunked(chunks=chunks)


def chunk_sections(source: str, sections: list[Section]) -> list[Chunk]:
    """The chunks of one file, uncapped (benchmarks and callers that bound their input)."""
    return chunk_file(source, sections, max_chunks=2**62).chunks


def _make(source: str, location: str, text: str, n: int) -> Chunk:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Chunk(
        chunk_id=f"{source}#{n}", source=source, location=location, text=text.strip(), content_hash=digest[:16]
    )
