"""What the planned computation answers: the result first, its derivation, its cells.

The embedding model is not what is tested here: a deterministic fake stands in for it
(every label is as far from every question), so only words decide."""

from pathlib import Path

import numpy as np
import pytest

from engine.errors import ToolError
from engine.tools.tables import TableCatalog
from engine.tools.tables.compute_tool import ComputeArgs, ComputeTable
from engine.tools.tables.question_plan import plan
from engine.tools.tables.question_reading import read_question

REPO = Path(__file__).resolve().parents[4]
REVENUE = (
    "Segment,2019,2018,2017\n"
    'Software,"1,950","1,538","1,210"\n'
    "Hardware,800,700,650\n"
    "Services,120,95,80\n"
    'Total revenue,"2,870","2,333","1,940"\n'
)
SALES = "date,region,product,revenue_eur\n" + "\n".join(
    f"2025-{m:02d}-1{d},{region},{product},{100 * m + 10 * d + n}"
    for m in (1, 2, 3, 4, 5, 6)
    for d, (n, region, product) in enumerate(
        [(1, "Export", "Pipettes"), (7, "France", "Pipettes"), (3, "France", "Scales")]
    )
)


class FakeEncode:
    """Orthogonal unit vectors: no label is closer to a question than another."""

    similarity_range = (0.0, 1.0)

    def __call__(self, texts: list[str]) -> np.ndarray:
        return np.array([[1.0, 0.0]] * len(texts), dtype=np.float32)

    def query(self, texts: list[str]) -> np.ndarray:
        return np.array([[0.0, 1.0]] * len(texts), dtype=np.float32)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    (folder / "revenue.csv").write_text(REVENUE, encoding="utf-8")
    (folder / "sales_2025.csv").write_text(SALES, encoding="utf-8")
    return TableCatalog.from_paths([folder])


def catalog_of(folder: Path, name: str, text: str) -> TableCatalog:
    """The catalog of one report file written in ``folder``."""
    (folder / name).write_text(text, encoding="utf-8")
    return TableCatalog.from_paths([folder])


def answer(question: str, catalog: TableCatalog):
    planned = plan(question, catalog, FakeEncode())
    assert planned is not None, question
    return ComputeTable(catalog).run(ComputeTable.Args(**planned.args))


@pytest.mark.parametrize(
    ("question", "value", "statement"),
    [
        (
            "What was Software revenue in 2019?",
            "1,950",
            "1,950: Software, 2019 (revenue.csv, Software, 2019)",
        ),
        (
            "Quel était le chiffre d'affaires Software en 2018 ?",
            "1,538",
            "1,538: Software, 2018 (revenue.csv, Software, 2018)",
        ),
        (
            "What was the change in Software revenue from 2018 to 2019?",
            "412",
            "412 = 1,950 − 1,538: change in Software, 2018 to 2019 (revenue.csv, Software, 2019 and 2018)",
        ),
        (
            "What was the percentage change in Hardware revenue between 2018 and 2019?",
            "14.29%",
            "14.29% = (800 − 700) / 700 × 100: percentage change in Hardware, 2018 to 2019 "
            "(revenue.csv, Hardware, 2019 and 2018)",
        ),
        (
            "What was the average Software revenue in 2019 and 2018?",
            "1,744",
            "1,744 = (1,950 + 1,538) / 2: average of Software, 2019 and 2018 (revenue.csv, Software, 2019 and 2018)",
        ),
        (
            "What was the average revenue of Hardware from 2017 to 2019?",
            "716.67",
            "716.67 = (800 + 700 + 650) / 3: average of Hardware, 2019, 2018 and 2017 "
            "(revenue.csv, Hardware, 2019, 2018 and 2017)",
        ),
        (
            "What is the ratio of Software to Hardware revenue in 2019?",
            "2.44",
            "2.44 = 1,950 / 800: ratio of Software to Hardware, 2019 (revenue.csv, Software and Hardware, 2019)",
        ),
        (
            "In how many years was Software revenue above 1,500?",
            "2",
            "2 of 3 columns above 1,500 (2019 and 2018): Software, 2019, 2018 and 2017 "
            "(revenue.csv, Software, 2019, 2018 and 2017)",
        ),
        (
            "Dans combien d'années le chiffre d'affaires Hardware a-t-il dépassé 680 ?",
            "2",
            "2 of 3 columns above 680 (2019 and 2018): Hardware, 2019, 2018 and 2017 "
            "(revenue.csv, Hardware, 2019, 2018 and 2017)",
        ),
        (
            "In which year was Hardware revenue the highest?",
            "800",
            "2019, 800: highest Hardware by column (revenue.csv, Hardware, 2019, 2018 and 2017)",
        ),
        (
            "Which segment had the lowest revenue in 2018?",
            "95",
            "Services, 95: lowest 2018 by Segment (revenue.csv, every row but totals, 2018)",
        ),
    ],
)
def test_a_report_table_answers_with_its_derivation_and_cells(tables, question, value, statement):
    result = answer(question, tables)
    assert (result.value, result.statement) == (value, statement)
    assert result.computed and result.text.endswith(statement)


def test_a_sum_of_named_rows_never_adds_the_total_row(tables):
    result = answer("What was the sum of Software and Services revenue in 2019?", tables)
    assert (
        result.statement
        == "2,070 = 1,950 + 120: sum of Software and Services, 2019 (revenue.csv, Software and Services, 2019)"
    )
    # a report's year column mixes parts and subtotals: it is not summed whole
    assert plan("What is the sum of 2019?", tables, FakeEncode()) is None
    assert answer("What was the total revenue in 2019?", tables).statement == (
        "2,870: Total revenue, 2019 (revenue.csv, Total revenue, 2019)"
    )  # the table states the total: it is read, not recomputed


def test_a_month_filter_is_applied(tables):
    result = answer("What was the total revenue in March?", tables)
    march = sum(300 + 10 * d + n for d, n in enumerate([1, 7, 3]))  # the three March rows
    assert result.value == f"€{march:,}"
    assert "(date in March)" in result.statement and "3 rows" in result.statement


def test_a_grouped_winner_names_the_group(tables):
    result = answer("Which region had the lowest revenue in Q2 2025?", tables)
    # France sums two rows a month, so its Q2 total beats Export's though its single rows are smaller
    export = sum(100 * m + 1 for m in (4, 5, 6))
    assert result.value == f"€{export:,}"
    assert result.statement.startswith(f"Export, €{export:,}: lowest revenue_eur by region (date in Q2)")


def test_what_is_the_component_that_contributes_most_names_a_row_not_a_column(tmp_path):
    accrued = "Item,Amount\nAdvanced payments from customers,47.6\nAccrued payroll,30.2\nTotal accrued expenses,77.8\n"
    catalog = catalog_of(tmp_path, "accrued.csv", accrued)
    result = answer("What is the component that contributes the most to total accrued expenses?", catalog)
    assert result.statement.startswith("Advanced payments from customers, 47.6: highest Amount by Item")


def test_the_largest_single_row_is_not_the_largest_group(tables):
    """ "In a single month" asks for one row: its group and its date are named."""
    result = answer("Which region had the highest revenue in a single month?", tables)
    assert result.statement == (
        "France, €623: highest revenue_eur in one row, by region "
        "(sales_2025.csv, date = 2025-06-12, product = Scales, region = France)"
    )


def test_a_range_of_months_is_one_filter(tables):
    result = answer("What was the total revenue of Export from February to April?", tables)
    assert result.value == f"€{sum(100 * m + 1 for m in (2, 3, 4)):,}"
    assert "(region = Export, date in February to April)" in result.statement


def test_the_demo_sales_table_names_the_region():
    catalog = TableCatalog.from_paths([REPO / "data" / "themes" / "handbook" / "sales_2025.csv"])
    result = answer("Which region had the lowest revenue in Q2 2025?", catalog)
    assert result.value == "€960,800"
    assert result.statement.startswith("Export, €960,800: lowest revenue_eur by region (quarter in Q2) (sales_2025.csv")


@pytest.mark.parametrize(
    "question",
    [
        "Over how many years will the software be amortized?",  # about text: no table sum
        "What was the change in Software revenue from 2016 to 2019?",  # 2016 is no column
        "What was Software revenue?",  # three years and none named
        "What was the change in revenue from Q1 to Q2?",  # no two cells named on a table of records
        "Who leads the Software segment?",
        "Which desk had the lowest revenue in March?",  # no column of desks: no winner to name
    ],
)
def test_a_question_the_plan_cannot_fit_plans_nothing(tables, question):
    assert plan(question, tables, FakeEncode()) is None


def test_the_first_table_that_fits_wins(tmp_path):
    """Catalog order decides (the conversation's attachments come first)."""
    (tmp_path / "a_dropped.csv").write_text("date,revenue\n2025-03-02,105037\n2025-04-01,9\n", encoding="utf-8")
    (tmp_path / "b_theme.csv").write_text("quarter,revenue\nQ1,48196900\n", encoding="utf-8")
    catalog = TableCatalog.from_paths([tmp_path])
    assert answer("What was the total revenue in March?", catalog).value == "105,037"


def test_a_cell_the_table_lacks_is_said(tables):
    tool = ComputeTable(tables)
    args = tool.Args(table="revenue", operation="value", label_column="Segment", rows=["Cloud"], columns=["2019"])
    with pytest.raises(ToolError, match="no row 'Cloud'"):
        tool.run(args)
    zero = tool.Args(table="revenue", operation="percent_change", label_column="Segment", rows=["Software", "Services"],
                     columns=["2019"])  # fmt: skip
    assert tool.run(zero).value == "1,525%"


class CountingEncode(FakeEncode):
    def __init__(self) -> None:
        self.encoded: list[str] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.encoded.extend(texts)
        return super().__call__(texts)


def test_label_vectors_are_computed_once_per_catalog(tmp_path):
    (tmp_path / "revenue.csv").write_text(REVENUE, encoding="utf-8")
    catalog = TableCatalog.from_paths([tmp_path])
    encode = CountingEncode()
    for question in (
        "Quel était le chiffre d'affaires des logiciels en 2019 ?",
        "Quel était le chiffre d'affaires du matériel en 2018 ?",
    ):
        plan(question, catalog, encode)  # no label stands in these words: the labels are embedded
    assert sorted(encode.encoded) == ["Hardware", "Services", "Software", "Total revenue"]


def test_a_count_over_one_named_year_counts_one_cell(tables):
    result = answer("How many years did Software revenue exceed 1,900 in 2019?", tables)
    assert result.value == "1" and "1 of 1 columns above 1,900 (2019)" in result.statement


def test_a_french_answer_is_stated_in_french(tables):
    planned = plan("Quelle a été la variation du chiffre d'affaires Software de 2018 à 2019 ?", tables, FakeEncode())
    result = ComputeTable(tables, language="fr").run(ComputeTable.Args(**planned.args))
    assert result.statement == (
        "412 = 1,950 − 1,538 : variation de Software, 2018 à 2019 (revenue.csv, Software, 2019 et 2018)"
    )
    grouped = plan("Quelle région a le chiffre d'affaires le plus bas au T2 2025 ?", tables, FakeEncode())
    assert grouped is None  # no column is named "chiffre d'affaires" in words, and the fake model finds none
    march = plan("Quel a été le revenue total en mars ?", tables, FakeEncode())
    statement = ComputeTable(tables, language="fr").run(ComputeTable.Args(**march.args)).statement
    assert statement.startswith("€941 : somme de revenue_eur (date en mars) (sales_2025.csv, date en mars ; 3 lignes)")


