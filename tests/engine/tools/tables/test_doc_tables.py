"""Tables found inside Markdown, HTML and PDF documents, and the bounds on what they cost."""

import time

from engine.tools.tables.doc_tables import DocumentLimits, document_grids
from tests.engine.tools.tables.conftest import table_pdf

MARKDOWN = """# Results

Revenue grew. A | in a sentence is no table.

| (In thousands) | 2019 | 2018 |
|---|---:|:---:|
| Software | $1,950 | $1,538 |
| Total | $1,950 | $1,538 |

```
| not | a |
|---|---|
| table | in a fence |
```

| Region | Units |
| --- | --- |
| North \\| East | 10 |
"""


def test_markdown_pipe_tables_are_found_in_order_outside_code_fences():
    grids, problems = document_grids("report.md", ".md", MARKDOWN.encode())
    assert problems == []
    assert [(g.position, g.location) for g in grids] == [(1, "table 1"), (2, "table 2")]
    assert grids[0].rows == [["(In thousands)", "2019", "2018"], ["Software", "$1,950", "$1,538"],
                             ["Total", "$1,950", "$1,538"]]  # fmt: skip
    assert grids[1].rows[1] == ["North | East", "10"]


def test_html_tables_fill_column_and_row_spans_and_skip_layout_tables():
    html = """<html><body><table><tr><td>
      <table><thead><tr><th></th><th colspan="2">December 31,</th></tr>
      <tr><th>(in millions)</th><th>2019</th><th>2018</th></tr></thead>
      <tbody><tr><td rowspan="2">Revenue</td><td>$5</td><td>$4</td></tr>
      <tr><td>(1)</td><td>—</td></tr></tbody></table>
    </td></tr></table></body></html>"""
    grids, problems = document_grids("page.html", ".html", html.encode())
    assert problems == []
    assert len(grids) == 1 and grids[0].location == "table 1"  # the outer table is layout, not counted
    assert grids[0].rows == [["", "December 31,", "December 31,"], ["(in millions)", "2019", "2018"],
                             ["Revenue", "$5", "$4"], ["Revenue", "(1)", "—"]]  # fmt: skip


def test_a_pdf_ruled_table_is_read_with_pdfplumber():
    rows = [["", "2019", "2018"], ["(In millions)", "", ""], ["Revenue", "$1,950", "$1,538"],
            ["Costs", "(120)", "—"], ["Total", "$1,830", "$1,538"]]  # fmt: skip
    grids, problems = document_grids("annual.pdf", ".pdf", table_pdf(rows))
    assert problems == []
    assert [(g.position, g.location) for g in grids] == [(1, "page 1, table 1")]
    assert grids[0].rows == rows


def test_each_table_keeps_the_text_that_introduces_it_as_its_lead():
    md = (
        "Revenue rose in 2019.\n\nInventories are as follows\n(in thousands):\n\n"
        "|  | 2019 |\n|---|---|\n| Raw materials | 169.8 |\n\n"
        "| a | b |\n|---|---|\n| x | 1 |\n"
    )
    grids, _ = document_grids("report.md", ".md", md.encode())
    assert [g.lead for g in grids] == ["Inventories are as follows (in thousands):", ""]  # the next table: none
    html = (
        "<p>Debt consisted of the following (dollars in millions):</p><table><tr><td>a</td><td>1</td></tr></table>"
        "<table><caption>Leases (in thousands)</caption><tr><td>b</td><td>2</td></tr></table>"
    )
    grids, _ = document_grids("page.html", ".html", html.encode())
    assert [g.lead for g in grids] == [
        "Debt consisted of the following (dollars in millions):",
        "Leases (in thousands)",
    ]
    rows = [["", "2019"], ["Revenue", "1,950"]]
    grids, _ = document_grids("annual.pdf", ".pdf", table_pdf(rows, lead="Revenue is as follows (in thousands):"))
    assert grids[0].rows == rows and grids[0].lead == "Revenue is as follows (in thousands):"
    grids, problems = document_grids("top.pdf", ".pdf", table_pdf(rows, top=792))  # at the page's top: no strip
    assert problems == [] and grids[0].rows == rows and grids[0].lead == ""


def test_a_notes_statement_of_its_tables_unit_is_the_lead_unit_of_a_table_that_states_none():
    md = (
        "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS (Tabular amounts in millions, unless otherwise disclosed)\n\n"
        "17. OTHER OPERATING EXPENSE\n\nOther operating expenses included the following:\n\n"
        "|  | 2019 |\n|---|---|\n| Impairment charges | $94.2 |\n\n"
        "Debt is as follows (in thousands):\n\n|  | 2019 |\n|---|---|\n| Notes | 12 |\n"
    )
    grids, _ = document_grids("report.md", ".md", md.encode())
    assert [g.lead for g in grids] == [
        "Other operating expenses included the following: (Tabular amounts in millions)",
        "Debt is as follows (in thousands):",  # its own unit stands
    ]


