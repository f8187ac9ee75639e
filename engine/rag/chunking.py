"""Structure-aware chunking: paragraphs grouped up to a size, with overlap, never
across a section (heading or page) boundary.

Linear in the text: a long paragraph is walked with a cursor (never re-sliced), and a
file stops at ``MAX_CHUNKS_PER_FILE`` chunks (the ingest says so in one line).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator

from pydantic import BaseModel

from engine.rag.readers import Section

CHUNK_CHARS = 900
OVERLAP_CHARS = 150
MAX_CHUNKS_PER_FILE = 4000  # ~3.6 M characters: a 1,000-page report fits; a 20 MB code dump does not

_BREAK = re.compile(r"\n\s*\n")
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


def _paragraphs(text: str) -> Iterator[str]:
    """Paragraphs of at most ``CHUNK_CHARS``: a longer one is split at sentence ends
    (else at the limit), walking it once with a cursor."""
    for part in _blocks(text):
        pos, end = 0, len(part)
        while end - pos > CHUNK_CHARS:
            limit = pos + CHUNK_CHARS
            cut = max(part.rfind(". ", pos, limit), part.rfind("\n", pos, limit))
            cut = cut + 1 if cut - pos > CHUNK_CHARS // 3 else limit
            piece = part[pos:cut].strip()
            if piece:
                yield piece
            pos = cut
            while pos < end and part[pos] in _SPACE:
                pos += 1
        if pos < end:
            yield part[pos:]


def _texts(sections: Iterable[Section]) -> Iterator[tuple[str, str]]:
    """(location, chunk text) in order."""
    for section in sections:
        current = ""
        for para in _paragraphs(section.text):
            if current and len(current) + len(para) + 2 > CHUNK_CHARS:
                yield section.location, current
                overlap = _overlap(current)
                current = f"{overlap}\n\n{para}" if overlap else para
            else:
                current = f"{current}\n\n{para}" if current else para
        if current.strip():
            yield section.location, current


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
