"""No mutable module-level state in product code, beside the one documented weight cache.

A module-level name bound to a list, dict or set (a literal, a comprehension, or a call
of ``dict()``, ``list()``, ``set()``, ``defaultdict()`` …), a module-level lock, and a
``global`` statement fail. Immutable constants (tuples, frozensets, ``MappingProxyType``)
pass. The lookup tables written as dict, list or set literals before this test are
listed in ``CONSTANT_TABLES``: no product code ever writes into an UPPER_CASE module
name (checked below), and the list may only shrink. ``os.environ`` is written only
where ``ENV_WRITES`` says why.
"""

from __future__ import annotations

import ast
import re
from functools import cache

from tests.test_architecture import ROOT, SOURCES

# Streamlit runs these top to bottom on every rerun: their top level is a function body.
SCRIPTS = {"app.py", *(p.relative_to(ROOT).as_posix() for p in ROOT.glob("pages/*.py"))}

# The one mutable module-level object: loaded models, shared by every run (its docstring says why).
WEIGHT_CACHE = {("engine/weights.py", "WEIGHTS")}

# (file, variable): each written once, for a reason its module states.
ENV_WRITES = {
    # at import: OpenMP runtimes read it when they start, before any call could set it
    ("engine/__init__.py", "OMP_WAIT_POLICY"),
    # at call time, before Hugging Face's libraries are imported for a sentence-transformers model
    ("engine/rag/st_bert.py", "HF_HUB_OFFLINE"),
    ("engine/rag/st_bert.py", "TRANSFORMERS_OFFLINE"),
    ("engine/rag/st_bert.py", "HF_HUB_DISABLE_PROGRESS_BARS"),
    ("engine/rag/st_bert.py", "TRANSFORMERS_VERBOSITY"),
}

# State not yet removed, each with what it holds.
KNOWN_STATE: frozenset[tuple[str, str]] = frozenset()  # none left; never add to it

# Read-only lookup tables written as literals before this test (never written: see
# test_no_code_writes_into_an_upper_case_module_name). Make one immutable when its
# module is next edited and drop it from here; never add to this list.
CONSTANT_TABLES = {
    ("components/footnotes.py", "_TEXT"),
    ("components/i18n.py", "LANGUAGES"),
    ("components/i18n.py", "_GROUPING"),
    ("components/attachments.py", "FILE_TYPES"),
    ("components/samples.py", "_TEMPLATES"),
    ("components/samples.py", "_UNITS"),
    ("engine/grounding/answer_kinds.py", "_MONTHS_EN"),
    ("engine/grounding/dates.py", "MONTHS"),
    ("engine/grounding/facts.py", "_KINDS"),
    ("engine/grounding/figures.py", "NUMBER_WORDS"),
    ("engine/grounding/figures.py", "_CURRENCIES"),
    ("engine/grounding/figures.py", "_DURATIONS"),
    ("engine/grounding/figures.py", "_SCALES"),
    ("engine/grounding/quotes.py", "KIND_ADJUST"),
    ("engine/grounding/stated.py", "_OPS"),
    ("engine/rag/pg_schema.py", "COPY_TYPES"),
    ("engine/react/parser.py", "LABEL_ALIASES"),
    ("engine/react/protocols/json_mode.py", "RESPONSE_FORMAT"),
    ("engine/react/protocols/json_mode.py", "_ESCAPES"),
    ("engine/react/stream.py", "NOTE_TYPES"),
    ("engine/react/types.py", "CANONICAL_LABEL"),
    ("engine/react/verify.py", "QUOTES_BY_DETAIL"),
    ("engine/tools/general.py", "_ALIASES"),
    ("engine/tools/general.py", "_UNITS"),
    ("engine/tools/tables/cell_statement.py", "_CURRENCY"),  # moved from compute_tool.py with the statements
    ("engine/tools/tables/compute_tool.py", "_SQL"),
    ("engine/tools/tables/doc_loading.py", "_SQL_TYPES"),
    ("engine/tools/tables/doc_tables.py", "_LIMIT"),
    ("engine/tools/tables/loading.py", "NO_DISK"),
    ("engine/tools/tables/naming.py", "DOCUMENT_KINDS"),
    ("engine/tools/tables/question_reading.py", "_QUARTER_WORDS"),
    ("engine/tools/tables/report_cells.py", "_CURRENCIES"),
    ("engine/tools/tables/simple_tools.py", "OPERATIONS"),
    ("engine/tools/tables/simple_tools.py", "_SYNONYMS"),
}

MUTABLE_CALLS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray"}
SHARED_CALLS = {"Lock", "RLock", "local", "WeakValueDictionary", "WeakKeyDictionary", "WeightCache"}
MUTATORS = {"append", "extend", "insert", "update", "setdefault", "pop", "popitem", "clear", "add", "discard", "remove"}
UPPER = re.compile(r"^_?[A-Z][A-Z0-9_]*$")


@cache
def _product() -> list[tuple[str, ast.Module]]:
    return [
        (rel, ast.parse(p.read_text(encoding="utf-8")))
        for p in SOURCES
        if (rel := p.relative_to(ROOT).as_posix()) not in SCRIPTS
    ]


