"""The package's modules import each other one way only: the graph of
relative imports (module level and inside functions alike) has no circle.
The layering, bottom up: _errors, _native, _text / _dialect, _api, _extras,
_ttgir / triton, __init__."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set

import liblayout

PKG = Path(liblayout.__file__).resolve().parent


def _graph() -> Dict[str, Set[str]]:
    graph: Dict[str, Set[str]] = {}
    for path in sorted(PKG.glob("*.py")):
        mod = path.stem
        deps: Set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    deps.add(node.module.split(".")[0])
                else:  # from . import a, b
                    deps.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("liblayout."):
                deps.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                deps.update(a.name.split(".")[1] for a in node.names if a.name.startswith("liblayout."))
        graph[mod] = {d for d in deps if d != mod}
    return graph


def _cycle(graph: Dict[str, Set[str]]) -> List[str]:
    """One circle of the graph as a path, or [] when there is none."""
    state: Dict[str, int] = {}
    stack: List[str] = []

    def visit(m: str) -> List[str]:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return []


def test_graph_sees_imports() -> None:
    # the reader itself: it must see the edges that are there, lazy ones included
    g = _graph()
    assert {"_native", "_errors", "_dialect"} <= g["_api"]
    assert "_api" in g["_extras"]
    assert "triton" in g["_ttgir"]  # imported inside a function
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_no_import_circle() -> None:
    g = _graph()
    assert _cycle(g) == [], f"import circle: {' -> '.join(_cycle(g))}"


def test_layers() -> None:
    # the public classes (_api) never import what builds on them
    g = _graph()
    assert "_extras" not in g["_api"] and "__init__" not in g["_api"]
    assert g["_errors"] == set()
    assert g["_native"] <= {"_errors", "_prefix"}
    assert g["_dialect"] <= {"_errors", "_native"}
