"""When a table question cannot be planned without the analyst: it names a value no
table holds ("revenue in Germany" of a table whose regions are France, Benelux, UK…), or
several of the theme's tables could answer it. The engine then asks, with the choices:
the values the column holds, or the candidate tables. The reply makes the question
plannable (``revised``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel

from engine.errors import ToolError
from engine.tools.tables.catalog import ColumnInfo, TableCatalog, TableInfo
from engine.tools.tables.compute_tool import ComputeArgs, ComputeTable
from engine.tools.tables.label_match import Semantic
from engine.tools.tables.messages import say
from engine.tools.tables.question_plan import TablePlan, named_tables, plans
from engine.tools.tables.question_reading import read_question
from engine.tools.tables.records_plan import records_measure
from engine.tools.tables.table_shape import QUARTER_VALUE, label_column, unknown_names

Encode = Callable[[list[str]], Any]
MAX_CHOICES = 8


class Clarification(BaseModel):
    kind: Literal["value", "table"]
    question: str  # for the analyst, in the answer's language
    choices: list[str]
    unknown: str = ""  # the name the question gives that the column does not hold


def _value_column(name: str, info: TableInfo, sem: Semantic) -> ColumnInfo | None:
    """The text column whose values ``name`` is most like (a country among regions)."""
    columns = [c for c in info.columns if c.kind == "text" and c.examples]
    columns = [c for c in columns if not all(QUARTER_VALUE.search(v) for v in c.examples)]
    if not columns:
        return None
    best, best_score = None, -1.0
    for column in columns:
        score = max(sem.scores(name, list(column.examples)), default=0.0)
        if score > best_score:
            best, best_score = column, score
    if best_score <= 0.0:  # no embedding model: the column of names (capitalised values)
        named = [c for c in columns if all(v[:1].isupper() for v in c.examples)]
        return named[0] if len(named) == 1 else None
    return best


def _unknown_value(question: str, catalog: TableCatalog, sem: Semantic, language: str) -> Clarification | None:
    for info in catalog.tables.values():
        if label_column(info, catalog) is not None or records_measure(question, info, sem) is None:
            continue  # a report table, or a table the question is not about
        unknown = unknown_names(question, info)
        if not unknown:
            continue
        column = _value_column(unknown[0], info, sem)
        if column is None:
            continue
        text = say("clarify_value", language, column=column.name, value=unknown[0], source=info.source)
        return Clarification(
            kind="value", question=text, choices=list(column.examples[:MAX_CHOICES]), unknown=unknown[0]
        )
    return None


def clarification(
    question: str, catalog: TableCatalog, encode: Encode | None = None, language: str = "en"
) -> Clarification | None:
    """The question to ask before planning ``question``, or None when it can be planned (or is no table question)."""
    if read_question(question).operation is None or not len(catalog):
        return None
    sem = Semantic(catalog, encode)
    found = plans(question, catalog, encode)
    found = [p for p in found if not p.ignores_period] or found  # a table without the year asked is no choice
    if not found:
        return _unknown_value(question, catalog, sem, language)
    sources = {p.table: catalog.tables[p.table].source for p in found}
    if len(set(sources.values())) < 2 or named_tables(question, catalog) or catalog.preferred():
        return None  # one file fits, or the question or the conversation says which
    if _one_result(found, catalog):
        return None  # a report's table and its CSV copy: whichever is meant, the answer is the same
    choices = list(dict.fromkeys(sources.values()))[:MAX_CHOICES]
    return Clarification(
        kind="table", question=say("clarify_table", language, tables=", ".join(choices)), choices=choices
    )


def _one_result(found: list[TablePlan], catalog: TableCatalog) -> bool:
    """Whether every table that fits gives the same result for the question."""
    tool = ComputeTable(catalog)
    results = set()
    for planned in found:
        try:
            results.add(tool.run(ComputeArgs.model_validate(planned.args)).value)
        except (ToolError, ValueError):
            return False
    return len(results) == 1 and None not in results


def revised(question: str, asked: Clarification, reply: str) -> str:
    """The question with the analyst's reply in it: the value in place of the unknown
    name, or the table named."""
    reply = " ".join(reply.split())
    if asked.kind == "value" and asked.unknown:
        pattern = re.compile(rf"(?<!\w){re.escape(asked.unknown)}(?!\w)")
        if pattern.search(question):
            return pattern.sub(lambda _m: reply, question, count=1)
    stem = reply.rsplit(".", 1)[0] if asked.kind == "table" else reply
    return f"{question.rstrip(' ?')} ({stem})?"
