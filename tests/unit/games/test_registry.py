"""The registry serves a game the ruleset version it was made with, and new games the
latest: versions are ordered as numbers, so version 10 comes after version 2."""

from __future__ import annotations

import pytest

from games.base import Registry, RuleViolation
from games.lggwg.rules import LggwgRuleset


def _version(number: str) -> LggwgRuleset:
    return type(f"V{number}", (LggwgRuleset,), {"version": number})()  # type: ignore[return-value]


def test_the_latest_version_is_the_highest_number_not_the_last_string() -> None:
    registry = Registry()
    for number in ("2", "10", "1", "2.1"):
        registry = registry.register(_version(number))
    assert registry.get("lggwg").version == "10"
    assert [v for _, v in registry.names()] == ["1", "2", "2.1", "10"]
    assert registry.get("lggwg", "2").version == "2"


def test_an_unknown_version_is_refused_naming_the_known_ones() -> None:
    registry = Registry().register(_version("1")).register(_version("10"))
    with pytest.raises(RuleViolation, match=r"no version '3' \(known: 1, 10\)"):
        registry.get("lggwg", "3")
