"""The turns of a conversation form a tree: each turn names its parent (None for the first).

An edited question, or a regenerated answer, is a sibling of the turn it re-does; nothing
is set aside. The branch on show is the path from the first turn to one turn (its
``tip``), continued by the newest child at each step. Pure functions over ``(id,
parent_id)`` pairs in creation order, shared by the store and the front end.
"""

from __future__ import annotations

from collections.abc import Sequence

Node = tuple[str, str | None]  # (turn id, parent turn id)


def children(nodes: Sequence[Node]) -> dict[str | None, list[str]]:
    """Each turn's children (and the roots under ``None``), oldest first."""
    out: dict[str | None, list[str]] = {}
    for turn_id, parent in nodes:
        out.setdefault(parent, []).append(turn_id)
    return out


def ancestry(nodes: Sequence[Node], turn_id: str) -> list[str]:
    """The path from the first turn down to ``turn_id`` (empty if it is not in the tree)."""
    parents = dict(nodes)
    if turn_id not in parents:
        return []
    path: list[str] = []
    seen: set[str] = set()
    current: str | None = turn_id
    while current is not None and current in parents and current not in seen:  # a cycle cannot loop forever
        seen.add(current)
        path.append(current)
        current = parents[current]
    return path[::-1]


def visible(nodes: Sequence[Node], tip: str | None = None) -> list[str]:
    """The branch on show: down to ``tip`` (the newest branch when None or unknown), then the newest children."""
    kids = children(nodes)
    path = ancestry(nodes, tip) if tip else []
    if not path:
        roots = kids.get(None, [])
        if not roots:
            return []
        path = [roots[-1]]
    seen = set(path)
    while (below := kids.get(path[-1])) and below[-1] not in seen:
        path.append(below[-1])
        seen.add(below[-1])
    return path


def siblings(nodes: Sequence[Node], turn_id: str) -> list[str]:
    """The turns sharing ``turn_id``'s parent, itself included, oldest first (``[turn_id]`` when alone)."""
    parents = dict(nodes)
    if turn_id not in parents:
        return [turn_id]
    return children(nodes).get(parents[turn_id], [turn_id])
