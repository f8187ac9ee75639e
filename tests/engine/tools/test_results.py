"""TableData cut to a byte budget: the first rows that fit, and the count of them all."""

import json

from engine.tools.results import TableData


def table(n: int, width: int = 900) -> TableData:
    return TableData(columns=["name", "value"], dtypes=["text", "number"], rows=[["x" * width, i] for i in range(n)])


def test_a_table_that_fits_is_kept_whole():
    small = table(5)
    assert small.within_bytes(1_000_000) is small


def test_a_large_table_keeps_its_first_rows_within_the_budget_and_counts_them_all():
    cut = table(10_000).within_bytes(100_000)
    assert len(cut.model_dump_json().encode()) <= 100_000
    assert 90 <= len(cut.rows) < 10_000 and cut.rows[0][1] == 0 and cut.rows[-1][1] == len(cut.rows) - 1
    assert cut.total_rows == 10_000


def test_a_table_already_cut_keeps_its_original_count():
    data = table(100)
    data.total_rows = 1_000_000
    assert data.within_bytes(10_000).total_rows == 1_000_000


def test_a_row_larger_than_the_budget_leaves_no_rows_but_the_columns():
    cut = TableData(columns=["blob"], rows=[["y" * 50_000]]).within_bytes(10_000)
    assert cut.rows == [] and cut.total_rows == 1 and json.loads(cut.model_dump_json())["columns"] == ["blob"]
