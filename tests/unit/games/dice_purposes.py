"""The purposes a ruleset's engine gives its dice draws, read from its source (no game is
played): every ``dice.roll``/``choice``/``chance``/``shuffle`` call under ``games/<name>/``,
with its purpose as written (an f-string's fields become ``{...}``). A purpose handed in
from elsewhere (a helper's parameter, a local variable) is followed to where it is written:
the helper's callers, the assignment."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

GAMES = Path(__file__).resolve().parents[3] / "games"
METHODS = ("roll", "choice", "chance", "shuffle")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Purpose:
    text: str
    method: str
    where: str

    @property
    def shape(self) -> str:
        """The purpose with every field written ``{}``, as documents and engine compare."""
        return PLACEHOLDER.sub("{}", self.text)


class _Source:
    def __init__(self, ruleset: str) -> None:
        self.trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted((GAMES / ruleset).glob("*.py"))}
        self.parent: dict[ast.AST, ast.AST] = {}
        self.file: dict[ast.AST, Path] = {}
        for path, tree in self.trees.items():
            for node in ast.walk(tree):
                self.file[node] = path
                for child in ast.iter_child_nodes(node):
                    self.parent[child] = node

    def function_of(self, node: ast.AST) -> ast.FunctionDef | None:
        while node in self.parent:
            node = self.parent[node]
            if isinstance(node, ast.FunctionDef):
                return node
        return None

    def where(self, node: ast.AST) -> str:
        return f"{self.file[node].relative_to(GAMES.parent)}:{getattr(node, 'lineno', '?')}"

    def texts(self, node: ast.expr) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.JoinedStr):
            texts = [""]
            for part in node.values:
                pieces = [part.value] if isinstance(part, ast.Constant) else self._field(part)  # type: ignore[attr-defined]
                texts = [t + p for t in texts for p in pieces]
            return texts
        if isinstance(node, ast.Name):
            return self._follow(node)
        raise AssertionError(f"{self.where(node)}: a purpose written as {ast.unparse(node)!r} cannot be read")

    def _field(self, part: ast.FormattedValue) -> list[str]:
        """An f-string's field: ``{...}``, or, for a local name given one of a few written
        texts (``where = "at the centre" if ... else f"around ({ring})"``), each of them."""
        if isinstance(part.value, ast.Name):
            function = self.function_of(part)
            values = [] if function is None else [
                n.value for n in ast.walk(function)
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == part.value.id for t in n.targets)
            ]
            if len(values) == 1 and (texts := self._written(values[0])) is not None:
                return texts
        return ["{" + ast.unparse(part.value) + "}"]

    def _written(self, node: ast.expr) -> list[str] | None:
        if isinstance(node, ast.IfExp):
            body, orelse = self._written(node.body), self._written(node.orelse)
            return None if body is None or orelse is None else body + orelse
        if isinstance(node, ast.Constant | ast.JoinedStr):
            return self.texts(node) if not isinstance(node, ast.Constant) or isinstance(node.value, str) else None
        return None

    def _follow(self, name: ast.Name) -> list[str]:
        function = self.function_of(name)
        assert function is not None, f"{self.where(name)}: {name.id} is not in a function"
        assigned = [
            n.value for n in ast.walk(function)
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name.id for t in n.targets)
        ]
        if assigned:
            return [t for value in assigned for t in self.texts(value)]
        params = [a.arg for a in function.args.args]
        assert name.id in params, f"{self.where(name)}: cannot tell where {name.id} comes from"
        index = params.index(name.id) - (1 if params[:1] == ["self"] else 0)
        out: list[str] = []
        for call in self._callers(function):
            arg = next((k.value for k in call.keywords if k.arg == name.id), None)
            if arg is None and len(call.args) > index:
                arg = call.args[index]
            assert arg is not None, f"{self.where(call)}: no {name.id} given"
            out += self.texts(arg)
        assert out, f"{self.where(function)}: {function.name} hands on a purpose but nobody calls it"
        return out

    def _callers(self, function: ast.FunctionDef) -> list[ast.Call]:
        """Calls of ``function``: by name inside the function that holds it (a helper
        within a function), as a method (``o.roll``, not a dice's), or by name or
        ``module.name`` where its module is imported."""
        outer = self.function_of(function)
        scope = [outer] if outer is not None else list(self.trees.values())
        method = [a.arg for a in function.args.args][:1] == ["self"]
        module = self.file[function].stem
        calls = []
        for root in scope:
            for n in ast.walk(root):
                if not isinstance(n, ast.Call) or n is function:
                    continue
                f = n.func
                if isinstance(f, ast.Name) and f.id == function.name and not method:
                    calls.append(n)
                elif isinstance(f, ast.Attribute) and f.attr == function.name:
                    receiver = ast.unparse(f.value)
                    if (method and not receiver.endswith("dice")) or receiver == module:
                        calls.append(n)
        return calls


@cache
def engine_purposes(ruleset: str) -> tuple[Purpose, ...]:
    source = _Source(ruleset)
    found = []
    for tree in source.trees.values():
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in METHODS):
                continue
            if not ast.unparse(n.func.value).endswith("dice") or not n.args:
                continue  # not a Dice (a bot's own random.Random)
            found += [Purpose(t, n.func.attr, source.where(n)) for t in source.texts(n.args[0])]
    return tuple(found)
