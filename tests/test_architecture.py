"""The layout holds: small files, imports only downwards, no import cycles."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    p
    for p in [*ROOT.glob("engine/**/*.py"), *ROOT.glob("components/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]
    if "migrations/versions" not in p.as_posix()
]

# Lower numbers are lower layers; a module may import its own layer or lower ones.
LAYERS = [
    ("engine.errors", 0),
    ("engine.settings", 0),
    ("engine.weights", 0),  # the process-wide cache of loaded models
    ("engine.wording", 0),  # the one loader of the message files
    ("engine.llm", 1),
    ("engine.tracing", 1),  # spans of a run; imports only OpenTelemetry, the settings and the message loader
    ("engine.rag", 2),
    ("engine.grounding", 2),
    ("engine.tools", 3),
    ("engine.store", 3),
    ("engine.react", 4),
    ("engine.context", 4),  # what a run works in; the loop may build a default one
    ("engine.prepare", 6),
    ("engine.cli", 6),
    ("engine.__main__", 6),
    ("engine", 6),
    ("components", 7),
    ("pages", 8),
    ("app", 8),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer(module: str) -> int | None:
    for prefix, level in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return level
    return None


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def imports(path: Path, top_level_only: bool = False) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []

    def visit(nodes):
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node):
                continue
            if isinstance(node, ast.Import):
                found.extend(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append(node.module)
            if not top_level_only or isinstance(node, (ast.If, ast.Try, ast.With)):
                visit(list(ast.iter_child_nodes(node)))

    visit(tree.body)
    return found


def test_no_source_file_is_over_400_lines():
    long = {str(p.relative_to(ROOT)): n for p in SOURCES if (n := len(p.read_text().splitlines())) > 400}
    assert not long


def test_imports_only_go_downwards():
    wrong = []
    for path in SOURCES:
        own = module_name(path)
        own_layer = layer(own)
        assert own_layer is not None, f"{own} has no layer"
        for imported in imports(path):
            other = layer(imported)
            if other is not None and other > own_layer:
                wrong.append(f"{own} → {imported}")
    assert not wrong


def test_no_import_cycles_at_module_level():
    graph: dict[str, set[str]] = {}
    names = {module_name(p) for p in SOURCES}
    for path in SOURCES:
        deps = set()
        for imported in imports(path, top_level_only=True):
            while imported and imported not in names:
                imported = imported.rpartition(".")[0]
            if imported and imported != module_name(path):
                deps.add(imported)
        graph[module_name(path)] = deps
    state: dict[str, int] = {}
    cycles = []

    def dfs(node, trail):
        state[node] = 1
        for dep in graph.get(node, ()):
            if state.get(dep) == 1:
                cycles.append(" → ".join([*trail[trail.index(dep) :], dep]) if dep in trail else f"{node} → {dep}")
            elif dep not in state:
                dfs(dep, [*trail, dep])
        state[node] = 2

    for node in graph:
        if node not in state:
            dfs(node, [node])
    assert not cycles
