"""What a bot author or a tester needs of a shipped ruleset is importable from its package:
the ruleset, every order it takes, positions as text both ways and orders as text; and a
position prints as that text by its own class, whatever else has been imported."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from games.base import Ruleset
from games.registry import default_registry

ROOT = Path(__file__).resolve().parents[3]
RULESETS = sorted({
    (name, type(default_registry().get(name)).__module__.rpartition(".")[0]) for name, _ in default_registry().names()
})


def _latest(name: str) -> Ruleset:
    return default_registry().get(name)


@pytest.mark.parametrize(("name", "package"), RULESETS)
def test_the_package_exports_the_ruleset_its_orders_and_its_notation(name: str, package: str) -> None:
    module = importlib.import_module(package)
    rules = _latest(name)
    assert module.RULESET is rules
    for command in rules.command_types:
        assert getattr(module, command.__name__) is command, f"{package}.{command.__name__}"
    for needed in ("parse_position", "format_position", "validate", "parse_order", "notation", "orders"):
        assert hasattr(module, needed), f"{package}.{needed}"
    assert set(module.__all__) <= set(vars(module))


@pytest.mark.parametrize(("name", "package"), RULESETS)
def test_every_shipped_ruleset_has_a_notation_module(name: str, package: str) -> None:
    assert (ROOT / package.replace(".", "/") / "notation.py").is_file()


@pytest.mark.parametrize(("name", "package"), RULESETS)
def test_a_position_prints_as_its_notation_from_its_own_class(name: str, package: str) -> None:
    module = importlib.import_module(package)
    state = _latest(name).initial_state()
    owner = next(c for c in type(state).__mro__ if "__repr__" in vars(c))
    assert owner.__repr__.__qualname__ == f"{owner.__name__}.__repr__", "written in the class, not installed on it"
    assert repr(state).endswith(f"({module.format_position(state)!r})")
    # nothing else imported: the state module alone prints the same way
    state_module = type(state).__module__
    code = f"import {state_module} as m; print(repr(m.{type(state).__name__}()))"
    printed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert printed.stdout.strip() == repr(type(state)())
