"""Tables inside documents in the catalog, beside CSV files: names, units, Total rows,
attached files first, and bad documents that lose nothing else."""

from engine.context import EngineContext
from engine.tools.tables import AggregateTable, TableCatalog, table_toolkit
from engine.tools.tables.sandbox import run_select
from tests.engine.tools.tables.conftest import SALES, table_pdf

REPORT = """# Annual report

| (In thousands) | 2019 | 2018 |
|---|---|---|
| Software | $1,950 | $1,538 |
| Services | (120) | — |
| Total revenue | $1,830 | $1,538 |

Headcount grew.

|  | 2019 |
|---|---|
| Engineers | 40 |
| Sales | 12 |
"""


def test_document_tables_sit_beside_csv_files_named_by_document_and_position(write_csv, tmp_path):
    write_csv("theme/sales_2025.csv", SALES)
    write_csv("theme/annual_report.md", REPORT)
    write_csv("theme/notes.md", "# Notes\n\nNo table here.\n")
    (tmp_path / "theme" / "annual.pdf").write_bytes(table_pdf([["", "2019"], ["Revenue", "5"], ["Total", "5"]]))
    catalog = TableCatalog.from_paths([tmp_path / "theme"])
    assert catalog.names() == ["annual_pdf_t1", "annual_report_md_t1", "annual_report_md_t2", "sales_2025"]
    info = catalog.tables["annual_report_md_t1"]
    assert (info.source, info.location, info.rows) == ("annual_report.md", "table 1", 3)
    assert catalog.tables["annual_pdf_t1"].location == "page 1, table 1"
    assert catalog.problems == [] and catalog.document_problems == []


def test_units_periods_labels_and_totals_are_in_the_catalog(write_csv):
    info = TableCatalog.from_paths([write_csv("annual_report.md", REPORT)]).tables["annual_report_md_t1"]
    assert (info.scale, info.currency, info.unit) == ("thousand", "$", "$ thousand")
    assert (info.label_column, info.total_column) == ("item", "is_total")
    assert info.period_columns() == {"2019": "2019", "2018": "2018"}
    assert info.total_labels() == ["Total revenue"]
    assert info.row_labels() == ["Software", "Services", "Total revenue"]
    assert {c.name: c.role for c in info.columns}["is_total"] == "total_flag"
    assert info.describe() == (
        'annual_report_md_t1(item: varchar [Services, Software, Total revenue], "2019": double, "2018": double, '
        "is_total: boolean), 3 rows, figures in $ thousand; is_total marks Total rows"
    )


def test_a_sum_that_leaves_out_the_total_rows_counts_each_figure_once(write_csv):
    catalog = TableCatalog.from_paths([write_csv("annual_report.md", REPORT)])
    info = catalog.tables["annual_report_md_t1"]
    everything = run_select(catalog, 'SELECT sum("2019") FROM annual_report_md_t1').rows[0][0]
    parts = run_select(catalog, f'SELECT sum("2019") FROM annual_report_md_t1 WHERE {info.parts_condition()}')
    assert everything == 3660.0  # the Total row counted twice
    assert parts.rows[0][0] == 1830.0
    result = AggregateTable(catalog).run(
        AggregateTable.Args(
            table="annual_report_md_t1", column="2019", operation="sum", filter_column="is_total", filter_value="false"
        )  # fmt: skip
    )
    assert result.value == "1830"


def test_hostile_document_names_become_safe_sql_names(write_csv):
    paths = [
        write_csv('"; DROP TABLE x; --.md', REPORT),
        write_csv("select.md", REPORT),
        write_csv("a" * 80 + ".md", REPORT),
    ]
    catalog = TableCatalog.from_paths(paths)
    names = catalog.names()
    assert names[:2] == ["drop_table_x_md_t1", "drop_table_x_md_t2"]
    assert "select_table_md_t1" in names and all(len(n) <= 48 for n in names)
    assert "a" * 42 + "_md_t1" in names  # shortened, the position kept
    assert run_select(catalog, "SELECT count(*) FROM drop_table_x_md_t1").rows == [(3,)]