def test_a_column_total_leaves_the_total_row_out(tmp_path):
    (tmp_path / "budget.csv").write_text(
        "department,budget_eur\nOperations,2480000\nFleet,1365000\nIT,618500\nTotal,4463500\n", encoding="utf-8"
    )
    catalog = TableCatalog.from_paths([tmp_path])
    total = answer("What is the total budget of all departments?", catalog)
    assert total.statement == "€4,463,500: Total, budget_eur (budget.csv, Total, budget_eur)"  # read, not 8,927,000
    mean = answer("What is the average budget of the departments?", catalog)
    assert mean.statement == (
        "€1,487,833.33 = (2,480,000 + 1,365,000 + 618,500) / 3: average of department rows, budget_eur "
        "(budget.csv, every row but totals, budget_eur)"
    )


def test_a_share_is_a_part_of_its_whole(tables):
    result = answer("What percentage of Total revenue was Software in 2019?", tables)
    assert result.value == "67.94%"
    assert result.statement.startswith("67.94% = 1,950 / 2,870 × 100: share of Software in Total revenue, 2019")


def test_a_count_of_rows_meeting_a_condition(tables):
    result = answer("How many segments had revenue above 500 in 2019?", tables)
    assert result.value == "2" and "rows above 500 (Software and Hardware)" in result.statement


def test_a_question_asking_for_a_reason_plans_no_computation(tables):
    assert plan("What caused the change in Software revenue from 2018 to 2019?", tables, FakeEncode()) is None
    assert plan("Why did Hardware revenue increase in 2019?", tables, FakeEncode()) is None


def test_an_amount_carries_the_scale_its_table_states(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "capex.md",
        "| (In millions of dollars) | 2019 | 2018 |\n|---|---|---|\n| Wireless | 1,320 | 1,086 |\n"
        "| Margin | 18.5% | 18.6% |\n",
    )
    change = answer("What was the change in Wireless from 2018 to 2019?", catalog)
    assert change.statement.startswith("234 million = 1,320 − 1,086: change in Wireless, 2018 to 2019")
    assert change.value == "234 million"
    margin = answer("What was the Margin in 2019?", catalog)
    assert margin.statement.startswith("18.5%: Margin, 2019")  # a row in percent: no scale word


def test_the_cells_of_two_rows_named_are_read_in_the_order_asked(tables):
    result = answer("What was the revenue of Services and Software in 2019, respectively?", tables)
    assert result.statement.startswith("120; 1,950: Services and Software, 2019 (revenue.csv")
    respective = answer("What are the respective revenues of Services and Software in 2019?", tables)
    assert respective.statement.startswith("120; 1,950: Services and Software, 2019 (revenue.csv")


def test_a_report_table_column_is_never_summed_whole(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "balances.md",
        "| Current assets | As Reported | Adjustments |\n|---|---|---|\n| Inventories | 1,571.7 | (3.1) |\n"
        "| Prepaid expenses | 93.8 | (16.6) |\n| Other accrued liabilities | 673.4 | 17.1 |\n",
    )
    assert plan("How much was the total of the adjustments?", catalog, FakeEncode()) is None  # assets and liabilities


def test_one_row_asked_is_one_cell_however_many_labels_hold_its_words(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "grants.md",
        "| Grants | 2019 | 2018 |\n|---|---|---|\n| Government grants1 | 1.3 | 1.1 |\n| Government grants2 | 1 | 0.9 |\n",
    )
    planned = plan("What were the government grants in 2019?", catalog, FakeEncode())
    assert planned is None or len(planned.args["rows"]) == 1


def test_one_rows_cells_are_read_in_the_years_asked(tables):
    result = answer("What is the respective revenue from Hardware in 2018 and 2019?", tables)
    assert result.statement.startswith("700; 800: Hardware, 2018 and 2019 (revenue.csv")
    assert plan("What is the revenue from Hardware?", tables, FakeEncode()) is None  # which year is not said


def test_per_share_and_a_years_end_date_are_no_share_and_no_month(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "eps.md",
        "| (In thousands) | 2019 | 2018 |\n|---|---|---|\n| Net loss | (19,898) | (26,199) |\n"
        "| Basic net loss per share | (0.28) | (0.38) |\n",
    )
    eps = plan("What was the basic net loss per share in 2019?", catalog, FakeEncode())
    assert eps is not None and eps.args["operation"] == "value" and eps.args["rows"] == ["Basic net loss per share"]
    mean = plan("What is the average net loss for the year ended December 31, 2019 to 2018?", catalog, FakeEncode())
    assert mean is not None and mean.args["operation"] == "mean" and not mean.ignores_period
    assert read_question("What share of total revenue did Software make in 2019?").operation == "share"
    assert read_question("What was the revenue in December?").months == (12,)


def test_a_decrease_asked_is_the_earlier_figure_less_the_later(tables):
    result = answer("What was the decrease in Hardware revenue from 2019 to 2018?", tables)
    assert result.statement.startswith("-100 = 700 − 800: decrease in Hardware, 2018 to 2019")  # it rose
    fall = answer("What is the decrease in Software revenue between 2018 and 2017?", tables)
    assert fall.statement.startswith("-328 = 1,210 − 1,538: decrease in Software, 2017 to 2018")
    assert read_question("What was the increase or decrease in Software?").operation == "change"


def test_a_decrease_of_a_falling_row_is_positive(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "licences.md",
        "| Licensing revenue | 2019 | 2018 |\n|---|---|---|\n| Zyla (Oxaydo) | 351 | 386 |\n| Other | 10 | 12 |\n",
    )
    result = answer("What is the decrease in licensing revenue from Zyla (Oxaydo) from 2018 to 2019?", catalog)
    assert result.statement.startswith("35 = 386 − 351: decrease in Zyla (Oxaydo), 2018 to 2019")


def test_no_plan_for_a_name_the_table_does_not_hold_or_a_percentage_its_cells_do_not_give(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "arpu.md",
        "| | 2018 | 2017 |\n|---|---|---|\n| Average Revenue Per Unit (ARPU) | | |\n| ARPU—on-net | 480 | 506 |\n"
        "| Customer connections | | |\n| On-net | 68,770 | 61,334 |\n",
    )
    assert plan("What are the respective APRU from on-net in 2017 and 2018?", catalog, FakeEncode()) is None
    held = plan("What are the respective ARPU from on-net in 2017 and 2018?", catalog, FakeEncode())
    assert held is not None and held.args["rows"] == ["ARPU—on-net"]
    assert plan("What percentage of the decrease in On-net is from 2018?", catalog, FakeEncode()) is None


def test_a_rows_heading_tells_apart_the_row_the_question_names(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "eps.md",
        "| | 2019 | 2018 |\n|---|---|---|\n| Numerator: | | |\n| Net loss | $(19,898) | $(26,199) |\n"
        "| Net loss per share: | | |\n| Basic | $(0.28) | $(0.38) |\n| Diluted | $(0.28) | $(0.38) |\n",
    )
    eps = plan("What was the basic net loss per share in 2019?", catalog, FakeEncode())
    assert eps is not None and eps.args["rows"] == ["Basic"]
    loss = plan(
        "What is the average Numerator: Net loss for the year ended December 31, 2019 to 2018?", catalog, FakeEncode()
    )
    assert loss is not None and (loss.args["operation"], loss.args["rows"]) == ("mean", ["Net loss"])
    assert not loss.ignores_period  # "December 31" dates the year, it filters on no month


def test_a_change_from_one_row_to_another_is_the_second_minus_the_first(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "warranty.md",
        "| | 2019 | 2018 |\n|---|---|---|\n| Warranty reserve, beginning of period | $8,220 | $8,306 |\n"
        "| Provisions made to warranty reserve during the period | 13,708 | 11,775 |\n"
        "| Warranty reserve end of period | $10,354 | 8,220 |\n",
    )
    result = answer("What is the difference in warranty reserve from beginning to end of period 2019?", catalog)
    assert result.value.lstrip("$") == "2,134"
    assert "10,354 − 8,220: change in Warranty reserve, beginning of period to Warranty reserve end of period" in (
        result.statement
    )


def test_a_difference_between_two_years_is_the_larger_less_the_smaller_and_a_change_keeps_its_sign(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "sbc.md",
        "| | 2019 | 2018 | 2017 |\n|---|---|---|---|\n| Cost of revenue | $1,100 | $1,200 | $900 |\n"
        "| Total share-based compensation expense | $8,074 | $9,146 | $10,637 |\n",
    )
    asked = "What is the difference in the total share-based compensation expense between 2018 and 2019?"
    difference = answer(asked, catalog)
    assert difference.value.lstrip("$") == "1,072"
    assert "1,072 = 9,146 − 8,074: difference of Total share-based compensation expense, 2018 and 2019" in (
        difference.statement
    )
    change = answer(asked.replace("difference", "change"), catalog)
    assert change.value.lstrip("$") == "-1,072"
    assert "8,074 − 9,146: change in Total share-based compensation expense, 2018 to 2019" in change.statement


def test_a_figure_per_share_does_not_carry_the_tables_scale(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "loss.md",
        "| (In thousands) | 2019 | 2018 |\n|---|---|---|\n| Net loss | (19,898) | (26,199) |\n"
        "| Net loss per share: | | |\n| Basic | (0.28) | (0.40) |\n",
    )
    assert answer("What was the basic net loss per share in 2019?", catalog).statement.startswith("-0.28: Basic, 2019")
    assert answer("What was the net loss in 2019?", catalog).statement.startswith(
        "19,898 thousand: Net loss"
    )  # a loss of 19,898


def test_fiscal_years_written_over_two_calendar_years_find_their_columns(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "personnel.md",
        "| € million | 2017/2018 | 2018/2019 |\n|---|---|---|\n| Wages and salaries | 2,173 | 2,264 |\n"
        "| Social security expenses | 552 | 552 |\n",
    )
    change = answer("What was the change in wages and salaries in 2018/2019 from 2017/2018?", catalog)
    assert change.statement.startswith("91 million = 2,264 − 2,173")
    assert answer("What were wages and salaries in FY2019?", catalog).statement.startswith("2,264 million")


def test_a_remark_in_a_row_label_does_not_hide_the_row(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "cash.md",
        "| | 2019 | 2018 | 2017 |\n|---|---|---|---|\n| Cash paid for interest | 750.2 | 789.7 | 712.1 |\n"
        "| Cash paid for income taxes (net of refunds of $11.2, $25.0 and $20.7, respectively) | 136.5 | 163.9 | 147.5 |\n",
    )
    count = answer("How many years did the cash paid for income taxes exceed $150 million?", catalog)
    assert count.statement.startswith("1 of 3")
    assert "income taxes" in count.statement


def test_a_row_named_by_the_operation_word_alone_is_not_the_subject(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "franchise.md",
        "| | 2019 | 2018 |\n|---|---|---|\n| Franchise rental revenues | 272,815 | 259,047 |\n"
        "| % increase | 2.6% | 3.1% |\n",
    )
    change = answer("What was the increase in franchise rental revenues from 2018 to 2019?", catalog)
    assert change.statement.startswith("13,768 = 272,815 − 259,047")
    planned = plan("What is the increase in franchise rental revenues in 2019?", catalog, FakeEncode())
    assert planned is None or "% increase" not in planned.args["rows"]


