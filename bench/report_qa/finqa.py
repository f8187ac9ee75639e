"""FinQA entries (czyssrs/FinQA's format) in the form of the TAT-QA test gold, so that
``bench/bench_reports.py`` and ``bench/bench_plans.py`` read them with ``--dataset``.

FinQA holds extracts of other companies' reports (S&P 500 annual reports) than TAT-QA's,
written by other annotators, with one question per entry: a measure on report extracts this
project was never tuned on. The conversion keeps what a report states and what the gold is:

- the table as the report writes it (``table_ori``; a day and year whose line break was lost,
  "December 312012", written "December 31, 2012"; an empty header row over a first row of
  figures, as a Markdown table needs), the sentences before and after it as
  paragraphs, with the dataset's word splitting undone ("revenue , net" → "revenue, net");
  entries of one page with the same table and text become one context of several questions;
- the gold answer as FinQA writes it ("14.1%", "94"), the scale "percent" for a percentage;
  its executed value when the written answer is no figure; a percentage asked whose answer
  is written without "%" ("73.22", or the ratio "0.2274") as the percentage (``as_percent``);
- the program as a derivation ("(5829 - 5735) / 5735"), which the scripted strong model
  states beside its right answer, when it gives the gold answer (a few programs do not:
  "((703.1 + 705.4) + 2) / 2" for 704.25; the answer is then stated alone);
- the type: arithmetic for a computation, span for a yes/no comparison ("greater"); the
  source from the gold evidence (table rows, text sentences or both).

Usage: ``python -m bench.report_qa.finqa SOURCE.json OUT.json``.
"""

from __future__ import annotations

import ast
import json
import operator
import re
import sys
from pathlib import Path
from typing import Any

_STEP = re.compile(r"([a-z_]+)\(([^()]*)\)")
_INFIX = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "exp": "^", "greater": ">"}
_CONSTANT = re.compile(r"const_(m)?(\d+(?:\.\d+)?)")
_ANSWER = re.compile(r"^\s*(-)?\s*\$?\s*(-)?(\d[\d,]*(?:\.\d+)?)\s*(%)?\s*$")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_SPACE_BEFORE = re.compile(r"\s+([,.;:%)!?])")
_SPACE_AFTER = re.compile(r"([($])\s+")


def detokenized(text: str) -> str:
    """A sentence as a report writes it: "revenue , net ( in millions ) was $ 5 ." → "revenue, net (in millions) was $5."."""
    text = _SPACE_BEFORE.sub(r"\1", " ".join(text.split()))
    text = _SPACE_AFTER.sub(r"\1", text)
    return re.sub(r"\s+(['’]s)\b", r"\1", text)


def _operand(arg: str, steps: list[str], table: list[list[str]]) -> str:
    arg = arg.strip()
    if arg.startswith("#"):
        return f"({steps[int(arg[1:])]})"
    if constant := _CONSTANT.fullmatch(arg):
        return ("-" if constant.group(1) else "") + constant.group(2)
    return arg.replace(",", "")  # "8.75%" stays a percentage


def _row_numbers(name: str, table: list[list[str]]) -> list[str]:
    for row in table:
        if row and row[0].strip().lower() == name.strip().lower():
            return [m.group(0).replace(",", "") for cell in row[1:] if (m := _NUMBER.search(str(cell)))]
    return []


def derivation(program: str, table: list[list[str]]) -> str:
    """FinQA's program as an infix derivation: "subtract(5829, 5735), divide(#0, 5735)" →
    "(5829 - 5735) / 5735"; "table_average(net revenue, none)" → the row's cells averaged."""
    steps: list[str] = []
    for op, args in _STEP.findall(program):
        parts = [a for a in args.split(",")]
        if op.startswith("table_"):
            cells = _row_numbers(parts[0], table)
            if not cells:
                return ""
            if op == "table_sum":
                steps.append(" + ".join(cells))
            elif op == "table_average":
                steps.append(f"({' + '.join(cells)}) / {len(cells)}")
            else:
                steps.append(f"{op[6:]}({', '.join(cells)})")
            continue
        if op not in _INFIX or len(parts) != 2:
            return ""
        left, right = (_operand(p, steps, table) for p in parts)
        steps.append(f"{left} {_INFIX[op]} {right}")
    return steps[-1] if steps else ""


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def value_of(expression: str) -> float | None:
    """The value of a derivation of numbers, + − × / and percentages ("8.75%" is 0.0875), read
    by its syntax tree: never executed as code; None when it is anything else."""
    try:
        tree = ast.parse(re.sub(r"(\d[\d.]*)%", r"(\1 / 100)", expression), mode="eval").body
    except SyntaxError:
        return None

    def walk(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](walk(node.left), walk(node.right))
        raise ValueError(expression)

    try:
        return walk(tree)
    except (ValueError, ZeroDivisionError):
        return None


def _holds(expression: str, answer: float | str, scale: str) -> bool:
    """Whether the derivation gives the gold answer, to its written digits (or cut to them)."""
    value = value_of(expression)
    if value is None or not isinstance(answer, (int, float)):
        return False
    digits = len(str(answer).split(".")[1]) if "." in str(answer) else 0
    unit = 10.0**-digits
    return any(
        abs(v - answer) <= unit / 2 + 1e-9 or 0 <= abs(v) - abs(answer) < unit
        for v in (value, value * 100)
        if scale == "percent" or v == value
    )


