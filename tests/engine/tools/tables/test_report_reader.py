"""Report tables read as reports write them; the grids are shapes of real annual-report
tables (TAT-QA, even-index contexts)."""

from engine.tools.tables.report_reader import read_grid

DEFERRED = [  # a caption over the years, a section, $ and parentheses, a Total row
    ["", "", "December 31,", ""],
    ["", "2019", "2018", "2017"],
    ["Beginning balances", "$36,836", "$42,432", "$49,904"],
    ["Deferral of revenue", "45,040", "40,003", "46,193"],
    ["Recognition of deferred revenue", "(41,034)", "(45,599)", "(53,665)"],
    ["Total", "$40,842", "$36,836", "$42,432"],
]
GOLAR = [  # the unit in the corner cell, "—" for nil, a % column, an unlabelled sum row
    ["", "", "December 31,", "", ""],
    ["(in thousands of $)", "2018", "2017", "Change", "% Change"],
    ["Share of net earnings in Golar Partners", "7,001", "17,702", "(10,701)", "(60)%"],
    ["Impairment of investment in Golar Partners", "(149,389)", "—", "(149,389)", "100%"],
    ["Net loss on deemed disposal of investments", "—", "(16,992)", "16,992", "100%"],
    ["Share of net earnings in other affiliates", "3,711", "793", "2,918", "368%"],
    ["", "(138,677)", "1,503", "(140,180)", "(9,327)%"],
]
GROUP = [  # headers over three rows: owner over year over unit
    ["", "Group", "", "Company", ""],
    ["", "2019", "2018", "2019", "2018"],
    ["", "£m", "£m", "£m", "£m"],
    ["Current tax", "4.1", "2.9", "1.5", "0.6"],
    ["Deferred tax", "1.8", "0.8", "0.8", "0.4"],
    ["Total charge", "5.9", "3.7", "2.3", "1.0"],
]


def test_a_caption_over_the_years_leaves_one_column_per_year():
    table = read_grid(DEFERRED)
    assert [c.name for c in table.columns] == ["item", "2019", "2018", "2017", "is_total"]
    assert [c.period for c in table.columns[1:4]] == ["2019", "2018", "2017"]
    assert table.caption == "December 31,"
    assert table.currency == "$"
    assert table.column("2019").values == [36836.0, 45040.0, -41034.0, 40842.0]
    assert table.column("is_total").values == [False, False, False, True]


def test_the_unit_in_the_corner_cell_is_the_table_scale_and_dashes_are_zero():
    table = read_grid(GOLAR)
    assert (table.scale, table.currency) == ("thousand", "$")
    assert table.column("2017").values == [17702.0, 0.0, -16992.0, 793.0, 1503.0]
    assert table.column("% Change").unit == "%"
    assert table.column("% Change").values[-1] == -9327.0


FILM = [  # no unit in any cell: the sentence before the table states it
    ["", "March 31, 2018", "March 31, 2017"],
    ["Net sales (1)", "$201,977", "$182,228"],
    ["Weighted average estimated life (in years)", "5", "10"],
]


def test_the_unit_the_lead_sentence_states_holds_when_no_cell_states_one():
    lead = "The table below sets forth net sales for fiscal 2018 and 2017 (amounts in thousands, except percentages):"
    assert (read_grid(FILM, lead).scale, read_grid(FILM, lead).currency) == ("thousand", "$")
    assert read_grid(FILM, "Les montants sont les suivants (en milliers d'euros) :").scale == "thousand"
    assert read_grid(FILM).scale == ""
    assert read_grid(FILM, "Net sales rose by $19.7 million (10.8%) in fiscal 2018.").scale == ""  # a figure, no unit
    assert read_grid(GOLAR, "Amounts (in millions):").scale == "thousand"  # the corner cell states its own


def test_a_column_named_in_years_is_in_years_not_the_tables_scale():
    grid = [["", "Gross carrying value", "Weighted average estimated life (in years)"],
            ["Computer software", "$9.4", "5"], ["Client relationships", "19.1", "10"]]  # fmt: skip
    table = read_grid(grid, "… consisted of the following (dollars in millions):")
    assert table.scale == "million"
    assert table.column("Weighted average estimated life (in years)").unit == "years"
    assert table.column("Gross carrying value").unit == ""


def test_columns_told_apart_only_by_their_currency_are_named_by_it_and_footnote_marks_are_dropped():
    grid = [["", "Dividend Paid per Ordinary Share", ""], ["Year Ended December 31,", "€", "US$"],
            ["2015", "1.15", "1.30 (1)"], ["2019 (proposed)", "1.58 (2)", "1.73 (2), (3)"]]  # fmt: skip
    table = read_grid(grid)
    assert [c.name for c in table.columns][1:3] == ["€", "US$"]
    assert table.caption.startswith("Dividend Paid per Ordinary Share")
    assert table.column("US$").values == [1.30, 1.73]  # "(2), (3)" are the footnotes' numbers


