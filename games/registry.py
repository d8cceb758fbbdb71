"""The rulesets this installation ships, by name and version: the one place a ruleset is
registered (pages of its own, if any, are a Django app in INSTALLED_APPS)."""

from __future__ import annotations

from functools import cache

from games.base import Registry


@cache
def default_registry() -> Registry:
    from games.lggwg import RULESET as LGGWG
    from games.lggwg import RULESET_V1 as LGGWG_V1
    from games.lggwg import RULESET_V2 as LGGWG_V2
    from games.parties import RULESET as PARTIES
    from games.parties import RULESET_V1 as PARTIES_V1
    from games.wormlord import RULESET as WORMLORD
    from games.wormlord import RULESET_V1 as WORMLORD_V1
    from games.worms import RULESET as WORMS
    from games.worms import RULESET_V2_1 as WORMS_V2_1

    registry = Registry()
    for ruleset in (WORMS_V2_1, WORMS, LGGWG_V1, LGGWG_V2, LGGWG, WORMLORD_V1, WORMLORD, PARTIES_V1, PARTIES):
        registry = registry.register(ruleset)
    return registry