def test_an_extreme_word_inside_a_name_is_not_the_operation(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "profit.md",
        "| | Maximum | Actual |\n|---|---|---|\n| Group operating profit | 290.0 | 277.3 |\n"
        "| Group cash generation | 300.0 | 296.4 |\n",
    )
    planned = plan("What was the maximum group operating profit?", catalog, FakeEncode())
    assert planned is not None and planned.args["operation"] == "value"
    assert planned.args["columns"] == ["Maximum"]


@pytest.mark.parametrize(
    "question",
    [
        "What accounted for the decrease in Software revenue in 2019?",
        "What were the main reasons for the components of total revenue to change?",
    ],
)
def test_a_question_asking_for_words_plans_nothing(tables, question):
    assert plan(question, tables, FakeEncode()) is None


def test_a_change_asked_in_the_past_tense_is_computed(tables):
    decrease = answer("How much did Hardware revenue decreased by from 2018 to 2019?", tables)
    assert decrease.statement.startswith("-100 = 700 − 800: decrease in Hardware")  # earlier − later: it rose
    increase = answer("How much did Services revenue increased by from 2018 to 2019?", tables)
    assert increase.statement.startswith("25 = 120 − 95")


def test_an_average_between_two_years_takes_every_year_of_the_span(tables):
    result = answer("What is the average Services revenue between 2017 and 2019?", tables)
    assert result.statement.startswith("98.33 = (120 + 95 + 80) / 3")


def test_an_average_naming_no_year_is_of_every_year_the_row_holds(tables):
    result = answer("What is the average annual Services revenue?", tables)
    assert result.statement.startswith("98.33 = (120 + 95 + 80) / 3: average of Services, 2019, 2018 and 2017")


def test_the_average_of_a_year_is_of_its_closing_and_opening_figures(tables):
    """ "The 2019 average X", as an average balance is: X at the end of 2019 and of 2018."""
    result = answer("What is the 2019 average Software revenue?", tables)
    assert result.statement.startswith("1,744 = (1,950 + 1,538) / 2: average of Software, 2019 and 2018")
    assert plan("What is the 2017 average Software revenue?", tables, FakeEncode()) is None  # no 2016 column


def test_of_two_columns_of_a_year_the_one_whose_own_word_the_question_names(tmp_path):
    """ "Gross Goodwill At December 31, 2010" and "Net Goodwill At December 31, 2010": "gross" tells them apart."""
    goodwill = (
        "| | Gross Goodwill At December 31, 2010 | Accumulated Impairment Losses | Net Goodwill At December 31, 2010 |\n"
        "|---|---|---|---|\n| Cabinets and Related Products | $587 | $(364) | $223 |\n"
        "| Plumbing Products | 536 | (340) | 196 |\n| Total | $1,123 | $(704) | $419 |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", goodwill)
    share = answer(
        "As of December 31 2010, what percent of the total gross goodwill is cabinets and related products?", catalog
    )
    assert share.statement.startswith("52.27% = 587 / 1,123 × 100")
    net = answer("What was the net goodwill of plumbing products at December 31, 2010?", catalog)
    assert net.statement.startswith("196")
    # no word of either: the year alone tells no column
    assert plan("What was the goodwill of plumbing products at December 31, 2010?", catalog, FakeEncode()) is None


def test_which_of_the_rows_named_is_largest_ranks_those_rows_only(tmp_path):
    facilities = (
        "| | Carrying Value (USD) · 2019 | Carrying Value (USD) · 2018 |\n|---|---|---|\n"
        "| South African Credit Facility (2) | $20.6 | $40.2 |\n| Colombian Credit Facility (3) | $24.3 | $33.6 |\n"
        "| Brazil Credit Facility (4) | $16.2 | $24.4 |\n| USD Denominated (8) | $238.8 | $240.1 |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", facilities)
    question = (
        "For South African Credit Facility, Colombian Credit Facility and Brazil Credit Facility, which credit "
        "facility has the greatest Carrying Value (USD) at 2019?"
    )
    assert answer(question, catalog).statement.startswith("Colombian Credit Facility (3), 24.3")


def test_a_weighted_average_is_a_measure_named_not_a_mean_of_two_years(tmp_path):
    """ "The weighted-average discount rate" names the rates a table shows: its change is of one row's cells."""
    rates = "Weighted-average discount rate assumptions are as follows:\n\n| | 2015 | 2014 |\n|---|---|---|\n"
    rates += "| U.S. pension plans | 4.30% | 3.95% |\n| Non-U.S. pension plans | 1.68% | 1.92% |\n"
    catalog = catalog_of(tmp_path, "report.md", rates)
    question = "What is the percentage change in the weighted-average discount rate for non-U.S. pension plans from 2014 to 2015?"
    assert answer(question, catalog).statement.startswith("-12.5% = (1.68 − 1.92) / 1.92 × 100")
    # an average of a year still asks two means, which no one computation of two cells is
    assert plan("What is the change between 2014 and 2015 average discount rate?", catalog, FakeEncode()) is None


@pytest.mark.parametrize(
    "question",
    [
        "What is the sum of the three highest revenues in 2019?",
        "What is the total of the top 2 segments in 2018?",
        "Which segment had the smallest percentage change from 2018 to 2019?",
        "What was the maturity date of the Software revenue?",
        "What was the Software revenue in 2019 related to?",
        "What is the change between 2018 and 2019 average Software revenue?",  # of two averages
        "What is the difference between 2019 average Software revenue and 2019 average Hardware revenue?",
    ],
)
def test_a_question_one_computation_cannot_answer_plans_nothing(tables, question):
    assert plan(question, tables, FakeEncode()) is None


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("In which year was Software revenue larger?", "2019, 1,950: highest Software by column"),
        ("Between 2017 and 2018, which year had a higher Hardware revenue?", "2018, 700: highest Hardware"),
        ("In which year was Services revenue smallest?", "2017, 80: lowest Services by column"),
        ("In which years was Hardware revenue less than 750?", "2018 and 2017: Hardware below 750"),
        ("In which year was Services revenue greater than 100?", "2019: Services above 100"),
        ("In which years was Software revenue below 1,000?", "none: Software below 1,000"),
        ("Which years does the table provide information for?", "2019, 2018 and 2017: the periods with figures"),
        ("In which years was Services revenue recorded?", "2019, 2018 and 2017: the periods with figures for Services"),
    ],
)
def test_a_which_year_question_names_the_period(tables, question, first):
    """ "Which year was X larger", "in which years was X below N", "which years does the
    table cover": the answer is the period, stated first, from the row's cells."""
    assert answer(question, tables).statement.startswith(first)


def test_each_year_listed_reads_every_period_column_and_chronological_order_is_kept(tables):
    each = answer("What is the Software revenue for each financial year listed, in chronological order?", tables)
    assert each.statement.startswith("1,210; 1,538; 1,950: Software, 2017, 2018 and 2019")
    total = answer("What is the total revenue for each year?", tables)  # the Total row's cells, not their sum
    assert total.statement.startswith("2,870; 2,333; 1,940: Total revenue")
    years = answer("Which financial years are listed in the table? (in chronological order)", tables)
    assert years.statement.startswith("2017, 2018 and 2019: the periods")


def test_the_periods_of_a_row_leave_out_the_empty_cells(tmp_path):
    catalog = catalog_of(tmp_path, "costs.csv", "Item,FY19,FY18,2017/2018 vs. 2016/2017\nRent,10,,5\nFees,3,4,1\n")
    assert answer("In which years was Rent recorded?", catalog).statement.startswith("FY19: the periods")
    assert answer("Which year was Fees larger?", catalog).statement.startswith("FY18, 4: highest Fees")


def test_the_components_of_a_total_are_the_rows_above_it(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "stock.md",
        "| (In thousands) | 2019 | 2018 |\n|---|---|---|\n| Raw materials | 3,445 | 2,969 |\n"
        "| Finished goods | 6,356 | 6,253 |\n| Total inventories | 9,801 | 9,222 |\n"
        "| Prepayments: | | |\n| Prepaid taxes | 8,046 | 7,001 |\n| Other prepayments | 120 | 98 |\n",
    )
    of_total = answer("What are the components of total inventories?", catalog).statement
    assert of_total.startswith("Raw materials and Finished goods: the rows making up Total inventories")
    of_heading = answer("What are the types of prepayments in the table?", catalog).statement
    assert of_heading.startswith("Prepaid taxes and Other prepayments: the table's rows")
    assert plan("What are the components of Finished goods?", catalog, FakeEncode()) is None  # no total, no heading
    assert plan("What are the components of inventories above 5,000?", catalog, FakeEncode()) is None  # a condition


def test_the_activity_of_a_roll_forward_is_its_movements_named_without_footnote_marks(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "awards.md",
        "|  | Number of shares | Fair Value |\n|---|---|---|\n|  | (In thousands) |  |\n"
        "| Non-vested at December 31, 2018 | 17,059 | $19.65 |\n| Granted(1) | 9,780 | 12.41 |\n"
        "| Vested | (9,038) | 19.54 |\n| Forfeited | (1,757) | 18.62 |\n| Non-vested at December 31, 2019 | 16,044 | 15.42 |\n",
    )
    asked = "What are the types of activity involving restricted stock and restricted stock unit awards?"
    statement = answer(asked, catalog).statement
    assert statement.startswith("Granted, Vested and Forfeited: the table's rows")
    assert "Granted(1)" in statement  # the cited row keeps its label


def test_a_part_is_never_added_to_the_row_that_adds_it_up(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "segments.md",
        "|  | AMER | APAC | Total |\n|---|---|---|---|\n| Market Sector: |  |  |  |\n"
        "| Healthcare/Life Sciences | $488,851 | $602,922 | $1,091,773 |\n| Industrial | 359,381 | 534,971 | 894,352 |\n"
        "| External revenue | 848,232 | 1,137,893 | 1,986,125 |\n| Inter-segment sales | 6,995 | 119,497 | 126,492 |\n"
        "| Segment revenue | $855,227 | $1,257,390 | $2,112,617 |\n",
    )
    whole = answer("What was the total revenue from the Healthcare/Life Sciences segment?", catalog)
    assert whole.statement.startswith("1,091,773: Healthcare/Life Sciences, Total")  # not + 2,112,617
    parts = answer("What is the sum of External revenue and Inter-segment sales in AMER?", catalog)
    assert parts.statement.startswith("855,227 = 848,232 + 6,995")  # neither adds up the other


def test_a_total_column_is_not_summed_over_rows_the_question_does_not_name(tmp_path):
    catalog = catalog_of(
        tmp_path, "maturities.csv", "item,Within 1 year,1-5 years,Total\nLease liabilities,119712,34599,154311\n"
        "Bank loans,149843,24261,174104\n",
    )  # fmt: skip
    assert plan("What is the Total short-term lines of credit at the end of 2019?", catalog, FakeEncode()) is None
    assert answer("What is the total of Bank loans?", catalog).statement.startswith("174,104: Bank loans, Total")