def _top_level(body: list[ast.stmt]):
    """The statements run at import (inside if/try/with at the top level too)."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []) or []:
                    yield from _top_level(child.body if isinstance(child, ast.ExceptHandler) else [child])


def _call_name(node: ast.expr) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _is_mutable(value: ast.expr) -> str | None:
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return type(value).__name__.lower()
    name = _call_name(value)
    if name in MUTABLE_CALLS or name in SHARED_CALLS:
        return f"{name}()"
    return None


def module_state(rel: str, tree: ast.Module) -> list[tuple[str, str, str]]:
    """(file, name, what) for each module-level binding to something mutable or shared."""
    found = []
    for node in _top_level(tree.body):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        what = _is_mutable(value)
        for target in targets:
            name = ast.unparse(target)
            if what and name != "__all__":
                found.append((rel, name, what))
    return found


def test_no_new_mutable_module_level_state():
    allowed = WEIGHT_CACHE | KNOWN_STATE | CONSTANT_TABLES
    new = [
        f"{rel}: {name} = {what}"
        for rel, tree in _product()
        for rel, name, what in module_state(rel, tree)
        if (rel, name) not in allowed
    ]
    assert not new


def test_the_allow_lists_name_only_what_exists():
    """An entry whose state was removed must leave the list, so the list only shrinks."""
    present = {(rel, name) for rel, tree in _product() for rel, name, _ in module_state(rel, tree)}
    assert not (WEIGHT_CACHE | KNOWN_STATE | CONSTANT_TABLES) - present


def test_no_global_statements():
    found = [
        f"{rel}:{node.lineno} global {', '.join(node.names)}"
        for rel, tree in _product()
        for node in ast.walk(tree)
        if isinstance(node, ast.Global)
    ]
    assert not found


def writes_into_upper(rel: str, tree: ast.Module) -> list[str]:
    """Item assignments, deletions, augmented assignments and mutating method calls on
    an UPPER_CASE name inside a function (building a table at import is not a write)."""
    state = {name for file, name in WEIGHT_CACHE | KNOWN_STATE if file == rel}

    def upper(node: ast.expr) -> str | None:
        is_upper = isinstance(node, ast.Name) and UPPER.match(node.id) and node.id not in state
        return node.id if is_upper else None

    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    inside = {id(node): node for f in functions for node in ast.walk(f) if node is not f}
    found = []
    for node in sorted(inside.values(), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = [t.value for t in node.targets if isinstance(t, ast.Subscript)]
        elif isinstance(node, ast.AugAssign):
            targets = [node.target.value if isinstance(node.target, ast.Subscript) else node.target]
        found += [f"{rel}:{node.lineno} writes {name}" for t in targets if (name := upper(t)) is not None]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            if (name := upper(node.func.value)) is not None:
                found.append(f"{rel}:{node.lineno} {name}.{node.func.attr}()")
    return found


def test_no_code_writes_into_an_upper_case_module_name():
    """What CONSTANT_TABLES lists stays constant."""
    assert not [line for rel, tree in _product() for line in writes_into_upper(rel, tree)]


def _env_writes(tree: ast.Module) -> list[tuple[int, str]]:
    writes = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) in {"setdefault", "update", "putenv", "pop"}:
            func = node.func
            owner = ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""
            if owner in {"os.environ", "os"} and node.args:
                key = node.args[0]
                writes.append((node.lineno, key.value if isinstance(key, ast.Constant) else ast.unparse(key)))
        elif isinstance(node, (ast.Assign, ast.Delete)):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and ast.unparse(target.value) == "os.environ":
                    key = target.slice
                    writes.append((node.lineno, key.value if isinstance(key, ast.Constant) else ast.unparse(key)))
    return writes


def test_the_environment_is_written_only_where_a_module_says_why():
    found = {(rel, var) for rel, tree in _product() for _, var in _env_writes(tree)}
    assert found == ENV_WRITES


def test_the_checks_catch_what_they_forbid():
    """Each check above fails on the kind of state it forbids, and passes constants."""
    source = (
        "import os, threading\n"
        "from collections import defaultdict\n"
        "CACHE = {}\n_seen: list[str] = []\nBY_KEY = defaultdict(list)\n_LOCK = threading.Lock()\n"
        "if True:\n    LATE = set()\n"
        "OK = (1, 2)\nALSO_OK = frozenset({'a'})\n__all__ = ['OK']\n"
        "os.environ['X'] = '1'\nos.environ.setdefault('Y', '2')\n"
        "def f():\n    global CACHE\n    OK_TABLE['k'] = 1\n    NAMES.append(2)\n    TOTAL += 1\n"
        "    local = {}\n    local['k'] = 1\n"
    )
    tree = ast.parse(source)
    assert {name for _, name, _ in module_state("x.py", tree)} == {"CACHE", "_seen", "BY_KEY", "_LOCK", "LATE"}
    assert [var for _, var in _env_writes(tree)] == ["X", "Y"]
    assert [n.names for n in ast.walk(tree) if isinstance(n, ast.Global)] == [["CACHE"]]
    assert writes_into_upper("x.py", tree) == [
        "x.py:16 writes OK_TABLE",
        "x.py:17 NAMES.append()",
        "x.py:18 writes TOTAL",
    ]
