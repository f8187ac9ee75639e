"""The catalog on real CSV files: names, sniffed types, number styles, bad files."""

import duckdb
import pyarrow as pa
import pytest

from engine.errors import ToolError
from engine.tools.tables.catalog import TableCatalog, TableLimits


def test_registers_each_csv_with_its_columns_types_and_rows(sales_csv):
    catalog = TableCatalog.from_paths([sales_csv])
    assert catalog.names() == ["sales_2025"]
    info = catalog.tables["sales_2025"]
    assert info.source == "sales_2025.csv"
    assert info.rows == 6
    kinds = {c.name: (c.sql_type, c.kind) for c in info.columns}
    assert kinds == {
        "date": ("DATE", "date"),
        "region": ("VARCHAR", "text"),
        "product": ("VARCHAR", "text"),
        "units": ("BIGINT", "number"),
        "revenue": ("DOUBLE", "number"),
    }
    assert catalog.problems == []


def test_directories_are_searched_and_other_files_ignored(write_csv, tmp_path):
    write_csv("theme/a.csv", "x\n1\n")
    write_csv("theme/sub/b.CSV", "y\n2\n")
    write_csv("theme/notes.md", "# not a table\n")
    catalog = TableCatalog.from_paths([tmp_path / "theme", tmp_path / "theme" / "a.csv"])
    assert sorted(catalog.names()) == ["a", "b"]


def test_hostile_file_names_become_safe_sql_names(write_csv):
    paths = [
        write_csv('"; DROP TABLE x; --.csv', "a\n1\n"),
        write_csv("2025 sales.csv", "a\n1\n"),
        write_csv("sub/2025 sales.csv", "a\n2\n"),
        write_csv("select.csv", "a\n1\n"),
    ]
    catalog = TableCatalog.from_paths(paths)
    assert catalog.names() == ["drop_table_x", "t_2025_sales", "t_2025_sales_2", "select_table"]


def test_english_thousands_separators_become_numbers(write_csv):
    path = write_csv("en.csv", 'region,revenue\nFrance,"1,234.50"\nBenelux,"12,000"\nExport,7.25\n')
    info = TableCatalog.from_paths([path]).tables["en"]
    assert info.columns[1].kind == "number"
    values = info.data.column("revenue").to_pylist()
    assert values == [1234.5, 12000.0, 7.25]


def test_french_numbers_and_dates_are_read(write_csv):
    text = "région;chiffre d'affaires;date\nÎle-de-France;1 234,50;31/01/2025\nBretagne;20,5;15/07/2025\n"
    path = write_csv("ventes.csv", text)
    info = TableCatalog.from_paths([path]).tables["ventes"]
    kinds = {c.name: c.kind for c in info.columns}
    assert kinds == {"région": "text", "chiffre d'affaires": "number", "date": "date"}
    assert info.data.column("chiffre d'affaires").to_pylist() == [1234.5, 20.5]


def test_latin1_file_is_read(write_csv):
    path = write_csv("latin.csv", "région;montant\nÎle-de-France;12\n".encode("latin-1"))
    info = TableCatalog.from_paths([path]).tables["latin"]
    assert info.data.column("région").to_pylist() == ["Île-de-France"]


def test_a_type_change_after_the_sniffed_sample_is_read_in_full(write_csv):
    path = write_csv("late.csv", "a\n" + "1\n" * 30000 + "hello\n")
    info = TableCatalog.from_paths([path]).tables["late"]
    assert info.rows == 30001 and info.columns[0].kind == "text"


def test_header_only_csv_is_a_table_with_zero_rows(write_csv):
    catalog = TableCatalog.from_paths([write_csv("empty_rows.csv", "a,b,c\n")])
    assert catalog.tables["empty_rows"].rows == 0
    assert "empty_rows(a: varchar, b: varchar, c: varchar), 0 rows" in catalog.describe()


@pytest.mark.parametrize(
    "name, content, reason",
    [
        ("blank.csv", b"", "blank.csv is empty."),
        ("binary.csv", bytes(range(256)) * 40, "binary.csv could not be read as a table: its layout"),
    ],
)
def test_unreadable_files_are_skipped_with_one_sentence(write_csv, sales_csv, name, content, reason):
    bad = write_csv(name, content)
    catalog = TableCatalog.from_paths([bad, sales_csv])
    assert catalog.names() == ["sales_2025"]
    assert len(catalog.problems) == 1 and catalog.problems[0].startswith(reason)
    assert str(bad.parent) not in catalog.problems[0]  # the file name, never the full path
    assert "Not loaded: " + reason in catalog.describe()


def test_only_unreadable_files_make_every_table_lookup_explain_why(write_csv):
    catalog = TableCatalog.from_paths([write_csv("blank.csv", b"")])
    with pytest.raises(ToolError, match="blank.csv is empty"):
        catalog.table("blank")


def test_files_over_the_size_limit_are_not_loaded(write_csv):
    path = write_csv("big.csv", "a\n" + "123456789\n" * 200_000)
    catalog = TableCatalog.from_paths([path], TableLimits(max_file_mb=1))
    assert catalog.names() == []
    assert catalog.problems == ["big.csv is 2 MB, over the 1 MB limit for tables."]


