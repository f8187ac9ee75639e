"""Structure-aware chunking: paragraphs grouped up to a size, with overlap, never
across a section (heading or page) boundary."""

from __future__ import annotations

import hashlib
import re

from pydantic import BaseModel

from engine.rag.readers import Section

CHUNK_CHARS = 900
OVERLAP_CHARS = 150


class Chunk(BaseModel):
    chunk_id: str
    source: str
    location: str
    text: str
    content_hash: str


def _paragraphs(text: str) -> list[str]:
    parts = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    out: list[str] = []
    for part in parts:  # a paragraph longer than a chunk is split at sentence ends
        while len(part) > CHUNK_CHARS:
            cut = max(part.rfind(". ", 0, CHUNK_CHARS), part.rfind("\n", 0, CHUNK_CHARS))
            cut = cut + 1 if cut > CHUNK_CHARS // 3 else CHUNK_CHARS
            out.append(part[:cut].strip())
            part = part[cut:].strip()
        if part:
            out.append(part)
    return out


def chunk_sections(source: str, sections: list[Section]) -> list[Chunk]:
    chunks: list[Chunk] = []
    for section in sections:
        current = ""
        for para in _paragraphs(section.text):
            if current and len(current) + len(para) + 2 > CHUNK_CHARS:
                chunks.append(_make(source, section.location, current, len(chunks)))
                tail = current[-OVERLAP_CHARS:]
                space = tail.find(" ")
                current = (tail[space + 1 :] if space >= 0 else tail) + "\n\n" + para
            else:
                current = f"{current}\n\n{para}" if current else para
        if current.strip():
            chunks.append(_make(source, section.location, current, len(chunks)))
    return chunks


def _make(source: str, location: str, text: str, n: int) -> Chunk:
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Chunk(
        chunk_id=f"{source}#{n}", source=source, location=location, text=text.strip(), content_hash=digest[:16]
    )