def test_the_attached_files_tables_come_first_and_keep_the_plain_names(write_csv, tmp_path):
    write_csv("theme/sales_2025.csv", SALES)
    write_csv("theme/annual_report.md", REPORT)
    write_csv("conversation/files/sales_2025.csv", "month,revenue\n2025-03,105037\n")
    attached = tmp_path / "conversation" / "files"
    catalog = TableCatalog.from_paths([tmp_path / "theme", attached], preferred=[attached])
    assert catalog.names()[0] == "sales_2025" and catalog.tables["sales_2025"].preferred
    assert catalog.preferred() == ["sales_2025"]
    assert catalog.tables["sales_2025"].column_names() == ["month", "revenue"]
    assert "sales_2025_2" in catalog.names() and not catalog.tables["sales_2025_2"].preferred
    info, note = catalog.table(None)
    assert info.name == "sales_2025" and note == "(used sales_2025, the table attached to this conversation)"


def test_without_attachments_the_order_is_the_files_order(write_csv, tmp_path):
    write_csv("theme/b.csv", "x\n1\n")
    write_csv("theme/a.md", REPORT)
    catalog = TableCatalog.from_paths([tmp_path / "theme"])
    assert catalog.names() == ["a_md_t1", "a_md_t2", "b"] and catalog.preferred() == []


def test_the_context_puts_attachments_first_and_reloads_a_changed_document(write_csv, tmp_path):
    write_csv("theme/sales_2025.csv", SALES)
    attached = write_csv("att/files/report.md", REPORT).parent
    context = EngineContext()
    catalog = context.table_catalog([tmp_path / "theme", attached], preferred=[attached])
    assert catalog.names()[:2] == ["report_md_t1", "report_md_t2"]
    assert context.table_catalog([tmp_path / "theme", attached], preferred=[attached]) is catalog
    (attached / "report.md").write_text(REPORT.split("Headcount")[0], encoding="utf-8")
    again = context.table_catalog([tmp_path / "theme", attached], preferred=[attached])
    assert again.names() == ["report_md_t1", "sales_2025"]


def test_a_hostile_or_corrupt_document_gives_one_sentence_and_loses_nothing_else(write_csv, tmp_path):
    write_csv("theme/sales_2025.csv", SALES)
    write_csv("theme/wide.html", "<table><tr>" + "<td>1</td>" * 10_000 + "</tr></table>")
    (tmp_path / "theme" / "broken.pdf").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 20)
    write_csv("theme/annual_report.md", REPORT)
    catalog = TableCatalog.from_paths([tmp_path / "theme"])
    assert catalog.names() == ["annual_report_md_t1", "annual_report_md_t2", "sales_2025"]
    assert catalog.document_problems == [
        "broken.pdf: the PDF is damaged, so its tables could not be read.",
        "wide.html, table 1: 10,000 columns is over the limit of 200 for a table; it was not loaded.",
    ]
    assert catalog.problems == []
    assert "Not loaded: broken.pdf: the PDF is damaged" in catalog.describe(max_chars=4000)


def test_documents_without_tables_add_no_table_tools(write_csv, tmp_path):
    write_csv("theme/notes.md", "# Notes\n\nText only.\n")
    (tmp_path / "theme" / "broken.pdf").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 20)
    assert table_toolkit([tmp_path / "theme"], small_model=True) == []


def test_a_run_gets_table_tools_over_the_attached_report_first(write_csv, tmp_path, monkeypatch):
    from engine.tools.toolkits import table_tools

    monkeypatch.setenv("THEMES_ROOT", str(tmp_path / "themes"))
    write_csv("themes/ops/sales_2025.csv", SALES)
    attached = write_csv("conversation/files/annual_report.md", REPORT).parent
    tools = table_tools(EngineContext(), "ops", [attached], small_model=True)
    assert [t.name for t in tools] == ["aggregate_table", "lookup_table", "compute_table"]
    assert len({id(t.catalog) for t in tools}) == 1  # one catalog for every table tool of the run
    catalog = tools[0].catalog
    assert catalog.names() == ["annual_report_md_t1", "annual_report_md_t2", "sales_2025"]
    assert catalog.preferred() == ["annual_report_md_t1", "annual_report_md_t2"]
    only_theme = table_tools(EngineContext(), "ops", [], small_model=False)[0].catalog
    assert only_theme.names() == ["sales_2025"] and only_theme.preferred() == []