def gold(qa: dict[str, Any]) -> tuple[str | float, str]:
    """(answer, scale): the answer as FinQA writes it when it is one figure ("14.1%" → 14.1,
    "percent"), "yes"/"no" as written, else the executed value."""
    written = str(qa.get("answer", "")).strip()
    if written.lower() in ("yes", "no"):
        return written.lower(), ""
    if match := _ANSWER.match(written):
        sign = "-" if match.group(1) or match.group(2) else ""
        value = float(sign + match.group(3).replace(",", ""))
        return (int(value) if value.is_integer() else value), ("percent" if match.group(4) else "")
    executed = qa.get("exe_ans")
    if isinstance(executed, (int, float)):
        return round(float(executed), 4), ""
    return str(executed), ""


def _source(gold_inds: dict[str, str]) -> str:
    kinds = {key.split("_")[0] for key in gold_inds}
    return "table-text" if kinds == {"table", "text"} else "table" if kinds == {"table"} else "text"


_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
# "December 312012": a header written over two lines ("December 31," over "2012") whose line break was lost
_DAY_YEAR = re.compile(rf"(?i)\b((?:{_MONTHS})\.? \d{{1,2}}),?((?:19|20)\d\d)\b")


def header_cell(cell: str) -> str:
    """A cell as the report prints it: "December 312012" → "December 31, 2012"."""
    return _DAY_YEAR.sub(r"\1, \2", cell)


def with_header(rows: list[list[str]]) -> list[list[str]]:
    """The table with an empty header row when its first row is already data ("Value of
    Metavante stock awards | 121.4"): a Markdown table's first row is its header."""
    first = rows[0] if rows else []
    data = any(_NUMBER.fullmatch(c.strip().lstrip("$").strip().replace("(", "-").rstrip(")")) for c in first[1:])
    years = all(re.fullmatch(r"(?:19|20)\d\d", c.strip()) for c in first[1:] if c.strip())
    return [[""] * len(first), *rows] if data and not years else rows


# "what percent of …", "the percentage growth": a percentage asked ("percentage point" is a difference of two)
_PERCENT_ASKED = re.compile(r"(?i)\bper ?cent(?:age)?\b(?![\s-]*points?\b)")
_LAST_STEP = re.compile(r"(\w+)\([^()]*\)\s*$")


def as_percent(question: str, program: str, answer: float | str, scale: str, ratio: Any) -> tuple[float | str, str]:
    """A percentage asked, whose gold is written without "%" from a program that ends in a
    ratio (a division, or a difference of two): FinQA writes it either as the percentage
    ("73.22" for 2,400 / 3,278) or as the ratio itself ("0.2274" for a growth of 22.74%).
    Both are read as the percentage, so "73.22%" and "22.74%" score right."""
    last = _LAST_STEP.search(program)
    if (
        scale
        or not isinstance(answer, (int, float))
        or not isinstance(ratio, (int, float))
        or not _PERCENT_ASKED.search(question)
        or not last
        or last.group(1) not in ("divide", "subtract")
        or "divide(" not in program
        or answer == 0
    ):
        return answer, scale
    if abs(ratio * 100 - answer) <= 0.005 * abs(answer):
        return answer, "percent"
    if abs(ratio - answer) <= 0.005 * abs(answer):
        return round(answer * 100, 4), "percent"
    return answer, scale


def question_of(entry: dict[str, Any], order: int) -> dict[str, Any]:
    qa = entry["qa"]
    program = qa.get("program", "")
    answer, scale = as_percent(qa["question"], program, *gold(qa), qa.get("exe_ans"))
    compared = "greater(" in program
    written = "" if compared else derivation(program, entry.get("table", []))
    return {
        "uid": entry["id"],
        "order": order,
        "question": " ".join(str(qa["question"]).split()),
        "answer": [answer] if compared else answer,
        "derivation": written if _holds(written, answer, scale) else "",  # FinQA's own slips: no derivation
        "answer_type": "span" if compared else "arithmetic",
        "answer_from": _source(qa.get("gold_inds", {})),
        "scale": scale,
    }


def contexts(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One context per page (filename, table and text), its questions in the file's order."""
    out: dict[str, dict[str, Any]] = {}
    for entry in entries:
        key = json.dumps([entry["filename"], entry["pre_text"], entry["post_text"], entry["table_ori"]])
        if key not in out:
            texts = [detokenized(t) for t in [*entry["pre_text"], *entry["post_text"]]]
            out[key] = {
                "table": {
                    "uid": entry["filename"],
                    "table": with_header([[header_cell(str(c)) for c in r] for r in entry["table_ori"]]),
                },
                "paragraphs": [
                    {"uid": f"{entry['filename']}-{i}", "order": i + 1, "text": t} for i, t in enumerate(texts) if t
                ],
                "questions": [],
            }
        questions = out[key]["questions"]
        questions.append(question_of(entry, len(questions) + 1))
    return list(out.values())


def main() -> None:
    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    converted = contexts(json.loads(source.read_text(encoding="utf-8")))
    target.write_text(json.dumps(converted, ensure_ascii=True), encoding="utf-8")
    print(f"{len(converted)} contexts, {sum(len(c['questions']) for c in converted)} questions → {target}")


if __name__ == "__main__":
    main()