def test_a_heading_under_a_heading_is_named_with_both():
    grid = [["Recurring Fair Value Measurements", "Level 1", "Total Fair Value"],
            ["June 30, 2019", "", ""], ["Financial Assets:", "", ""], ["Money market funds", "$81,945", "$81,945"],
            ["June 30, 2018", "", ""], ["Financial Assets:", "", ""], ["Money market funds", "$14,918", "$14,918"]]  # fmt: skip
    table = read_grid(grid)
    assert table.column("section").values == ["June 30, 2019: Financial Assets", "June 30, 2018: Financial Assets"]
    assert table.column("Recurring Fair Value Measurements").values == [
        "June 30, 2019: Financial Assets: Money market funds",
        "June 30, 2018: Financial Assets: Money market funds",
    ]  # each row its own key


def test_an_unlabelled_row_that_sums_the_rows_above_is_a_total():
    table = read_grid(GOLAR)
    assert table.column("item").values[-1] == "Total"
    assert table.column("is_total").values == [False, False, False, False, True]


def test_an_unlabelled_grand_total_under_a_subtotal_is_a_total():
    grid = [["€ million", "30/9/2018", "30/9/2019"], ["Benefit plans", "344", "414"], ["Indirect", "12", "17"],
            ["", "356", "431"], ["Similar obligations", "41", "34"], ["", "397", "465"]]  # fmt: skip
    table = read_grid(grid)
    assert table.column("is_total").values == [False, False, True, False, True]
    assert table.column("item").values == ["Benefit plans", "Indirect", "Total", "Similar obligations", "Total"]
    assert [c.period for c in table.columns[1:3]] == ["2018", "2019"]
    assert (table.scale, table.currency) == ("million", "€")


def test_an_unlabelled_row_that_is_no_sum_is_not_a_total():
    grid = [row[:] for row in GOLAR]
    grid[-1][1] = "(138,000)"
    assert read_grid(grid).column("is_total").values[-1] is False


def test_headers_over_several_rows_are_joined_per_column_and_units_kept_apart():
    table = read_grid(GROUP)
    names = [c.name for c in table.columns]
    assert names == ["item", "Group · 2019", "Group · 2018", "Company · 2019", "Company · 2018", "is_total"]
    assert [c.period for c in table.columns[1:5]] == ["2019", "2018", "2019", "2018"]
    assert (table.scale, table.currency) == ("million", "£")
    assert table.column("is_total").values == [False, False, True]


def test_a_text_over_two_columns_spans_both_wherever_it_sits():
    grid = [["", "", "2019", "", "2018"], ["", "Gross", "Net", "Gross", "Net"], ["Software", "5", "4", "3", "2"]]
    names = [c.name for c in read_grid(grid).columns]
    assert names[1:5] == ["2019 · Gross", "2019 · Net", "2018 · Gross", "2018 · Net"]


def test_section_rows_label_the_rows_under_them():
    grid = [["", "2019", "2018"], ["Deferred tax assets:", "", ""], ["Losses", "$161,119", "$129,436"],
            ["Deferred tax liabilities:", "", ""], ["Depreciation", "(1,234)", "(1,000)"]]  # fmt: skip
    table = read_grid(grid)
    assert table.column("section").values == ["Deferred tax assets", "Deferred tax liabilities"]
    assert table.column("item").values == ["Losses", "Depreciation"]


SEGMENTS = [  # segments under two sections, each section closed by its heading written again with its total
    ["(In millions of dollars)", "2018", "2017"],
    ["Revenue", "", ""],
    ["Wireless", "9,200", "8,569"],
    ["Cable", "3,932", "3,894"],
    ["Revenue", "13,132", "12,463"],
    ["Adjusted EBITDA 3", "", ""],
    ["Wireless", "4,090", "3,726"],
    ["Cable", "1,874", "1,819"],
    ["Adjusted EBITDA 3", "5,964", "5,545"],
    ["Net income", "2,059", "1,845"],
]


def test_a_section_heading_written_again_with_figures_is_its_total_and_its_end():
    table = read_grid(SEGMENTS)
    items = table.column("item").values
    totals = dict(zip(items, table.column("is_total").values, strict=True))
    assert totals["Revenue"] and totals["Adjusted EBITDA 3"]
    assert not totals["Net income"] and not totals["Revenue: Wireless"]
    assert table.column("section").values[-1] is None  # "Net income" is under no section