def test_a_table_of_periods_down_its_rows_is_read_by_the_years_asked(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "purchases.md",
        "| Period | Total number of shares purchased | Average price paid per share |\n|---|---|---|\n"
        "| 1/1/2018 to 1/31/2018 | 106,441 | $ 8.22 |\n| Fiscal Year 2018 | 217,732 | $ 6.33 |\n"
        "| 1/1/2019 to 1/31/2019 | 46,743 | $ 2.54 |\n| Fiscal Year 2019 | 211,136 | $ 2.55 |\n",
    )
    change = answer(
        "What is the change in the total number of shares purchased between fiscal years 2018 and 2019?", catalog
    )
    assert change.statement.startswith("-6,596 = 211,136 − 217,732: change in Fiscal Year 2018 to Fiscal Year 2019")
    from_to = answer(
        "What is the percentage change of the average price paid per share from fiscal year 2018 to 2019?", catalog
    )
    assert from_to.statement.startswith("-59.72% = (2.55 − 6.33) / 6.33 × 100")  # later first, as "from … to" reads
    planned = plan("What is the change in the total number of shares purchased between fiscal years 2018 and 2019?",
                   catalog, FakeEncode())  # fmt: skip
    assert planned is not None and not planned.ignores_period  # the rows name the years


def test_a_quarter_its_rows_name_is_a_period_the_plan_meets(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "prices.md",
        "|  | High | Low |\n|---|---|---|\n| Fiscal Year Ended April 27, 2019 |  |  |\n| First Quarter | $45.45 | $37.70 |\n"
        "| Second Quarter | 41.30 | 27.65 |\n| Fiscal Year Ended April 28, 2018 |  |  |\n| First Quarter | $44.95 | $36.10 |\n"
        "| Second Quarter | 46.75 | 38.20 |\n",
    )
    asked = "What is the change in First Quarter: High price from Fiscal Year Ended April 28, 2018 to Fiscal Year Ended April 27, 2019?"
    planned = plan(asked, catalog, FakeEncode())
    assert planned is not None and not planned.ignores_period  # "First Quarter" stands in each row the plan reads
    assert answer(asked, catalog).statement.startswith("0.5 = 45.45 − 44.95")


def test_the_items_under_the_heading_named_most_are_read_from_a_column_that_holds_them(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "payables.md",
        "|  |  | 2019 | 2018 |\n|---|---|---|---|\n| Note | Note | $ million | $ million |\n| Current |  |  |  |\n"
        "| Trade payables |  | 24.6 | 12.9 |\n| Government grants1 | 24 | 1.8 | 1.3 |\n|  |  | 26.4 | 14.2 |\n"
        "| Non-current |  |  |  |\n| Other payables2 |  | 0.8 | 4.4 |\n| Government grants2 | 24 | 0.2 | 1.0 |\n"
        "|  |  | 1.0 | 5.4 |\n",
    )
    statement = answer("What are the components under Non-current?", catalog).statement
    assert statement.startswith("Other payables and Government grants: the ")  # not Current's rows


def test_two_months_asked_are_met_by_the_columns_that_name_them(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "quarters.md",
        "|  | February 28,2019 | November 30,2018 |\n|---|---|---|\n| Net revenue | 6,066,990 | 6,506,275 |\n",
    )
    asked = "What was the percentage change in net revenue between November 2018 and February 2019?"
    planned = plan(asked, catalog, FakeEncode())
    assert planned is not None and not planned.ignores_period  # each column names one of the months asked
    assert answer(asked, catalog).statement.startswith("-6.75% = (6,066,990 − 6,506,275) / 6,506,275 × 100")


def test_a_total_asked_for_each_year_respectively_is_each_years_total():
    assert read_question("What is the total revenue in 2018 and 2019 respectively?").operation == "value"
    assert read_question("What is the total revenue in 2018 and 2019?").operation == "sum"


def test_the_years_shown_in_the_table_are_every_period_column_in_the_order_asked(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "ga.md",
        "|  | Years ended December 31, |  |  | 2019 vs 2018 | 2018 vs 2017 |\n|---|---|---|---|---|---|\n"
        "|  | 2019 | 2018 | 2017 | % Change | % Change |\n|  | (in thousands, except percentages) |  |  |  |  |\n"
        "| General and administrative | $ 178,934 | $ 107,444 | $ 67,719 | 66.5 % | 58.7 % |\n",
    )
    asked = "How much is the general and administrative expenses for the 3 financial years shown in the table"
    shown = answer(asked + " (in chronological order)?", catalog).statement
    assert shown.startswith("67,719 thousand; 107,444 thousand; 178,934 thousand: General and administrative")
    assert "66.5" not in shown  # a comparison column is no period


def test_a_what_percentage_question_is_not_a_which_name_question(tables):
    result = answer("What percentage of Total revenue was Software in 2019?", tables)
    assert result.statement.startswith("67.94%")


def test_an_amount_asked_reads_the_years_amount_column_not_its_percent_column(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "segments.md",
        "| | 2019 | 2019 | 2018 | 2018 |\n|---|---|---|---|---|\n| | RMB | % of revenues | RMB | % of revenues |\n"
        "|---|---|---|---|---|\n| VAS revenues | 199,991 | 53% | 176,646 | 56% |\n",
    )
    change = answer("What is the change in VAS revenues from 2018 to 2019?", catalog)
    assert change.statement.startswith("23,345 = 199,991 − 176,646")


def test_a_column_per_share_carries_no_table_scale(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "dividends.md",
        "| (In millions) | 2019 · Cents per share | 2018 · Cents per share |\n|---|---|---|\n"
        "| Current year interim | 45 | 43 |\n",
    )
    assert answer("What is the average current year interim for 2018 and 2019?", catalog).statement.startswith("44 = ")


def test_of_two_rows_named_whole_the_one_named_more_fully_wins(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "growth.md",
        "| | 2019 | 2018 |\n|---|---|---|\n| Revenue | 576,523 | 537,891 |\n| Revenue growth | 7.2% | 11.6% |\n",
    )
    assert answer("What is the change in revenue growth between 2019 and 2018?", catalog).statement.startswith("-4.4")


def test_a_column_comparing_two_years_is_neither_year_nor_the_rows_unit(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "income.md",
        "| (dollars in millions) | 2019 | 2018 | Increase/ (Decrease) · 2019 vs. 2018 |\n|---|---|---|---|\n"
        "| Interest income | 121 | 94 | 28.7% |\n| Other, net | (44) | (73) | 39.7 |\n",
    )
    change = answer("What is the change in Interest income from 2018 to 2019?", catalog)
    assert change.statement.startswith("27 million = 121 − 94")  # not "27%": the 28.7% is the change column's


def test_two_value_columns_named_are_not_answered_by_one_cell(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "bonds.md",
        "| | Unrealized Gains | Unrealized Losses | Fair Value |\n|---|---|---|---|\n"
        "| Municipal bonds | 13 | (110) | 44,705 |\n| Corporate bonds | 23 | (59) | 48,296 |\n",
    )
    assert (
        plan("What is the net value of the unrealized gains and losses of municipal bonds?", catalog, FakeEncode())
        is None
    )
    assert answer("What is the fair value of municipal bonds?", catalog).statement.startswith("44,705")


def test_the_components_making_up_a_total_are_its_rows(tables):
    statement = answer("What are the components making up total revenue in the table?", tables).statement
    assert statement.startswith("Software, Hardware and Services: the rows making up Total revenue")


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("What was the difference between Services and Hardware revenue in 2019?", "680 = 800 − 120"),
        ("What was the difference between Hardware and Services revenue in 2019?", "680 = 800 − 120"),
    ],
)
def test_the_difference_between_two_items_is_the_larger_less_the_smaller(tables, question, first):
    assert answer(question, tables).statement.startswith(first)


def test_a_change_of_one_item_between_years_keeps_its_direction(tables):
    assert answer("What was the change in Hardware revenue from 2019 to 2018?", tables).statement.startswith(
        "100 = 800"
    )


SEGMENT_REPORT = (
    "| (In millions of dollars) | 2018 | 2017 |\n|---|---|---|\n| Revenue | | |\n| Wireless | 9,200 | 8,569 |\n"
    "| Cable | 3,932 | 3,894 |\n| Revenue | 13,132 | 12,463 |\n| Adjusted EBITDA | | |\n| Wireless | 4,090 | 3,726 |\n"
    "| Cable | 1,874 | 1,819 |\n| Adjusted EBITDA | 5,964 | 5,545 |\n"
)


def test_a_segment_under_a_section_heading_is_its_row_not_the_sections_total(tmp_path):
    catalog = catalog_of(tmp_path, "segments.md", SEGMENT_REPORT)
    result = answer("What is the increase/ (decrease) in cable revenue from 2017 to 2018?", catalog)
    assert result.statement.startswith("38 million = 3,932 − 3,894")
    result = answer("What was the wireless adjusted EBITDA in 2017?", catalog)
    assert result.statement.startswith("3,726 million")


def test_a_segment_in_several_sections_with_none_named_is_no_one_row(tmp_path):
    catalog = catalog_of(tmp_path, "segments.md", SEGMENT_REPORT)
    assert plan("What was the change in Cable between 2017 and 2018?", catalog, FakeEncode()) is None


DIRECTORS = (
    "| Name | Fees Earned | All Other Compensation | Total |\n|---|---|---|---|\n| Continuing Directors: | | | |\n"
    "| Martha Bejar | $120,000 | $4,000 | $270,472 |\n| Virginia Boulet | $135,000 | — | $200,000 |\n"
    "| Non-Returning Directors: | | | |\n| Mary Landrieu | $110,000 | $3,000 | $259,472 |\n"
    "| Glen Post | $150,000 | $4,436 | $471,422 |\n"
)


def test_which_row_of_a_named_section_is_lowest_ranks_that_sections_rows_by_the_column_named_most_fully(tmp_path):
    catalog = catalog_of(tmp_path, "directors.md", DIRECTORS)
    result = answer("Which non-returning director has the lowest amount of total compensation?", catalog)
    # "Total", named in full, not "All Other Compensation"; Virginia Boulet (lower) is a continuing director
    assert result.statement.startswith("Mary Landrieu, 259,472: lowest Total by Name")
    result = answer("Which director has the lowest amount of total compensation?", catalog)
    assert result.statement.startswith("Virginia Boulet, 200,000: lowest Total by Name")


def test_rows_under_a_heading_that_opens_with_total_are_summed_as_the_rows_they_are(tmp_path):
    report = (
        "| (Dollars in millions) | 2019 | 2018 |\n|---|---|---|\n| Total Revenues by Business: | | |\n"
        "| Cloud and license | $32,562 | $31,994 |\n| Hardware | 3,704 | 3,994 |\n| Total revenues | $39,506 | $39,383 |\n"
        "| % Revenues by Business: | | |\n| Cloud and license | 83% | 81% |\n| Hardware | 9% | 10% |\n"
    )
    catalog = catalog_of(tmp_path, "revenues.md", report)
    result = answer("What was the total revenue from the hardware and cloud and license businesses in 2018?", catalog)
    assert result.statement.startswith("35,988 million = 31,994 + 3,994")


def test_the_sign_word_of_a_reconciliation_row_is_not_part_of_its_name(tmp_path):
    report = (
        "| (in thousands) | 2019 | 2018 |\n|---|---|---|\n| Tax credits | $79,480 | $69,091 |\n"
        "| Gross deferred tax assets | 174,836 | 158,277 |\n| Less: valuation allowance | (77,177) | (69,852) |\n"
        "| Total deferred tax assets | $97,659 | $88,425 |\n"
    )
    catalog = catalog_of(tmp_path, "deferred.md", report)
    result = answer("What was the valuation allowance for certain deferred tax assets in 2019?", catalog)
    assert result.statement.startswith("77,177 thousand: Less: valuation allowance, 2019")


