from pathlib import Path

import pytest

SALES = """date,region,product,units,revenue
2025-01-15,France,Pipettes,10,1000.5
2025-02-10,France,Microscopes,2,5000
2025-04-03,Benelux,Pipettes,7,700
2025-07-21,France,Pipettes,4,400
2025-08-02,Benelux,Centrifuges,1,9000
2025-09-30,United Kingdom,Pipettes,3,300
"""


@pytest.fixture
def write_csv(tmp_path):
    def write(name: str, text: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def sales_csv(write_csv):
    return write_csv("sales_2025.csv", SALES)


def _pdf_text(text: str, x: int, y: int) -> bytes:
    safe = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("cp1252")
    return b"BT /F1 8 Tf %d %d Td (" % (x, y) + safe + b") Tj ET\n"


def table_pdf(
    rows: list[list[str]], col_width: int = 110, row_height: int = 18, lead: str = "", top: int = 700
) -> bytes:
    """A one-page PDF drawing ``rows`` as a ruled table (a line round every cell), in
    Helvetica, with the line ``lead`` written just above it."""
    x0 = 40
    width, height = col_width * len(rows[0]), row_height * len(rows)
    ops = ["0.5 w"]
    ops += [f"{x0} {top - i * row_height} m {x0 + width} {top - i * row_height} l S" for i in range(len(rows) + 1)]
    ops += [f"{x0 + j * col_width} {top} m {x0 + j * col_width} {top - height} l S" for j in range(len(rows[0]) + 1)]
    content = "\n".join(ops).encode() + b"\n"
    if lead:
        content += _pdf_text(lead, x0, top + 10)
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            if text:
                content += _pdf_text(text, x0 + j * col_width + 4, top - (i + 1) * row_height + 5)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
