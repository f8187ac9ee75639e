"""How many real report tables the table reader reads whole: TAT-QA tables rendered as
Markdown (or HTML, ``--format html``), through the same path a theme's document takes (``document_grids`` then
``read_grid``).

Only contexts at even indexes of the JSON list are read (odd ones are held out). A table
is read whole when three checks, made from the raw cells and not from the reader's own
decisions, all hold:

- figures: every cell below the header and outside the first column that is a number as
  a plain reading sees it (digits with only currency signs, separators, a sign,
  parentheses or % around them) is a value of the column read from its column, with its
  sign (parentheses are negative), and every source column is one column read;
- periods: every year named in the rows above the first figure is the period of a column;
- totals: every row whose label ``is_total_label`` recognises is marked ``is_total``.

It also counts the operands of the gold derivations of table questions found among the
values read (their magnitude: a derivation may write a negative without its sign; the
divisor of an average and the 100 of a percentage are left out).

    python bench/bench_report_tables.py [--limit 100] [--format md|html] [--data FILE] [--show-failures]
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.grounding.totals import is_total_label  # noqa: E402
from engine.tools.tables.doc_tables import document_grids  # noqa: E402
from engine.tools.tables.report_reader import TOTAL, ReportTable, read_grid  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
_DATA = Path("shared") / "datasets" / "report-qa" / "tatqa_test_gold.json"
DATA = next((p / _DATA for p in (ROOT.parent, ROOT.parent.parent) if (p / _DATA).is_file()), ROOT.parent / _DATA)
_PLAIN = re.compile(r"^[$€£]?\s*\(?\s*[-−]?\s*[$€£]?\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*\)?\s*%?\s*\)?$")
_YEAR = re.compile(r"^(?:19|20)\d{2}(?:\s?%)?$")
_YEARS = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_DIVISOR = re.compile(r"/\s*\d{1,2}(?![\d.,])")  # "/ 2", "/3": the count of an average, not a cell
_OPERAND = re.compile(r"\d[\d,]*(?:\.\d+)?")


def markdown(table: list[list[str]]) -> str:
    def line(row: list[str]) -> str:
        return "| " + " | ".join(" ".join(str(c).split()).replace("|", "\\|") for c in row) + " |"

    return "\n".join([line(table[0]), "|" + "---|" * len(table[0]), *(line(r) for r in table[1:])]) + "\n"


def html_table(table: list[list[str]]) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in table)
    return f"<html><body><p>Extract</p><table>{rows}</table></body></html>"


def plain_value(cell: str) -> float | None:
    match = _PLAIN.match(cell.strip())
    if not match:
        return None
    value = float(match.group(1).replace(",", ""))
    negative = "(" in cell or "-" in cell or "−" in cell
    return -value if negative else value


def values_read(report: ReportTable) -> list[float]:
    return [v for c in report.columns if c.kind == "number" for v in c.values if v is not None]


def _figures_in_place(table: list[list[str]], report: ReportTable, first_figure: int) -> bool:
    """Each source column's figures, below the header, are figures of the column read from it."""
    width = max(len(r) for r in table)
    source = [j for j in range(1, width) if any(j < len(r) and str(r[j]).strip() for r in table)]
    read = [c for c in report.columns if c.role in ("value", "total_value")]
    if len(source) != len(read):
        return False
    for j, column in zip(source, read, strict=True):
        wanted = Counter(v for r in table[first_figure:] if j < len(r) and (v := plain_value(r[j])) is not None)
        got = Counter(v for v in column.values if isinstance(v, float))
        if wanted - got:
            return False
    return True


def check(table: list[list[str]], report: ReportTable | None) -> dict[str, bool]:
    if report is None:
        return {"figures": False, "periods": False, "totals": False}
    first_figure = next(
        (i for i, r in enumerate(table) if any(plain_value(c) is not None and not _YEAR.match(c) for c in r[1:])), 0
    )
    figures = _figures_in_place(table, report, first_figure)
    named = {y for row in table[:first_figure] for cell in row[1:] for y in _YEARS.findall(cell)}
    found = {y for c in report.columns for y in _YEARS.findall(c.period)}
    labels = report.columns[0].values if report.columns[0].role == "label" else []
    marked = {label for label, m in zip(labels, report.column(TOTAL).values, strict=True) if m}
    expected = {
        r[0].strip() for r in table if r and is_total_label(r[0]) and any(plain_value(c) is not None for c in r)
    }
    totals = all(" ".join(e.split()) in marked for e in expected)
    return {"figures": figures, "periods": named <= found, "totals": totals}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--format", choices=("md", "html"), default="md")
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args()
    contexts = json.loads(args.data.read_text(encoding="utf-8"))
    even = [contexts[i] for i in range(0, len(contexts), 2)][: args.limit]
    counts = {"figures": 0, "periods": 0, "totals": 0, "whole": 0, "read": 0}
    unlabelled_totals = 0
    operands = found_operands = 0
    for k, context in enumerate(even):
        table = context["table"]["table"]
        text = markdown(table) if args.format == "md" else html_table(table)
        grids, problems = document_grids(f"tatqa_{2 * k}.{args.format}", f".{args.format}", text.encode())
        report = read_grid(grids[0].rows) if grids else None
        counts["read"] += report is not None
        result = check(table, report)
        for key, ok in result.items():
            counts[key] += ok
        counts["whole"] += all(result.values())
        if report is not None:
            labels = [r[0] for r in table]
            marked = report.column(TOTAL).values
            unlabelled_totals += sum(1 for v in marked if v) - sum(1 for label in labels if is_total_label(label))
            read = {round(abs(v), 6) for v in values_read(report)}
            for q in context["questions"]:
                if q["answer_type"] == "arithmetic" and q["answer_from"] == "table":
                    derivation = _DIVISOR.sub("", q.get("derivation") or "")
                    for raw in _OPERAND.findall(derivation):
                        value = round(float(raw.replace(",", "")), 6)
                        if value in (100.0, 1.0):
                            continue  # constants of the formula (percent)
                        operands += 1
                        found_operands += value in read
        if args.show_failures and not all(result.values()):
            print(f"--- context {2 * k}: {result} {problems}")
            for row in table[:6]:
                print("   ", row)
            if report is not None:
                print("    read:", [(c.name, c.role, c.period, c.unit) for c in report.columns])
                print("    unparsed:", report.unparsed[:6])
    n = len(even)
    print(f"TAT-QA even-index tables rendered as {'Markdown' if args.format == 'md' else 'HTML'}: {n}")
    for key in ("read", "figures", "periods", "totals", "whole"):
        print(f"  {key:8s} {counts[key]:4d} / {n}")
    print(f"  unlabelled rows marked as totals by their sums: {unlabelled_totals}")
    print(f"  operands of gold table derivations found among the values read: {found_operands} / {operands}")


if __name__ == "__main__":
    main()
