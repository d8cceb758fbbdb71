"""Template filters of the pages."""

from __future__ import annotations

from typing import Any

from django import template

from frontend_templates.generic_text import readable_time as _readable_time
from games.base import RuleViolation
from referee.rulesets import get_registry

register = template.Library()


@register.filter
def readable_time(value: str | None) -> str:
    """An ISO moment as "Wed 2 Dec 2026, 16:05 UTC" (the page then shows the reader's zone)."""
    return _readable_time(value)


@register.filter
def ruleset_title(game: Any) -> str:
    """A game's ruleset as players know it ("Little Green Guys With Guns"), not its id;
    the version is for the replay's details, where a rule change may matter."""
    return title_of(str(game.ruleset), str(game.ruleset_version or "") or None)


@register.filter
def ruleset_title_version(game: Any) -> str:
    """The title with the pinned version, for where it matters ("Wormlord, version 2")."""
    return f"{ruleset_title(game)}, version {game.ruleset_version}"


def title_of(name: str, version: str | None) -> str:
    try:
        rules = get_registry().get(name, version)
    except RuleViolation:  # a version no longer installed: the name still says what it was
        return name
    return rules.title or rules.name
