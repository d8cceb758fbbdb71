"""The rulesets this installation ships, by name and version."""

from __future__ import annotations

from functools import cache

from games.base import Registry


@cache
def default_registry() -> Registry:
    from games.worms import RULESET as WORMS

    return Registry().register(WORMS)
