"""Reading within bounds: text per page and per file, content per PDF page, time per file."""

from itertools import count

import pytest

from engine.rag.cuts import FileCuts, ReadLimits
from engine.rag.readers import UnreadableFile, read_document, sections_from_bytes
from tests.engine.rag.conftest import shared_stream_pdf


def kinds(reading):
    return {c.kind: c.values for c in reading.cuts}


def test_pages_sharing_one_content_stream_are_read_once_and_cut_to_the_page_limit():
    data = shared_stream_pdf(3000, line_chars=80, lines=1500)  # ~120,000 characters on each page
    assert len(data) < 600_000  # small on disk, ~360 M characters if every page were read
    reading = read_document("shared.pdf", ".pdf", data)
    assert [s.location for s in reading.sections] == ["page 1"]
    assert len(reading.sections[0].text) == 100_000
    assert kinds(reading) == {"page_chars": {"pages": 1, "limit": 100_000}, "repeated": {"pages": 2999}}
    line = FileCuts(source="shared.pdf", cuts=reading.cuts).text()
    assert line == (
        "shared.pdf: indexed in part (text cut to 100,000 characters on 1 page(s); "
        "2,999 page(s) repeating an earlier page's content not indexed again)."
    )
    assert "\n" not in line


def test_reading_stops_at_the_time_limit_and_says_at_which_page():
    ticks = count(0, 10)  # a clock that moves 10 s per reading of it
    limits = ReadLimits(seconds=25, clock=lambda: next(ticks))
    reading = read_document("own.pdf", ".pdf", shared_stream_pdf(40, lines=3, shared=False), limits)
    assert kinds(reading)["seconds"] == {"seconds": 25, "page": 3, "total": 40}
    assert [s.location for s in reading.sections] == ["page 1", "page 2"]
    assert "reading stopped after 25 s, at page 3 of 40" in FileCuts(source="own.pdf", cuts=reading.cuts).text()


def test_the_text_of_a_file_stops_at_the_file_limit():
    data = shared_stream_pdf(30, line_chars=80, lines=50, shared=False)
    reading = read_document("own.pdf", ".pdf", data, ReadLimits(file_chars=10_000))
    assert sum(len(s.text) for s in reading.sections) == 10_000
    assert kinds(reading)["file_chars"] == {"limit": 10_000, "location": "page 3"}
    text = "# A\n\n" + "word " * 5000 + "\n\n# B\n\nnever read"
    reading = read_document("big.md", ".md", text.encode(), ReadLimits(file_chars=1000))
    assert [s.location for s in reading.sections] == ["A"] and len(reading.sections[0].text) == 1000
    assert FileCuts(source="big.md", cuts=reading.cuts).text("fr") == (
        "big.md : indexé en partie (texte arrêté à la limite de 1\u202f000 caractères, à : A)."
    )


def test_a_page_with_too_many_drawing_instructions_is_not_read():
    data = shared_stream_pdf(3, lines=200, shared=False)
    with pytest.raises(UnreadableFile) as caught:
        read_document("own.pdf", ".pdf", data, ReadLimits(page_content_bytes=1000))
    assert str(caught.value) == (
        "own.pdf: no text was read within the limits (3 page(s) with over 1,000 bytes of drawing instructions not read)."
    )


def test_a_file_read_whole_has_no_cut():
    reading = read_document("a.md", ".md", b"# A\n\nfine")
    assert reading.cuts == [] and sections_from_bytes("a.md", ".md", b"# A\n\nfine") == reading.sections