def test_a_table_of_assumptions_in_several_units_is_read_row_by_row(tmp_path):
    report = (
        "| | December 31, 2018 | December 31, 2019 |\n|---|---|---|\n| Exercise price | 1.25 | 1.25 |\n"
        "| Risk-free interest rate | 2.46% | 1.59% |\n| Contractual term | 2.15 years | 1.15 years |\n"
    )
    catalog = catalog_of(tmp_path, "assumptions.md", report)
    assert answer(
        "What is the percentage change in exercise price between 2018 and 2019?", catalog
    ).statement.startswith("0% = (1.25 − 1.25) / 1.25 × 100")
    assert answer("What was the contractual term in 2019?", catalog).statement.startswith("1.15 years")


def test_a_column_of_two_years_is_added_once_for_the_years_it_holds(tmp_path):
    report = (
        "| (in thousands) | 2020 | 2021 - 2022 | 2023 - 2024 | Total |\n|---|---|---|---|---|\n"
        "| Operating lease obligations | 19,373 | 36,373 | 19,683 | $75,429 |\n| Purchase obligations | $24,800 | $8,129 | $438 | $33,367 |\n"
    )
    catalog = catalog_of(tmp_path, "obligations.md", report)
    result = answer("What is the company's total operating lease obligations between 2020 to 2022?", catalog)
    assert result.statement.startswith("55,746 thousand = 36,373 + 19,373")


def test_net_liabilities_in_parentheses_are_stated_as_the_liabilities_they_are(tmp_path):
    report = "| £m | 2019 | 2018 |\n|---|---|---|\n| Revenue | 64.0 | 68.3 |\n| Net liabilities | (319.9) | (142.7) |\n"
    catalog = catalog_of(tmp_path, "net.md", report)
    assert answer("What is the net liabilities in 2019?", catalog).statement.startswith("319.9")


def test_a_row_named_with_its_section_wins_over_the_bottom_line_the_question_also_names(tmp_path):
    report = (
        "| (in millions) | 2019 | 2018 | 2017 |\n|---|---|---|---|\n| Current: | | | |\n| State | 27 | 10 | 3 |\n"
        "| Foreign | 49 | 39 | 41 |\n| Deferred: | | | |\n| State | (6) | 27 | 17 |\n| Foreign | (32) | 4 | (4) |\n"
        "| Provision for income taxes | $ 99 | $ 1,083 | $ 140 |\n"
    )
    catalog = catalog_of(tmp_path, "taxes.md", report)
    assert answer("What was the Current State provision for income tax in 2017?", catalog).statement.startswith(
        "3 million: Current: State, 2017"
    )
    counted = answer("How many years did current foreign provision for income tax exceed $40 million?", catalog)
    assert counted.statement.startswith("2 of 3 columns above 40")


def test_shares_forfeited_in_parentheses_are_the_number_forfeited(tmp_path):
    report = "| | 2019 | 2018 |\n|---|---|---|\n| Granted | 120,000 | 98,000 |\n| Forfeited during the period | (140,687) | (12,000) |\n"
    catalog = catalog_of(tmp_path, "shares.md", report)
    assert answer("What is the number of shares forfeited during the period in 2019?", catalog).statement.startswith(
        "140,687"
    )


def test_a_share_of_two_rows_that_are_already_percentages_is_refused(tmp_path):
    report = "| | 2019 | 2018 |\n|---|---|---|\n| Inventory purchases: | | |\n| Supplier A | 31% | 33% |\n| Supplier B | 20% | 16% |\n"
    tool = ComputeTable(catalog_of(tmp_path, "suppliers.md", report))
    args = {"table": next(iter(tool.catalog.tables)), "operation": "share", "label_column": "item",
            "rows": ["Supplier B", "Supplier A"], "columns": ["2019"]}  # fmt: skip
    with pytest.raises(ToolError, match="percentages already"):
        tool.run(ComputeArgs.model_validate(args))