def test_a_10000_column_html_table_is_refused_with_one_sentence_and_the_others_kept():
    wide = "<table><tr>" + "<td>1</td>" * 10_000 + "</tr></table>"
    good = "<table><tr><th></th><th>2019</th></tr><tr><td>Revenue</td><td>5</td></tr></table>"
    start = time.perf_counter()
    grids, problems = document_grids("wide.html", ".html", (wide + good).encode())
    assert time.perf_counter() - start < 5
    assert problems == ["wide.html, table 1: 10,000 columns is over the limit of 200 for a table; it was not loaded."]
    assert [g.position for g in grids] == [2]


def test_a_colspan_bomb_is_refused():
    html = '<table><tr><td colspan="100000000">x</td></tr><tr><td>1</td></tr></table>'
    grids, problems = document_grids("bomb.html", ".html", html.encode())
    assert grids == [] and len(problems) == 1 and "over the limit of 200" in problems[0]


def test_a_table_over_the_cell_limit_and_tables_over_the_count_limit_are_refused():
    long = "| a | b |\n|---|---|\n" + "| x | 1 |\n" * 200
    grids, problems = document_grids("long.md", ".md", long.encode(), DocumentLimits(max_cells=100))
    assert grids == [] and problems == ["long.md, table 1: over 100 cells, the limit for a table; it was not loaded."]
    many = "\n\n".join(["| a | b |\n|---|---|\n| x | 1 |"] * 5)
    grids, problems = document_grids("many.md", ".md", many.encode(), DocumentLimits(max_tables=3))
    assert len(grids) == 3 and problems == ["many.md: only its first 3 tables were loaded."]


def test_malformed_tables_are_read_as_far_as_they_go():
    text = "| a | b |\n|---|---|\n| 1 |\n| 2 | 3 | 4 | 5 |\n|\n"
    grids, problems = document_grids("ragged.md", ".md", text.encode())
    assert problems == [] and grids[0].rows[1:3] == [["1"], ["2", "3", "4", "5"]]
    broken = "<table><tr><td>1<td>2</tr><tr><td colspan='x'>3</table"
    grids, problems = document_grids("broken.html", ".html", broken.encode())
    assert problems == [] and grids[0].rows == [["1", "2"], ["3"]]


def test_a_damaged_pdf_gives_one_sentence():
    whole = table_pdf([["a", "1"]])
    for damaged in (whole[:120] + b"garbage" * 50, whole[: len(whole) // 2], b"%PDF-1.4\n" + bytes(range(256)) * 20):
        grids, problems = document_grids("bad.pdf", ".pdf", damaged)
        assert grids == [] and problems == ["bad.pdf: the PDF is damaged, so its tables could not be read."]
    grids, problems = document_grids("fake.pdf", ".pdf", b"not a pdf at all")
    assert grids == [] and problems == ["fake.pdf: not a PDF file (no PDF header), so its tables could not be read."]


def test_messages_are_also_in_french():
    wide = "<table><tr>" + "<td>1</td>" * 300 + "</tr></table>"
    _, problems = document_grids("large.html", ".html", wide.encode(), language="fr")
    assert problems == ["large.html, tableau 1 : 300 colonnes dépassent la limite de 200 par tableau ; "
                        "il n'a pas été chargé."]  # fmt: skip


def test_a_binary_file_named_md_gives_one_sentence():
    grids, problems = document_grids("x.md", ".md", bytes(range(256)) * 10)
    assert grids == [] and problems == ["x.md: looks like a binary file, not text."]


def test_a_pdf_page_with_too_many_drawing_instructions_is_not_searched_for_tables():
    from tests.engine.rag.conftest import shared_stream_pdf

    grids, problems = document_grids("shared.pdf", ".pdf", shared_stream_pdf(3000, line_chars=80, lines=5000))
    assert grids == []
    assert problems[0] == (
        "shared.pdf: 1 page(s) with over 300,000 bytes of drawing instructions were not searched for tables."
    )


def test_pages_sharing_one_content_stream_are_searched_once(monkeypatch):
    import pdfplumber.page

    from tests.engine.rag.conftest import shared_stream_pdf

    searched = []
    real = pdfplumber.page.Page.find_tables
    monkeypatch.setattr(pdfplumber.page.Page, "find_tables", lambda self, *a: searched.append(1) or real(self, *a))
    document_grids("shared.pdf", ".pdf", shared_stream_pdf(40, lines=3))
    assert len(searched) == 1


def test_the_search_for_tables_stops_at_its_time_limit():
    from itertools import count

    from engine.tools.tables.doc_tables import DocumentLimits
    from tests.engine.rag.conftest import shared_stream_pdf

    ticks = count(0, 10)
    limits = DocumentLimits(max_seconds=25, clock=lambda: next(ticks))
    _, problems = document_grids("own.pdf", ".pdf", shared_stream_pdf(40, lines=3, shared=False), limits)
    assert problems == ["own.pdf: tables were looked for during 25 s, up to page 3."]