def test_a_label_written_in_several_sections_is_named_with_its_section():
    items = read_grid(SEGMENTS).column("item").values
    assert items[:2] == ["Revenue: Wireless", "Revenue: Cable"]
    assert items[3:5] == ["Adjusted EBITDA 3: Wireless", "Adjusted EBITDA 3: Cable"]
    assert "Net income" in items  # written once: as it is


def test_a_row_in_percent_inside_a_table_of_amounts_says_so():
    grid = [
        ["($ in millions)", "2019", "2018"],
        ["Net sales", "$2,380.2", "$2,157.7"],
        ["Gross margin", "22.9%", "21.3%"],
    ]
    table = read_grid(grid)
    assert table.scale == "million"
    assert table.column("row_unit").values == [None, "%"]
    assert table.column("2019").values == [2380.2, 22.9]


def test_a_column_with_a_figure_that_does_not_read_stays_text_and_is_reported():
    grid = [["Measure", "2019", "2018"], ["Profit", "277.3", "250.1"], ["TSR", "94 percentile", "3.5"]]
    table = read_grid(grid)
    assert table.column("2019").kind == "text"
    assert table.unparsed == ["94 percentile"]


def test_a_grid_without_figures_is_no_table():
    assert read_grid([["Name", "Role"], ["Ada", "Engineer"], ["Grace", "Admiral"]]) is None
    assert read_grid([["only one row", "1"]]) is None
    assert read_grid([]) is None


def test_ragged_and_blank_rows_and_columns_are_tolerated():
    grid = [["", "2019", "", "2018"], [], ["Revenue", "10", "", "8", "", ""], ["Costs", "(3)"], [None, None]]
    table = read_grid(grid)
    assert [c.name for c in table.columns] == ["item", "2019", "2018", "is_total"]
    assert table.column("2018").values == [8.0, None]


def test_without_row_labels_no_row_is_taken_for_a_total_by_its_sum():
    table = read_grid([["a", "b"], ["1", "1"], ["2", "2"], ["3", "3"]])
    assert table.columns[0].role == "value"
    assert table.column("is_total").values == [False, False, False]


def test_junk_grids_give_a_table_or_none_and_never_raise():
    import random

    from engine.tools.tables.doc_loading import _arrow

    rng = random.Random(3)
    tokens = ["", "—", "-", "(", ")", "$", "1,234", "(5.0%)", "2019", "Total", "n/a", "%", "|", "1.2.3", "--1",
              "((3))", "$-", "€ million", "(In thousands)", "nan", "inf", "１２", "\u00a0", "9" * 30]  # fmt: skip
    tables = 0
    for _ in range(1500):
        width = rng.randint(0, 6)
        grid = [
            ["".join(rng.choice(tokens) for _ in range(rng.randint(0, 3))) for _ in range(rng.randint(0, width))]
            for _ in range(rng.randint(0, 8))
        ]
        table = read_grid(grid)
        if table is not None:
            tables += 1
            assert len({len(c.values) for c in table.columns}) == 1
            assert _arrow(table)[0].num_rows == table.rows
    assert tables > 100


def test_a_header_text_written_again_in_its_row_labels_its_own_column_only():
    """ "% of" over the second column of each year is no merged cell: the empty cell beside
    it is the next year's "Amount" column."""
    grid = [
        ["", "31 December 2019", "", "31 December 2018", ""],
        ["", "", "% of", "", "% of"],
        ["", "Amount", "revenues", "Amount", "revenues"],
        ["VAS", "26,120", "50", "20,330", "47"],
    ]
    names = [c.name for c in read_grid(grid).columns]
    assert "31 December 2018 · Amount" in names
    assert not any("2018" in n and "% of" in n and "Amount" in n for n in names)


def test_a_year_with_its_footnote_mark_glued_on_is_still_that_years_column():
    grid = [
        ["", "2015", "2016", "2017", "20181", "2019"],
        ["Net income", "672", "1,003", "227", "1,813", "1,503"],
    ]
    table = read_grid(grid)
    assert [c.name for c in table.columns if c.kind == "number"] == ["2015", "2016", "2017", "2018", "2019"]
    assert read_grid([["Units", "20181", "20190"], ["Pallets", "5", "6"]]) is not None  # no plain year: figures


def test_a_year_whose_digits_a_pdf_set_apart_is_that_years_column():
    grid = [
        ["", "December 31", ""],
        ["", "2019", "2 0 1 8"],
        ["", "U.S. $ in thousands", ""],
        ["Operating loss carryforward", "73,260", "57,768"],
        ["Valuation allowance", "(19,911)", "(15,916)"],
    ]
    table = read_grid(grid)
    assert [c.period for c in table.columns if c.kind == "number"] == ["2019", "2018"]
    assert table.scale == "thousand"


