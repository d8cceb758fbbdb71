"""The registry the Django side uses: every ruleset under games/, plus any named in
``settings.REFEREE_EXTRA_RULESETS`` ("module:ATTRIBUTE"), which is how the test suite
plugs in its small core-testing ruleset without it ever living under games/."""

from __future__ import annotations

import importlib
from functools import cache

from django.conf import settings

from games.base import Registry
from games.registry import default_registry


@cache
def _registry_with(extra_paths: tuple[str, ...]) -> Registry:
    """The shipped rulesets plus those named by ``extra_paths`` (cached per tuple)."""
    registry = default_registry()
    for path in extra_paths:
        module, _, attr = path.partition(":")
        registry = registry.register(getattr(importlib.import_module(module), attr))
    return registry


def get_registry() -> Registry:
    return _registry_with(tuple(getattr(settings, "REFEREE_EXTRA_RULESETS", ())))