def test_a_change_states_the_unit_of_the_sentence_before_the_table(tmp_path):
    report = (
        "The table below sets forth net sales for fiscal 2018 and 2017 (amounts in thousands, except percentages):\n\n"
        "|  | March 31, 2018 | March 31, 2017 |\n|---|---|---|\n"
        "| Net sales | $201,977 | $182,228 |\n| Weighted average estimated life (in years) | 5 | 10 |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    change = answer("How much did net sales change between 2017 and 2018?", catalog)
    assert change.statement.startswith("19,749 thousand = 201,977 − 182,228: change in Net sales")
    life = answer("What was the difference in the weighted average estimated life between 2017 and 2018?", catalog)
    assert life.statement.startswith("5 ")  # years, not "5 thousand"
    assert "thousand" not in life.statement


def test_average_that_is_part_of_a_rows_name_asks_its_cells_not_their_mean(tmp_path):
    report = (
        "|  | 2018 | 2017 |\n|---|---|---|\n| Average price per megabit | $ 0.82 | $ 1.11 |\n"
        "| Net loss | 95,306 | 204,969 |\n| Weighted average common shares outstanding | 142,571 | 141,969 |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    cells = answer("What are the respective average price per megabit in 2017 and 2018 respectively?", catalog)
    assert cells.statement.startswith("1.11; 0.82: Average price per megabit, 2017 and 2018")
    mean = answer("What is the average net loss in 2017 and 2018?", catalog)  # "average net": no row's words
    assert mean.statement.startswith("150,137.5 = (")
    twice = answer("What is the average of the average price per megabit in 2017 and 2018?", catalog)
    assert twice.statement.startswith("0.97 = (")  # the first "average" names no row: a mean


def test_words_of_the_caption_are_names_the_table_holds_and_years_down_the_rows_are_read(tmp_path):
    report = (
        "|  | Dividend Paid per Ordinary Share |  |\n|---|---|---|\n| Year Ended December 31, | € | US$ |\n"
        "| 2015 | 1.15 | 1.30 (1) |\n| 2016 | 1.25 | 1.37 (1) |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    change = answer("What was the change in Dividend Paid per Ordinary Share in € in 2016 from 2015?", catalog)
    assert change.statement.startswith("0.1 = 1.25 − 1.15")


def test_a_percentage_change_is_of_the_amounts_not_of_the_years_percent_columns(tmp_path):
    report = (
        "|  | March 31, 2018 |  | March 31, 2017 |  |\n|---|---|---|---|---|\n"
        "|  | Amount | % to Net Sales | Amount | % to Net Sales |\n"
        "| Net sales | $201,977 |  | $182,228 |  |\n| Segment operating income (loss) | 3,622 | 1.8% | (9,028) | (5.0)% |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    change = answer(
        "What was the percentage change in the segment operating income (loss) between 2017 and 2018?", catalog
    )
    assert change.statement.startswith("-140.12% = (3,622 − (-9,028)) / (-9,028) × 100")


def test_the_sentence_that_introduces_a_table_and_period_words_name_nothing_it_lacks(tmp_path):
    report = (
        "Sales grew in Europe. Property and equipment, net by geographic location consists of the following:\n\n"
        "|  | April 28, 2019 | April 29, 2018 |\n|---|---|---|\n"
        "| United States | 62,455 | 62,064 |\n| South Africa | 6,170 | 6,512 |\n| Total | 68,625 | 68,576 |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    asked = "What is the change in Property and equipment, net in South Africa from Fiscal Year Ended April 29, 2018 to 2019?"
    assert answer(asked, catalog).statement.startswith("-342 = 6,170 − 6,512")
    assert (
        plan("What is the change in Building rental in South Africa from 2018 to 2019?", catalog, FakeEncode()) is None
    )


def test_the_percent_of_total_is_the_share_column_not_the_total_row(tmp_path):
    """ "The percent of total sales from APAC" names the "% of Total" columns; a question
    with no such column ("as a percentage of the total") still divides by the Total row."""
    report = (
        "Net sales by region were as follows (dollars in thousands):\n\n"
        "|  | Fiscal Year 2018 |  | Fiscal Year 2017 |  |\n|---|---|---|---|---|\n"
        "|  | Net Sales | % of Total | Net Sales | % of Total |\n"
        "| APAC | $479,987 | 40.0% | $288,764 | 38.1% |\n| EMEA | 277,898 | 23.1% | 237,437 | 31.4% |\n"
        "| Total | $ 757,885 |  | $ 526,201 |  |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    result = answer("What was the change in the percent of total sales from APAC between 2017 and 2018?", catalog)
    assert result.statement.startswith("1.9% = 40 − 38.1: change in APAC")


# A header cell merged over two columns, written twice by the extraction, over two years.
GROUPED = (
    "|  | Distribution of profits (in thousand euros) Distribution of profits (in thousand euros) |  "
    "| Dividend per share (euros) |  |\n|---|---|---|---|---|\n"
    "|  | 2018 | 2019 | 2018 | 2019 |\n"
    "| Statutory reserve | 512,300 | 640,100 |  |  |\n"
    "| Dividends paid | 4,200,000 | 5,100,000 | 0.42 | 0.51 |\n"
)


@pytest.mark.parametrize(
    ("question", "start"),
    [
        # the row's own words ("dividends") do not pick the per-share column the group header names
        (
            "What is the increase/ (decrease) in Dividends paid within Distribution of profits from 2018 to 2019?",
            "900,000 = 5,100,000 − 4,200,000",
        ),
        ("What were the dividends paid per share in 2019?", "0.51: Dividends paid, Dividend per share (euros) · 2019"),
        # no word picks a 2019 column: the one holding the row's figure is its column
        ("What was the statutory reserve in 2019?", "640,100: Statutory reserve, Distribution of profits"),
    ],
)
def test_a_year_held_by_two_column_groups_is_read_in_the_group_the_question_names(tmp_path, question, start):
    catalog = catalog_of(tmp_path, "report.md", GROUPED)
    info, _ = catalog.table(catalog.names()[0])
    assert "Distribution of profits (in thousand euros) · 2019" in info.column_names()
    assert answer(question, catalog).statement.startswith(start)


CONTRACTUAL = (
    "|  | Total | Less than 1 year | 1-3 years | More than 3 years |\n|---|---|---|---|---|\n"
    "| Office leases | 40,000 | 10,000 | 25,000 | 5,000 |\n"
    "| Purchase commitments | 60,000 | 30,000 | 20,000 | 10,000 |\n"
    "| Total | 100,000 | 40,000 | 45,000 | 15,000 |\n"
)


def test_a_share_of_the_total_of_the_row_itself_divides_by_its_total_column(tmp_path):
    """ "In the total office leases" is the row's Total, not the Total row's figure in the band's column."""
    catalog = catalog_of(tmp_path, "report.md", CONTRACTUAL)
    own = answer("What is the percentage of office leases of more than 3 years in the total office leases?", catalog)
    assert own.statement.startswith("12.5% = 5,000 / 40,000 × 100")
    whole = answer("What is the percentage of office leases in the total contractual obligations?", catalog)
    assert whole.statement.startswith("40% = 40,000 / 100,000 × 100")


def test_an_average_over_columns_of_several_years_is_an_average_a_year(tmp_path):
    report = (
        "|  | Total | 2020 | 2021-2022 | 2023-2024 |\n|---|---|---|---|---|\n"
        "| Operating leases | 1,500 | 300 | 700 | 500 |\n| Finance leases | 90 | 30 | 60 | — |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    result = answer("What is the average annual Operating leases obligations for 2020-2024?", catalog)
    assert result.statement.startswith("300 = (500 + 700 + 300) / 5 years: average a year of Operating leases")
    one_year = answer("What is the average operating leases in 2020 and 2019?", catalog_of(tmp_path, "report.md",
        "|  | 2020 | 2019 |\n|---|---|---|\n| Operating leases | 300 | 100 |\n"))  # fmt: skip
    assert one_year.statement.startswith("200 = (300 + 100) / 2: average of")


def test_a_value_asked_of_records_no_filter_narrows_is_not_their_sum(tmp_path):
    """A roll-forward read as records: "the number of shares outstanding as of September 30, 2018" is one
    row's cell, which no filter finds; adding up every row's shares is no answer."""
    report = (
        "The following table summarizes stock option activity:\n\n"
        "|  | Number of Shares | Weighted-Average Exercise Price |\n|---|---|---|\n"
        "| Outstanding at September 30, 2017 | 2,000 | $4.00 |\n| Granted | 300 | $8.00 |\n| Exercised | (200) | $3.00 |\n"
        "| Outstanding at September 30, 2018 | 2,100 | $4.50 |\n| Granted | 400 | $9.00 |\n| Exercised | (100) | $3.50 |\n"
        "| Outstanding at September 30, 2019 | 2,400 | $6.00 |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    asked = "What is the number of shares outstanding as of September 30, 2018?"
    planned = plan(asked, catalog, FakeEncode())
    assert planned is None or planned.args.get("rows") == ["Outstanding at September 30, 2018"]


def test_a_difference_of_the_two_columns_named_in_a_table_of_the_year_asked(tmp_path):
    report = (
        "|  | Share price range 2018 |  |\n|---|---|---|\n|  | Low | High |\n"
        "| First Quarter | $ 5.50 | $ 8.00 |\n| Second Quarter | $ 4.00 | $ 6.25 |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    planned = plan("In the first quarter of 2018, what is the difference between the low and high price?", catalog,
                   FakeEncode())  # fmt: skip
    assert planned is not None and not planned.ignores_period  # 2018 is the year the whole table is of
    result = ComputeTable(catalog).run(ComputeTable.Args(**planned.args))
    assert result.statement.startswith("2.5 = 8 − 5.5: difference of First Quarter, High and Low")


def test_a_count_of_the_rows_of_the_section_named_and_a_year_end_that_is_a_period(tmp_path):
    report = (
        "|  | 2019 | 2018 |\n|---|---|---|\n| Deferred tax assets: | | |\n| Loss carry forward | 183,297 | 119,259 |\n"
        "| Receivables | 6,165 | 7,111 |\n| Accrued expenses | 81,731 | 81,912 |\n| Total deferred tax assets | 271,193 | 208,282 |\n"
        "| Deferred tax liabilities: | | |\n| Unremitted earnings | (95,000) | (60,000) |\n"
        "| Intangible assets | 70,000 | 20,000 |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", report)
    counted = answer("How many components of deferred tax assets exceeded $50,000 in 2019?", catalog)
    assert counted.statement.startswith("2 of 3 rows above 50,000 (Loss carry forward and Accrued expenses)")
    movement = (
        "|  | 2019 | 2018 |\n|---|---|---|\n| At beginning of the year | 97,877 | 95,497 |\n"
        "| Additions (Note (a)) | 44,618 | 60,807 |\n| At end of the year | 135,936 | 97,877 |\n"
    )
    catalog = catalog_of(tmp_path, "report.md", movement)
    planned = plan(
        "How much is the change in transfers between 2018 year end and 2019 year end?", catalog, FakeEncode()
    )
    assert planned is None  # "year end" dates the question: it names no row "At end of the year"


INTANGIBLES = """The following table summarizes the intangible assets acquired (amounts in table in millions):

| | Weighted-Average Useful Lives (in years) | Fair Value Amount |
|---|---|---|
| Purchased technology | 4.2 | $232 |
| Customer relationships and customer lists | 7.0 | 215 |
| Trademarks and tradenames | 5.0 | 25 |
| Other | 2.0 | 20 |
| Total definite-lived intangible assets | | $492 |
"""


def test_a_named_row_is_read_in_the_one_column_where_it_holds_a_figure(tmp_path):
    catalog = catalog_of(tmp_path, "report.md", INTANGIBLES)
    total = answer("What were the total definite-lived intangible assets?", catalog)
    assert total.statement.startswith("492 million: Total definite-lived intangible assets, Fair Value Amount")


def test_a_column_of_useful_lives_is_never_added_up(tmp_path):
    lives = "Asset,Useful life (in years),Cost\nPurchased technology,4.2,232\nTrademarks,5.0,25\nOther,2.0,20\n"
    catalog = catalog_of(tmp_path, "lives.csv", lives)
    assert plan("What is the total useful life of the assets?", catalog, FakeEncode()) is None
    assert answer("What is the total cost of the assets?", catalog).statement.startswith("277 = 232 + 25 + 20")


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("What is the sum of Software revenue across all 3 years?", "4,698 = 1,950 + 1,538 + 1,210"),
        ("What was the average Hardware revenue over the three years?", "716.67 = (800 + 700 + 650) / 3"),
        ("What was the sum of Software revenue for the three year period?", "4,698 = 1,950 + 1,538 + 1,210"),
        ("What was the Services revenue for each of the 3 years?", "120; 95; 80"),
    ],
)
def test_across_all_the_years_is_one_computation_and_each_year_is_each_cell(tables, question, first):
    assert answer(question, tables).statement.startswith(first)


def test_a_proportion_asked_as_a_percentage_of_a_total_is_a_share_in_percent(tables):
    question = "What is the proportion of Software revenue as a percentage of the total revenue in 2019?"
    assert read_question(question).operation == "share"
    assert answer(question, tables).statement.startswith("67.94% = 1,950 / 2,870 × 100")
    assert read_question("What is the proportion of Software revenue to Hardware revenue in 2019?").operation == "ratio"


CARRYFORWARDS = (
    "| (dollars in thousands) | Last Fiscal Year of Expiration | Amount |\n|---|---|---|\n"
    "| Income tax net operating loss carryforwards:(1) | | |\n| Domestic–state | 2039 | $57,299 |\n"
    "| Foreign | 2039 or indefinite | $565,609 |\n| Tax credit carryforwards:(1) | | |\n"
    "| Domestic–federal | 2029 | $39,784 |\n| Domestic–state | 2027 | $3,313 |\n"
    "| Foreign(2) | 2027 or indefinite | $15,345 |\n"
)


def test_a_ratio_of_rows_sharing_words_takes_them_in_the_order_the_question_names_them(tmp_path):
    """ "Domestic–state … as a ratio of domestic–federal": both rows hold "domestic"; their own
    words ("state", "federal") say which the question names first."""
    catalog = catalog_of(tmp_path, "carry.md", CARRYFORWARDS)
    question = (
        "What was the domestic-state tax credit carryforwards as a ratio of domestic-federal tax credit carryforwards?"
    )
    assert answer(question, catalog).statement.startswith("0.08 = 3,313 / 39,784")
    question = (
        "What was the domestic-federal tax credit carryforwards as a ratio of domestic-state tax credit carryforwards?"
    )
    assert answer(question, catalog).statement.startswith("12.01 = 39,784 / 3,313")


def test_the_sum_of_all_rows_under_a_name_is_not_one_rows_cell(tmp_path):
    catalog = catalog_of(tmp_path, "carry.md", CARRYFORWARDS)
    assert plan("What was the sum of all Tax credit carryforwards?", catalog) is None
    assert plan("What was the sum of domestic-federal tax credit carryforwards?", catalog) is not None


EARNINGS = (
    "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS (Tabular amounts in millions, unless otherwise disclosed)\n\n"
    "The following table sets forth basic and diluted net income per common share computational data for the "
    "years ended December 31, (shares in thousands, except per share data):\n\n"
    "|  | 2019 | 2018 |\n|---|---|---|\n"
    "| Net income attributable to stockholders | $1,887.8 | $1,236.4 |\n"
    "| Basic weighted average common shares outstanding | 442,319 | 439,606 |\n"
)


def test_a_unit_stated_for_share_counts_is_not_the_amounts_scale(tmp_path):
    """ "(shares in thousands, except per share data)": the amounts take the document's "Tabular amounts in
    millions"; the share counts are not millions."""
    catalog = catalog_of(tmp_path, "eps.md", EARNINGS)
    result = answer("What was the Net income attributable to stockholders in 2019?", catalog)
    assert result.statement.startswith("1,887.8 million:")
    result = answer("What was the basic weighted average common shares outstanding in 2019?", catalog)
    assert result.statement.startswith("442,319:")


DIVIDENDS = "| Consolidated | 2019 | 2018 |\n|---|---|---|\n| Interim | 12,500 | 11,000 |\n| Final | 15,628 | 14,633 |\n| Total | 28,128 | 25,633 |\n"


def test_a_total_with_no_year_named_is_no_sum_over_the_years(tmp_path):
    catalog = catalog_of(tmp_path, "dividends.md", DIVIDENDS)
    assert plan("What is total dividend based on the number of shares outstanding?", catalog) is None
    assert answer("What is the total dividend across both years?", catalog).statement.startswith("53,761")


def test_the_total_of_all_rows_of_a_kind_is_not_one_rows_cell(tmp_path):
    catalog = catalog_of(tmp_path, "carry.md", CARRYFORWARDS)
    assert plan("What is the total amount of all the tax credit carryforwards?", catalog) is None


def test_a_column_that_goes_either_way_asked_in_its_other_direction_states_that_amount(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "customers.md",
        "|  |  | Net additions (losses) |  | % of penetration |  |\n|---|---|---|---|---|---|\n"
        "|  | August 31, 2019 | August 31, 2019 | August 31, 2018 | August 31, 2019 | August 31, 2018 |\n"
        "| Internet service customers | 446,137 | 21,189 | 21,417 | 50.8 | 49.7 |\n"
        "| Video service customers | 312,555 | (4,697) | (6,760) | 35.6 | 37.1 |\n",
    )
    losses = answer("What were the net losses for video service customers in 2019?", catalog).statement
    assert losses.startswith("4,697: Video service customers, Net additions (losses)") and "written (4,697)" in losses
    added = answer("What were the net additions for video service customers in 2019?", catalog).statement
    assert added.startswith("-4,697: Video service customers")


CUSTOMERS = (
    "Revenue from significant customers, those representing 10% or more of revenue, are summarized as follows:\n\n"
    "|  | 2019 | 2018 | 2017 |\n|---|---|---|---|\n| Apple Inc. (“Apple”) | 32% | 36% | 34% |\n"
    "| Huawei Technologies Co., Ltd. (“Huawei”) | 13% | 8% | 11% |\n"
)


@pytest.mark.parametrize(
    ("question", "statement"),
    [
        ("What are the respective percentage of revenue from Apple and Huawei in 2017?", "34%; 11%: "),
        ("What is the total percentage of revenue from Apple and Huawei in 2017?", "45% = 34 + 11: sum of "),
        ("What is the average percentage of revenue from Apple and Huawei in 2018?", "22% = (36 + 8) / 2: average of "),
        ("What percentage of revenue did Apple contribute in 2019?", "32%: Apple Inc. (“Apple”), 2019"),
    ],
)
def test_a_table_of_percentages_is_read_for_the_shares_asked_and_rows_by_their_short_names(
    tmp_path, question, statement
):
    catalog = catalog_of(tmp_path, "customers.md", CUSTOMERS)
    assert answer(question, catalog).statement.startswith(statement)


OBLIGATIONS = (
    "|  | Up to 1 year | 1 to 3 years | 3 to 5 years | More than 5 years | Total |\n|---|---|---|---|---|---|\n"
    "| Operating lease obligations | 16,164 | 19,812 | 6,551 | 5,883 | 48,410 |\n"
    "| Purchase obligations | 55,755 | 16,220 | 7,595 | 17,649 | 97,219 |\n"
)


@pytest.mark.parametrize(
    ("question", "statement"),
    [
        ("What is the total purchase obligations that are due within 5 years?", "79,570 = 55,755 + 16,220 + 7,595"),
        ("What is the total operating lease obligations due within 3 years?", "35,976 = 16,164 + 19,812"),
        (
            "What are the operating lease obligations between 1 to 3 years?",
            "19,812: Operating lease obligations, 1 to 3",
        ),
        ("What are the operating lease obligations due after 5 years?", "5,883: Operating lease obligations, More"),
    ],
)
def test_payments_due_within_a_span_add_up_the_columns_that_make_it_up(tmp_path, question, statement):
    catalog = catalog_of(tmp_path, "obligations.md", OBLIGATIONS)
    assert answer(question, catalog).statement.startswith(statement)


def test_the_word_of_an_average_asked_does_not_pick_a_column_named_average(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "rsus.md",
        "|  | 2019 |  | 2018 |  |\n|---|---|---|---|---|\n"
        "|  | Number of Shares | Weighted Average Grant Date Fair Value | Number of Shares | Weighted Average Grant Date"
        " Fair Value |\n| Shares granted | 253,113 | 2.17 | 200,000 | 3.16 |\n| Shares vested | 82,270 | 2.28 | 323,420"
        " | 2.84 |\n",
    )
    statement = answer("What is the average shares vested between 2018 and 2019?", catalog).statement
    assert statement.startswith("202,845 = (82,270 + 323,420) / 2")


def test_a_comparison_column_the_question_names_whole_states_the_variance(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "revenue.md",
        "|  | Years Ended |  | 2019 vs. 2018 |  |\n|---|---|---|---|---|\n"
        "|  | July 27, 2019 | July 28, 2018 | Variance in Dollars | Variance in Percent |\n"
        "| Product | $39,005 | $36,709 | $2,296 | 6% |\n| Service | 12,899 | 12,621 | 278 | 2% |\n",
    )
    named = answer("What was the product revenue variance in dollars for 2019 vs 2018?", catalog).statement
    assert named.startswith("2,296: Product, 2019 vs. 2018 · Variance in Dollars")
    change = answer("What was the change in product revenue from 2018 to 2019?", catalog).statement
    assert change.startswith("2,296 = 39,005 − 36,709")


def test_rows_dated_by_a_section_are_the_years_rows(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "valuations.md",
        "|  | External valuation % | Internal valuation % |\n|---|---|---|\n| Year ended 30 June 2019 |  |  |\n"
        "| Leasehold | 23% | 77% |\n| Freehold | 38% | 62% |\n| Year ended 30 June 2018 |  |  |\n"
        "| Leasehold | 60% | 40% |\n| Freehold | 27% | 73% |\n",
    )
    change = answer("What was the change in the leasehold external valuation % from 2018 to 2019?", catalog)
    assert change.statement.startswith("-37% = 23 − 60")
    mean = answer("What is the average freehold internal valuation for 2018 and 2019?", catalog)
    assert mean.statement.startswith("67.5% = (62 + 73) / 2")


def test_a_movement_of_a_roll_forward_is_its_own_row_not_the_balance_dated_by_the_year(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "awards.md",
        "| Non-vested awards | Shares | Weighted-Average Grant Date Fair Value |\n|---|---|---|\n"
        "| Non-vested at December 31, 2018 | 1,187,586 | $41.12 |\n| Granted | 473,550 | $53.53 |\n"
        "| Vested | (365,223) | $41.83 |\n| Forfeited | (12,632) | $50.49 |\n"
        "| Non-vested at December 31, 2019 | 1,283,281 | $45.40 |\n",
    )
    granted = answer("What is the number of non-vested shares granted in 2019?", catalog).statement
    assert granted.startswith("473,550: Granted, Shares")
    forfeited = answer("What is the number of non-vested shares forfeited in 2019?", catalog).statement
    assert forfeited.startswith("12,632: Forfeited, Shares")  # not the "vested" of "non-vested"
    vested = answer("What is the number of non-vested shares vested in 2019?", catalog).statement
    assert vested.startswith("365,223: Vested, Shares")  # the shares vested, written in brackets
    balance = answer("How many non-vested shares were there in 2019?", catalog).statement
    assert balance.startswith("1,283,281: Non-vested at December 31, 2019, Shares")
    fair_value = answer(
        "What is the change in Weighted-Average Grant Date Fair Value of non-vested shares from December 31, 2018 to 2019?",
        catalog,
    ).statement  # the "grant" of the column's name names no row "Granted"
    assert fair_value.startswith("4.28 = 45.4 − 41.12")


def test_a_total_asked_of_an_item_written_in_parts_adds_the_parts_of_the_block_of_its_date(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "exposure.md",
        "|  | USD denominated RMB’Million | Non-USD denominated RMB’Million |\n|---|---|---|\n"
        "| As at 31 December 2019 |  |  |\n| Monetary assets, current | 27,728 | 2,899 |\n"
        "| Monetary assets, non-current | 373 | – |\n| Monetary liabilities, current | (4,273) | (14,732) |\n"
        "| Monetary liabilities, non-current | (91) | (5,739) |\n|  | 23,737 | (17,572) |\n"
        "| As at 31 December 2018 |  |  |\n| Monetary assets, current | 18,041 | 1,994 |\n"
        "| Monetary assets, non-current | 2,642 | – |\n| Monetary liabilities, current | (3,434) | (4,587) |\n"
        "| Monetary liabilities, non-current | (3,733) | (9,430) |\n|  | 13,516 | (12,023) |\n",
    )
    assets = answer("What was the total USD denominated monetary assets as at 31 December 2018?", catalog)
    assert assets.statement.startswith("20,683 = 18,041 + 2,642")  # not the block's net total, 13,516
    owed = answer("What was the total non-USD denominated monetary liabilities as at 31 December 2019?", catalog)
    assert owed.statement.startswith("20,471 = 14,732 + 5,739")  # "non-USD" names no "non-current"
    one = answer("What was the USD denominated current monetary assets as at 31 December 2019?", catalog)
    assert one.statement.startswith("27,728: As at 31 December 2019: Monetary assets, current")


def test_an_amount_per_share_is_read_in_a_row_per_share_not_the_amount_it_divides(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "eps.md",
        "|  | 2019 | 2018 |\n|---|---|---|\n| Net income | $4,566,156 | $4,274,547 |\n"
        "| Weighted average common shares | 13,442,871 | 13,429,232 |\n| Earnings per share: |  |  |\n"
        "| Basic | $0.34 | $0.32 |\n| Diluted | $0.34 | $0.32 |\n",
    )
    assert answer("What is the basic net income per share in 2019?", catalog).statement.startswith("0.34: ")
    assert answer("What was the net income in 2019?", catalog).statement.startswith("4,566,156: Net income, 2019")


def test_a_change_during_one_year_of_rows_dated_by_the_year_is_from_the_year_before(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "bridge.md",
        "|  | Amount (In Millions) |\n|---|---|\n| 2014 net revenue | $5,735 |\n| Retail electric price | 187 |\n"
        "| Other | (14) |\n| 2015 net revenue | $5,829 |\n",
    )
    change = answer("What is the net change in net revenue during 2015?", catalog).statement
    assert change.startswith("94 = 5,829 − 5,735")


def test_a_portion_of_the_total_is_the_share_of_the_row_the_question_names_half_of(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "purchase.md",
        "|  |  |\n|---|---|\n| Value of Metavante common stock | $4,066.4 |\n"
        "| Value of Metavante stock awards | 121.4 |\n| Total purchase price | $4,187.8 |\n",
    )
    portion = answer("What portion of total purchase price is related to stock awards?", catalog).statement
    assert portion.startswith("2.9% = 121.4 / 4,187.8 × 100")


RENTALS = """Future minimum rental payments.

| $ in millions | As of December 2015 |
|---|---|
| 2016 | $ 317 |
| 2017 | 313 |
| 2018 | 301 |
| 2019 | 258 |
| 2020 | 226 |
| 2021 - thereafter | 1,160 |
| Total | $2,575 |
"""
STAFF = """| | Mainline Operations | Regional Carriers | Total |
|---|---|---|---|
| Flight Attendants | 24,700 | 2,200 | 26,900 |
| Maintenance personnel | 14,900 | 2,000 | 16,900 |
| Total | 101,500 | 20,800 | 122,300 |
"""


def test_the_years_due_down_the_rows_of_a_dated_column_are_rows_and_a_share_of_one_is_of_the_total(tmp_path):
    rentals = catalog_of(tmp_path, "rentals.md", RENTALS)
    due = answer("What percentage of future minimum rental payments are due in 2018?", rentals)
    assert due.statement.startswith("11.69% = 301 / 2,575 × 100: share of 2018 in Total, As of December 2015")
    after = answer("What percentage of future minimum rental payments are due after 2020?", rentals)
    assert after.statement.startswith("45.05% = 1,160 / 2,575 × 100: share of 2021 - thereafter in Total")
    # "after 2020" with no row written for the years after: no plan, rather than 2020's row
    (folder := tmp_path / "no_later").mkdir()
    no_later = catalog_of(folder, "rentals.md", RENTALS.replace("2021 - thereafter", "2021"))
    assert plan("What percentage of the payments are due after 2020?", no_later, FakeEncode()) is None


def test_a_bare_total_row_is_no_third_row_of_a_ratio_of_two_totals_named(tmp_path):
    staff = catalog_of(tmp_path, "staff.md", STAFF)
    ratio = answer("What is the ratio of the total flight attendants to total maintenance personnel?", staff)
    assert ratio.statement.startswith("1.59 = 26,900 / 16,900: ratio of Flight Attendants to Maintenance personnel")


def test_by_what_percentage_a_row_increased_is_its_percentage_change():
    assert read_question(
        "By what percentage did total residential mortgages increase from 2011 to 2012?"
    ).operation == ("percent_change")
    assert read_question("By what percentage points did the margin increase from 2011 to 2012?").operation == "change"


ROLL_FORWARD = """Unrecognized tax benefits.

| (in millions) | 2015 | 2014 | 2013 |
|---|---|---|---|
| Balance, January 1 | $1,171 | $1,701 | $1,573 |
| Additions based on tax positions related to the current year | 67 | 63 | 90 |
| Settlements with tax authorities | (75) | (36) | (287) |
| Balance, December 31 | $1,136 | $1,171 | $1,701 |
"""
NET_REVENUE = """| | Amount (In Millions) |
|---|---|
| 2016 net revenue | $705.4 |
| Volume/weather | (18.2) |
| Retail electric price | 13.5 |
| 2017 net revenue | $703.1 |
"""


def test_the_end_of_a_year_of_a_roll_forward_is_its_closing_balance(tmp_path):
    taxes = catalog_of(tmp_path, "taxes.md", ROLL_FORWARD)
    change = answer("What was the change in unrecognized tax benefits from the end of 2014 to the end of 2015?", taxes)
    assert change.statement.startswith("-35 million = 1,136 − 1,171: change in Balance, December 31, 2014 to 2015")
    within = answer("In 2014 what was the percentage change in the unrecognized tax benefits?", taxes)
    assert within.statement.startswith("-31.16% = (1,171 − 1,701) / 1,701 × 100")  # the year's closing − its opening
    named = "What was the change in additions based on tax positions related to the current year in 2014?"
    assert plan(named, taxes, FakeEncode()) is None  # a row of one year: no change of it, and no balance named


def test_an_average_of_two_rows_dated_by_their_year_keeps_the_row_that_adds_up_the_others(tmp_path):
    revenue = catalog_of(tmp_path, "revenue.md", NET_REVENUE)
    mean = answer("What was the average net revenue between 2016 and 2017 in millions?", revenue)
    assert mean.statement.startswith("704.25 = (703.1 + 705.4) / 2: average of 2017 net revenue and 2016 net revenue")


def test_a_ratio_asked_in_percentage_is_a_share_and_a_total_of_the_sum_asked_stays_a_row(tmp_path):
    assert (
        read_question("What is the ratio (in percentage) of total notes payable to total leases?").operation == "share"
    )
    staff = catalog_of(tmp_path, "staff.md", STAFF)
    # "over total personnel": the Total row is the whole named, no row the question writes "total" before
    assert (
        plan("What is the ratio of flight attendants and maintenance personnel over total staff?", staff, FakeEncode())
        is None
    )


ALLOCATION = """The allocation of the purchase price of Kichler is summarized in the following table, in millions.

| | Initial | Revised |
|---|---|---|
| Receivables | $101 | $100 |
| Goodwill | 46 | 64 |
| Other intangible assets | 243 | 240 |
| Accrued liabilities | (25) | (30) |
| Total | $548 | $549 |
"""
SHARES = """| Region | 2019 |
|---|---|
| Taiwan | 36.4 |
| Others | 63.6 |
| Total | 100.0 |
"""


def test_a_share_of_one_row_is_of_the_tables_total_when_the_question_names_what_the_table_is_of(tmp_path):
    kichler = catalog_of(tmp_path, "kichler.md", ALLOCATION)
    share = answer("What portion of the revised purchase price of Kichler is dedicated to goodwill?", kichler)
    assert share.statement.startswith("11.66% = 64 / 549 × 100: share of Goodwill in Total, Revised")
    assert plan("What portion of the revised cash flow is dedicated to goodwill?", kichler, FakeEncode()) is None
    regions = catalog_of(tmp_path / "x" if (tmp_path / "x").mkdir() is None else tmp_path, "regions.md", SHARES)
    assert plan("What is the percentage of customers from Taiwan in 2019?", regions, FakeEncode()) is None  # already %


def test_a_percentage_comprised_of_a_row_asks_a_figure_not_words():
    question = "What percentage of total other assets in 2011 was comprised of goodwill?"
    assert read_question(question).operation == "share"
    assert read_question("What is the total other assets comprised of?").operation is None


SEGMENT = """| Years Ended December 31, | 2009 | 2008 | 2007 |
|---|---|---|---|
| Segment revenue | $6,305 | $6,197 | $5,918 |
| Segment operating income | 900 | 846 | 954 |
"""


def test_a_word_of_the_row_named_is_no_dimension_to_rank_rows_by(tmp_path):
    """ "the lowest segment operating income": the row "Segment operating income", lowest by year, not by segment."""
    segments = catalog_of(tmp_path, "segment.md", SEGMENT)
    lowest = answer("What is the lowest segment operating income?", segments)
    assert lowest.statement.startswith("2008, 846: lowest Segment operating income")


ACRES = """Net undeveloped acres expiring, year ended December 31 (in thousands):

| | 2016 | 2017 | 2018 |
|---|---|---|---|
| U.S. | 68 | 89 | 128 |
| E.G. | — | 92 | 36 |
| Other Africa | 189 | 4,352 | 854 |
| Total Africa | 189 | 4,444 | 890 |
| Total | 257 | 4,533 | 1,018 |
"""


def test_a_dotted_initialism_names_its_row_in_any_case(tmp_path):
    """FinQA writes "the u.s": its letters are no words, but the row "U.S." is named by them."""
    acres = catalog_of(tmp_path, "acres.md", ACRES)
    share = answer("In 2018, what percentage of undeveloped acres were located in the u.s?", acres)
    assert share.statement.startswith("12.57% = 128 / 1,018 × 100: share of U.S. in Total, 2018")


COMMITMENTS = (
    "| Description of Commitment | 2017 | 2018 | 2019 | 2020 | 2021 | Thereafter | Total |\n"
    "|---|---|---|---|---|---|---|---|\n"
    "| Operating Leases | $491 | $453 | $395 | $347 | $301 | $1,244 | $3,231 |\n"
    "| Long-Term Debt | 115 | 75 | 74 | 74 | 71 | 3,365 | 3,774 |\n"
    "| TOTAL | $606 | $528 | $469 | $421 | $372 | $4,609 | $7,005 |\n"
)


@pytest.mark.parametrize(
    ("question", "statement"),
    [
        # what falls after the last year is the Thereafter column, of the row's own Total
        ("What percentage of long-term debt is due after 2021?", "89.16% = 3,365 / 3,774 × 100: share of Thereafter"),
        ("What percentage of long-term debt is due in 2018?", "1.99% = 75 / 3,774 × 100: share of 2018 in Total"),
        ("What are the operating leases due after 2021?", "1,244: Operating Leases, Thereafter"),
    ],
)
def test_what_falls_after_the_last_year_is_the_thereafter_column_and_a_share_of_a_row_due_is_of_its_total(
    tmp_path, question, statement
):
    catalog = catalog_of(tmp_path, "commitments.md", COMMITMENTS)
    assert answer(question, catalog).statement.startswith(statement)


def test_after_a_year_no_column_holds_alone_plans_nothing_rather_than_that_years_column(tmp_path):
    catalog = catalog_of(tmp_path, "commitments.md", COMMITMENTS)
    assert plan("What are the operating leases due after 2020?", catalog, FakeEncode()) is None  # 2021 and after


def test_a_column_dated_month_day_and_two_digit_year_is_the_year_a_question_writes_in_full(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "performance.md",
        "|  | 12/31/01 | 12/31/02 | 12/31/06 |\n|---|---|---|---|\n"
        "| United Parcel Service, Inc. | $100.00 | $117.19 | $148.92 |\n"
        "| S&P 500 Index | $100.00 | $77.90 | $135.02 |\n",
    )
    assert answer("What was the S&P 500 index at 12/31/2006?", catalog).statement.startswith("135.02: S&P 500 Index")
    statement = answer("What was the change in the S&P 500 index from 2001 to 2006?", catalog).statement
    assert statement.startswith("35.02 = 135.02 − 100: change in S&P 500 Index, 12/31/01 to 12/31/06")


PURCHASE_PRICE = (
    "|  |  |\n|---|---|\n| Net tangible assets acquired as of May 2, 2006 | $24,800 |\n"
    "| In-process research and development | 600 |\n| Goodwill | 5,800 |\n| Final purchase price | $31,300 |\n"
)


@pytest.mark.parametrize(
    ("question", "statement"),
    [
        # the whole is the row the question names before "is dedicated to", though no Total names it
        ("What portion of the purchasing price is dedicated to net tangible assets?", "79.23% = 24,800 / 31,300"),
        ("What portion of the purchase price is related to goodwill?", "18.53% = 5,800 / 31,300"),
    ],
)
def test_a_share_names_its_part_and_its_whole_each_a_row(tmp_path, question, statement):
    catalog = catalog_of(tmp_path, "allocation.md", PURCHASE_PRICE)
    assert answer(question, catalog).statement.startswith(statement)


def test_a_share_whose_whole_names_no_one_row_plans_nothing(tmp_path):
    catalog = catalog_of(tmp_path, "allocation.md", PURCHASE_PRICE)
    assert (
        plan("What portion of the total acquisition cost of suros is dedicated to goodwill?", catalog, FakeEncode())
        is None
    )


def test_a_net_of_a_row_beside_its_opposite_is_no_one_cell(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "trading.md",
        "| (in millions) | 2013 | 2012 |\n|---|---|---|\n"
        "| Trading assets – derivative receivables | 72,629 | 85,744 |\n"
        "| Trading liabilities – derivative payables | 64,553 | 76,162 |\n",
    )
    assert plan("What were net trading assets from derivatives in 2012?", catalog, FakeEncode()) is None
    # the row itself, asked without "net", is its cell
    assert answer("What were trading assets from derivative receivables in 2012?", catalog).statement.startswith(
        "85,744"
    )


def test_a_share_of_a_year_due_in_the_total_the_question_names_is_of_that_total(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "maturities.md",
        "|  |  |\n|---|---|\n| 2008 | $ 689 |\n| 2009 | 542 |\n| 2010 | 462 |\n| Thereafter | 5,987 |\n"
        "| Total debt | $ 7,680 |\n",
    )
    question = "What was the percent of the total debt maturities that was due in {}?"
    assert answer(question.format(2009), catalog).statement.startswith("7.06% = 542 / 7,680 × 100: share of 2009")
    assert plan(question.format(2015), catalog, FakeEncode()) is None  # no row of 2015: no share of the Total alone


BALANCES = (
    "| $ in millions | 2014 | 2013 |\n|---|---|---|\n| Inventory | 230,667 | 255,534 |\n"
    "| Net decrease in cash | (7.4) | (472.7) |\n| Capital expenditures on a GAAP basis | 1,682.2 | 1,747.8 |\n"
    "| Capital expenditures on a non-GAAP basis | 1,885.1 | 1,996.7 |\n"
)


def test_a_change_asked_of_one_year_is_from_the_year_before(tmp_path):
    catalog = catalog_of(tmp_path, "balances.md", BALANCES)
    statement = answer("What is the percentage change in inventory balance in 2014?", catalog).statement
    assert statement.startswith(
        "-9.73% = (230,667 − 255,534) / 255,534 × 100: percentage change in Inventory, 2013 to 2014"
    )


@pytest.mark.parametrize(
    "question",
    [
        "What was the net decrease in cash in 2014?",  # the row states the change: its cell, no change of it
        "Considering 2014, what is the variation between capital expenditures on a GAAP basis and the non-GAAP one?",
    ],
)
def test_no_year_before_is_added_when_the_row_states_a_change_or_two_things_are_compared(tmp_path, question):
    catalog = catalog_of(tmp_path, "balances.md", BALANCES)
    planned = plan(question, catalog, FakeEncode())
    assert planned is None or planned.args["columns"] == ["2014"], planned


def test_a_month_written_in_a_date_dates_that_end_and_filters_no_other_cell(tmp_path):
    catalog = catalog_of(
        tmp_path,
        "returns.md",
        "| Company/Index | December 30, 2006 | December 29, 2007 | January 3, 2009 |\n|---|---|---|---|\n"
        "| Advance Auto Parts | $100.00 | $97.03 | $97.26 |\n| S&P 500 Index | 100.00 | 105.49 | 66.46 |\n",
    )
    planned = plan(
        "what is the roi of an investment in advance auto parts from 2006 to january 3 , 2009?", catalog, FakeEncode()
    )
    assert planned is not None and not planned.ignores_period
    assert planned.args["columns"] == ["January 3, 2009", "December 30, 2006"]