CHARGES = [  # an unlabelled subtotal closing its section, rows after it, an unlabelled one-row section total
    ["", "", "Fiscal"],
    ["", "2019", "2018"],
    ["", "", "(in millions)"],
    ["Acquisition-related charges:", "", ""],
    ["Acquisition and integration costs", "$ 27", "$ 14"],
    ["Amortization of acquisition related fair value adjustments", "3", "8"],
    ["", "30", "22"],
    ["Restructuring and other charges, net", "255", "126"],
    ["Other items(1)", "17", "—"],
    ["Total", "$ 302", "$ 148"],
]


def test_an_unlabelled_subtotal_inside_a_section_is_that_sections_total_and_its_end():
    """Two rows both named "Total" could not be told apart, and the rows under the subtotal
    are no longer the section's own."""
    table = read_grid(CHARGES)
    items = table.column("item").values
    assert items[2] == "Total Acquisition-related charges" and items[-1] == "Total"
    assert table.column("is_total").values == [False, False, True, False, False, True]
    assert table.column("section").values == ["Acquisition-related charges"] * 3 + [None] * 3


def test_an_unlabelled_row_writing_again_the_one_row_of_its_section_is_its_total():
    grid = [
        ["", "Note", "2019 £m", "2018 £m"],
        ["Fixed assets", "", "", ""],
        ["Investments", "3", "1,216.0", "1,212.9"],
        ["", "", "1,216.0", "1,212.9"],
        ["Current assets", "", "", ""],
        ["Debtors", "4", "415.9", "440.7"],
        ["Cash and cash equivalents", "5", "–", "0.2"],
        ["", "", "415.9", "440.9"],
    ]
    table = read_grid(grid)
    assert table.column("item").values == [
        "Investments", "Total Fixed assets", "Debtors", "Cash and cash equivalents", "Total Current assets",
    ]  # fmt: skip
    assert table.column("Note").kind == "text"  # where a row is explained, not a figure of it
    assert [c.name for c in table.columns if c.kind == "number"] == ["2019 £m", "2018 £m"]


def test_an_unlabelled_row_summing_its_own_section_is_its_total_after_rows_of_another_section():
    """The rows of the share-count section above are no part of the cents-per-share sum."""
    grid = [
        ["", "2019", "2018"],
        ["Profit for the period ($M)", "2,693", "1,724"],
        ["Weighted average number of shares (shares, millions)", "", ""],
        ["Basic earnings per share", "1,305.7", "1,300.5"],
        ["Diluted earnings per share", "1,313.7", "1,303.9"],
        ["Basic earnings per share (cents per share)", "", ""],
        ["Continuing operations", "114.3", "123.4"],
        ["Discontinued operations", "91.9", "9.2"],
        ["", "206.2", "132.6"],
    ]
    table = read_grid(grid)
    assert table.column("item").values[-1] == "Total Basic earnings per share (cents per share)"
    assert table.column("is_total").values == [False] * 5 + [True]


def test_a_label_written_again_under_each_of_several_rows_is_named_with_the_row_above_it():
    table = read_grid(
        [
            ["", "2019", "2018"],
            ["Revenue:", "", ""],
            ["Product", "$39,005", "$36,709"],
            ["Percentage of revenue", "75.1%", "74.4%"],
            ["Service", "12,899", "12,621"],
            ["Percentage of revenue", "24.9%", "25.6%"],
            ["Total", "$51,904", "$49,330"],
        ]
    )
    assert table.column("item").values == [
        "Product", "Product: Percentage of revenue", "Service", "Service: Percentage of revenue", "Total",
    ]  # fmt: skip


def test_dates_packed_left_over_a_repeated_group_of_columns_span_a_group_each():
    grid = [  # the dates' merged cells lost in extraction: written in the first cells
        ["", "December 31, 2012", "December 31, 2011", "", ""],
        ["In millions", "Amortized Cost", "Fair Value", "Amortized Cost", "Fair Value"],
        ["Total securities available for sale (a)", "$49,447", "$51,052", "$48,609", "$48,568"],
        ["Total securities", "$59,801", "$61,912", "$60,675", "$61,018"],
    ]
    table = read_grid(grid)
    assert [c.name for c in table.columns[1:5]] == [
        "December 31, 2012 · Amortized Cost",
        "December 31, 2012 · Fair Value",
        "December 31, 2011 · Amortized Cost",
        "December 31, 2011 · Fair Value",
    ]
