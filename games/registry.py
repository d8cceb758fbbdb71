"""The rulesets this installation knows, by name and version."""

from __future__ import annotations

from games.base import Registry

REGISTRY = Registry()


def default_registry() -> Registry:
    """Every ruleset shipped under ``games/``. Imported lazily so a broken ruleset
    cannot stop the others from loading in tests of the core."""
    registry = REGISTRY
    try:
        from games.worms import RULESET as WORMS
    except ImportError:  # the flagship lands in its own issue
        return registry
    return registry.register(WORMS)
