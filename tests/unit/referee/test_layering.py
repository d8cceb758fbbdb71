"""Imports go one way, in every package of the project: no cycles, function-level imports
included, and selectors never import services (reads do not write).

Every ``import`` and ``from ... import`` of every module is read with ``ast`` at any depth
(a function-level import is still an edge: it only hides the cycle until the function
runs), relative imports resolved, and the one graph of all the project's modules is
searched for strongly connected components, so a cycle that crosses packages is found too.
Packages are discovered when the test runs: a new one is covered without changing this file.

Importing ``games.worms.blast`` is an edge to ``games.worms.blast`` only, not to the package
``games.worms`` that Python also initialises on the way: a package's ``__init__`` gathering
its modules is not a cycle. Imports under ``if TYPE_CHECKING:`` never run and are left out.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

Graph = Mapping[str, set[str]]


def packages(root: Path = ROOT) -> list[str]:
    """The project's top-level packages (every folder with an ``__init__.py``)."""
    return sorted(p.parent.name for p in root.glob("*/__init__.py") if not p.parent.name.startswith("."))


def module_name(path: Path, base: Path = ROOT) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project's packages by its dotted name (migrations left out)."""
    found: dict[str, Path] = {}
    for package in packages(root):
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" not in path.parts and "migrations" not in path.parts:
                found[module_name(path, root)] = path
    return found


def _base(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a ``from`` import names, with relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The project's modules that module ``name`` imports, anywhere in its body."""
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


def graph(root: Path = ROOT) -> dict[str, set[str]]:
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


def _package(module: str) -> str:
    return module.partition(".")[0]


# --- the finder itself ----------------------------------------------------------------------


def test_the_finder_sees_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "__init__.py").write_text("from toy.a import f\n")
    (tmp_path / "toy" / "a.py").write_text("from toy import b\n\n\ndef f():\n    return b\n")
    (tmp_path / "toy" / "b.py").write_text("def g():\n    from .a import f\n\n    return f\n")
    edges = graph(tmp_path)
    assert edges == {"toy": {"toy.a"}, "toy.a": {"toy.b"}, "toy.b": {"toy.a"}}
    assert cycles(edges) == [["toy.a", "toy.b", "toy.a"]]


def test_the_finder_sees_a_cycle_across_packages(tmp_path: Path) -> None:
    for package, text in (("low", "def f():\n    import high.page\n"), ("high", "")):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
        (tmp_path / package / "page.py").write_text(text or "from low import page\n")
    assert cycles(graph(tmp_path)) == [["high.page", "low.page", "high.page"]]


def test_imports_for_type_checking_only_are_not_edges(tmp_path: Path) -> None:
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "__init__.py").write_text("")
    (tmp_path / "toy" / "a.py").write_text("import typing\n\nif typing.TYPE_CHECKING:\n    from toy import b\n")
    (tmp_path / "toy" / "b.py").write_text("from toy import a\n")
    assert graph(tmp_path) == {"toy": set(), "toy.a": set(), "toy.b": {"toy.a"}}


def test_the_finder_sees_no_cycle_in_a_one_way_graph() -> None:
    assert cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_every_package_is_read() -> None:
    edges = project()
    for package in ("api", "bench", "clients", "config", "frontend_templates", "game_pages", "games", "notices",
                    "referee", "tests"):
        assert package in packages(), package
    assert "referee.scheduling" in edges["referee.services"]  # a function-level import
    assert "games.worms.state" in edges["games.worms.rules"]
    assert not any("migrations" in m for m in edges)


# --- the project --------------------------------------------------------------------------------


@functools.cache
def project() -> dict[str, set[str]]:
    return graph()


@pytest.mark.parametrize("package", packages())
def test_no_import_cycles(package: str) -> None:
    found = [c for c in cycles(project()) if any(_package(m) == package for m in c)]
    assert found == [], "import cycles: " + "; ".join(" -> ".join(c) for c in found)


# The core and what it may import: itself and the pure rulesets below it. The project's wiring
# (config), the apps and the pages (api, notices, frontend_templates, game_pages) sit above it.
CORE = "referee"
BELOW_THE_CORE = ("games",)


def _names_a_module(text: str, packages: Iterable[str]) -> bool:
    """A dotted path (``"api.errors.handler400"``, ``"config.asgi:application"``) or a bare
    package name (a queue, an app label) in one of ``packages``."""
    head = text.partition(":")[0]
    return head.partition(".")[0] in packages and all(part.isidentifier() for part in head.split("."))


def test_the_core_imports_nothing_above_it() -> None:
    edges = project()
    found = {m: sorted(t for t in edges[m] if _package(t) not in (CORE, *BELOW_THE_CORE))
             for m in edges if _package(m) == CORE}
    assert {m: targets for m, targets in found.items() if targets} == {}


def test_the_core_names_no_module_above_it() -> None:
    """Not by string either (a URLconf's ``include("api.urls")``, a setting, a task's queue)."""
    above = set(packages()) - {CORE, *BELOW_THE_CORE}
    found = {
        name: sorted({node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                      if isinstance(node, ast.Constant) and isinstance(node.value, str)
                      and _names_a_module(node.value, above)})
        for name, path in modules().items() if _package(name) == CORE
    }
    assert {m: texts for m, texts in found.items() if texts} == {}


def test_a_string_naming_a_module_above_the_core_is_seen() -> None:
    above = {"api", "config", "notices"}
    assert _names_a_module("api.errors.handler400", above)
    assert _names_a_module("config.asgi:application", above)
    assert _names_a_module("notices", above)
    assert not _names_a_module("referee.run_due_work", above)
    assert not _names_a_module("the notices app", above)


# The modules of writes: a module of reads (a ``*selectors`` module) imports none of them.
WRITES = ("referee.services", "referee.lobby", "referee.ratings")


def test_selectors_do_not_import_services() -> None:
    edges = project()
    readers = [m for m in edges if m.rpartition(".")[2].endswith("selectors")]
    assert "referee.lobby_selectors" in readers
    found = {m: sorted(edges[m] & set(WRITES)) for m in readers if edges[m] & set(WRITES)}
    assert found == {}