def test_hostile_column_names_are_kept_readable(write_csv):
    path = write_csv("h.csv", '"a""; DROP TABLE h; --","Revenue (EUR)","line\nbreak",revenue\n1,2,3,4\n')
    info = TableCatalog.from_paths([path]).tables["h"]
    assert info.column_names() == ['a"; DROP TABLE h; --', "Revenue (EUR)", "line break", "revenue"]
    assert '"a""; DROP TABLE h; --": bigint' in info.describe()


def test_describe_lists_examples_of_small_text_columns(sales_csv):
    line = TableCatalog.from_paths([sales_csv]).describe()
    assert line.startswith("sales_2025(date: date, region: varchar [Benelux, France, United Kingdom], ")
    assert line.endswith("units: bigint, revenue: double), 6 rows")


def test_describe_is_bounded_for_many_wide_tables(write_csv):
    header = ",".join(f"column_with_a_long_name_{i}" for i in range(60))
    paths = [write_csv(f"wide_{n}.csv", header + "\n" + ",".join("1" * 60) + "\n") for n in range(20)]
    catalog = TableCatalog.from_paths(paths)
    text = catalog.describe()
    assert len(catalog) == 20
    assert len(text) <= 1600
    assert "more columns" in text and "more tables: " in text


def test_table_lookup_is_forgiving(sales_csv, write_csv):
    catalog = TableCatalog.from_paths([sales_csv, write_csv("costs.csv", "a\n1\n")])
    assert catalog.table("sales_2025.csv")[0].name == "sales_2025"
    info, note = catalog.table("Sales")
    assert info.name == "sales_2025" and "read as 'sales_2025'" in note
    with pytest.raises(ToolError, match="Say which table"):
        catalog.table(None)
    with pytest.raises(ToolError, match="the tables are: sales_2025, costs"):
        catalog.table("inventory")


@pytest.mark.parametrize("name", ["sales*.csv", "x[1].csv", "{a,b}.csv", "q?.csv"])
def test_glob_characters_in_a_file_name_read_that_file_only(write_csv, name):
    write_csv("salesX.csv", "a\n2\n")
    write_csv("x1.csv", "a\n2\n")
    write_csv("a.csv", "a\n2\n")
    write_csv("qq.csv", "a\n2\n")
    info = next(iter(TableCatalog.from_paths([write_csv(name, "a\n1\n")]).tables.values()))
    assert info.data.column("a").to_pylist() == [1]


def test_codes_with_leading_zeros_stay_text(write_csv):
    path = write_csv("codes.csv", 'postcode,amount,plain\n01234,"1,5",12a\n75001,"2,25",7\n')
    info = TableCatalog.from_paths([path]).tables["codes"]
    assert {c.name: c.kind for c in info.columns} == {"postcode": "text", "amount": "number", "plain": "text"}
    assert info.data.column("postcode").to_pylist() == ["01234", "75001"]
    assert info.data.column("amount").to_pylist() == [1.5, 2.25]


def test_a_header_of_years_over_plain_numbers_is_the_header(write_csv):
    """DuckDB's sniffer takes ``Item,2019,2018`` for data when every cell below is a plain
    number; a report's period header is read as the header."""
    path = write_csv("revenue.csv", "Item,2019,2018\nSoftware,1950,1538\nHardware,420,380\n")
    info = TableCatalog.from_paths([path]).tables["revenue"]
    assert [c.name for c in info.columns] == ["Item", "2019", "2018"]
    assert info.data.column("2019").to_pylist() == [1950, 420]
    decimals = write_csv("accrued.csv", "Item,2019\nAdvances,47.6\nPayroll,30.2\n")  # read as 2019.0 over 47.6
    one = TableCatalog.from_paths([decimals]).tables["accrued"]
    assert [c.name for c in one.columns] == ["Item", "2019"] and one.rows == 2


def test_a_file_without_a_header_keeps_its_first_row(write_csv):
    path = write_csv("plain.csv", "Software,1950,1538\nHardware,420,380\n")
    info = TableCatalog.from_paths([path]).tables["plain"]
    assert info.rows == 2  # 1950 could be a year, 1538 is none: the first row is data


def test_a_csv_over_the_memory_limit_is_one_sentence_not_an_exception(write_csv):
    rows = "".join(f"{i},text number {i},{i * 1.5}\n" for i in range(300_000))
    big = write_csv("big.csv", "a,b,c\n" + rows)
    small = write_csv("small.csv", "x\n1\n")
    catalog = TableCatalog.from_paths([big, small], TableLimits(memory_mb=4))
    assert catalog.problems == ["big.csv needs more than 4 MB of memory to be read as a table; it was not loaded."]
    assert catalog.names() == ["small"]
    assert "Not loaded: big.csv needs more than 4 MB" in catalog.describe()


@pytest.mark.parametrize("error", [duckdb.ConversionException("bad cast"), pa.ArrowInvalid("bad array")])
def test_any_engine_error_on_one_file_is_one_sentence_and_the_others_load(write_csv, monkeypatch, error):
    from engine.tools.tables import catalog as catalog_module

    real = catalog_module.load_csv

    def load(con, path, *args):
        if path.name == "bad.csv":
            raise error
        return real(con, path, *args)

    monkeypatch.setattr(catalog_module, "load_csv", load)
    catalog = TableCatalog.from_paths([write_csv("bad.csv", "a\n1\n"), write_csv("good.csv", "b\n2\n")])
    assert catalog.problems == ["bad.csv could not be read as a table; it was not loaded."]
    assert catalog.names() == ["good"]
