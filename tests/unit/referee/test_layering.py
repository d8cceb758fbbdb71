"""The referee's modules import one way: no cycles (function-level imports included), and
selectors never import services (reads do not write)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports anywhere in its body."""
    files = [p for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts]
    modules = {_module(p): p for p in files}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_the_import_graph_sees_function_level_imports():
    graph = {"a": {"b"}, "b": {"a"}}
    assert cycles(graph) == [["a", "b", "a"]]
    assert "referee.scheduling" in import_graph("referee")["referee.services"]


def test_referee_has_no_import_cycles():
    assert cycles(import_graph("referee")) == []


def test_api_has_no_import_cycles():
    assert cycles(import_graph("api")) == []


def test_selectors_do_not_import_services():
    assert "referee.services" not in import_graph("referee")["referee.selectors"]
