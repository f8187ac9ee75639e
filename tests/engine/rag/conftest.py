import pytest

from engine.rag.embeddings import get_embedder
from engine.rag.manager import IndexManager


@pytest.fixture(scope="session")
def embedder():
    return get_embedder()


@pytest.fixture
def manager(tmp_path):
    return IndexManager(root=tmp_path / "indexes")


def make_pdf(path, pages):
    """A real, minimal PDF with one text line per page (Helvetica)."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for text in pages:
        stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET"
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream")
        content_id = len(objects)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {content_id} 0 R /Resources << /Font << /F1 3 0 R >> >> >>"
        )
        kids.append(len(objects))
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


def _pdf_bytes(objects: list[bytes]) -> bytes:
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def shared_stream_pdf(pages: int, line_chars: int = 80, lines: int = 100, shared: bool = True) -> bytes:
    """A PDF of ``pages`` pages whose text is ``lines`` lines of ``line_chars`` characters,
    all pages pointing to one Flate-compressed content stream (``shared``), or each to its
    own copy of it: a small file with a large text per page."""
    import zlib

    ops = (
        b"BT /F1 6 Tf 10 780 Td 7 TL "
        + b" ".join(b"(" + (f"line {i} ".encode() + b"x" * line_chars)[:line_chars] + b") '" for i in range(lines))
        + b" ET"
    )
    packed = zlib.compress(ops, 9)
    stream = b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream"
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 3 0 R >> >> >>"
    kids = []
    if shared:
        objects.append(stream)
        content = len(objects)
    for _ in range(pages):
        if not shared:
            objects.append(stream)
            content = len(objects)
        objects.append(page % content)
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    return _pdf_bytes(objects)
