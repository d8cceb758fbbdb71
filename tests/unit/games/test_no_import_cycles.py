"""No import cycles anywhere in ``games/``: imports go one way.

Every ``import`` and ``from ... import`` of every module under ``games/`` is read with
``ast``, at any depth (a function-level import is still an edge: it only hides the cycle
until the function runs), and the graph of ``games`` modules is searched for strongly
connected components. Packages are discovered when the test runs, so a new package under
``games/`` is covered without changing this file.

Importing ``games.worms.blast`` counts as an edge to ``games.worms.blast`` only, not to the
package ``games.worms`` that Python also initialises on the way: a package's
``__init__`` gathering its modules is not a cycle. Imports under ``if TYPE_CHECKING:``
never run and are left out (type hints only).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
GAMES = ROOT / "games"

Graph = Mapping[str, set[str]]


def module_name(path: Path, base: Path = ROOT) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = GAMES) -> dict[str, Path]:
    """Every module under ``root`` (the ``games`` directory) by its dotted name."""
    return {
        module_name(p, root.parent): p for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts
    }


def _base(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a ``from`` import names, with relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The ``games`` modules that module ``name`` imports, anywhere in its body."""
    known = set(known)
    found: set[str] = set()
    for node in _nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _base(name, path, node)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in known else base)
    return {m for m in found if m in known and m != name}


def _nodes(tree: ast.AST) -> Iterable[ast.AST]:
    """Every node, at any depth, but the bodies of ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def graph(root: Path = GAMES) -> dict[str, set[str]]:
    found = modules(root)
    return {name: imports(name, path, found) for name, path in found.items()}


def cycles(edges: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as a
    cycle through all of its members where one exists, else its sorted members."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(_path(edges, sorted(component)))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return components


def _path(edges: Graph, component: list[str]) -> list[str]:
    """A cycle from the component's first member back to it, for the message."""
    members = set(component)
    start = component[0]
    trail = [start]
    seen = {start}
    while True:
        options = sorted(n for n in edges.get(trail[-1], ()) if n in members)
        if start in options and len(trail) > 1:
            return [*trail, start]
        fresh = [n for n in options if n not in seen]
        if not fresh:
            return [*trail, start] if start in options else sorted(component)
        trail.append(fresh[0])
        seen.add(fresh[0])


def packages() -> list[str]:
    return sorted(p.parent.name for p in GAMES.glob("*/__init__.py"))


def test_the_finder_sees_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    root = tmp_path / "games"
    (root / "toy").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "toy" / "__init__.py").write_text("from games.toy.a import f\n")
    (root / "toy" / "a.py").write_text("from games.toy import b\n\n\ndef f():\n    return b\n")
    (root / "toy" / "b.py").write_text("def g():\n    from .a import f\n\n    return f\n")
    edges = graph(root)
    assert edges["games.toy"] == {"games.toy.a"}
    assert edges["games.toy.a"] == {"games.toy.b"}
    assert edges["games.toy.b"] == {"games.toy.a"}
    assert cycles(edges) == [["games.toy.a", "games.toy.b", "games.toy.a"]]


def test_imports_for_type_checking_only_are_not_edges(tmp_path: Path) -> None:
    root = tmp_path / "games"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "a.py").write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from games import b\n")
    (root / "b.py").write_text("from games import a\n")
    assert graph(root) == {"games": set(), "games.a": set(), "games.b": {"games.a"}}


def test_the_finder_sees_no_cycle_in_a_one_way_graph() -> None:
    assert cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_every_package_under_games_is_read() -> None:
    edges = graph()
    assert "worms" in packages()
    for package in packages():
        assert f"games.{package}" in edges, package
    assert "games.worms.state" in edges["games.worms.rules"]


def _in(package: str, module: str) -> bool:
    if package == "":  # the modules of games/ itself: games.base, games.dice ...
        return module.count(".") <= 1 and f"{GAMES}/{module.rpartition('.')[2]}/__init__.py" not in _INITS
    return module == f"games.{package}" or module.startswith(f"games.{package}.")


_INITS = {str(p) for p in GAMES.glob("*/__init__.py")}


@pytest.mark.parametrize("package", ["", *packages()], ids=lambda p: p or "games")
def test_no_import_cycles(package: str) -> None:
    found = [cycle for cycle in cycles(graph()) if any(_in(package, m) for m in cycle)]
    assert found == [], "import cycles: " + "; ".join(" -> ".join(c) for c in found)
