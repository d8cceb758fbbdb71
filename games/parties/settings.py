"""A game's settings: none of these figures is in the rulebook, so each is a choice
recorded in docs/rulings/parties.md (P-R1 to P-R4) and can be changed per game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from games.base import RuleViolation
from games.parties.board import MAX_SIZE
from games.parties.maps import MAPS
from games.serialization import DataError, from_data

MAX_TICK_SECONDS = 48 * 3600


@dataclass(frozen=True)
class PartiesSettings:
    #: the grid (P-R1): columns a.. and rows 1.. from the top
    width: int = 16
    height: int = 12
    #: share of squares drawn as mountains or forests at setup (P-R2)
    obstacle_percent: int = 12
    #: starting strength in tenths (10 = 1.0), plus a drawn 0..spread tenths per bot (P-R3)
    start_strength: int = 10
    strength_spread: int = 10
    #: the tick: how long bots have to choose a move (P-R4)
    tick_seconds: int = 10
    #: the game ends after this tick even if the bots are not united (P-R5)
    max_ticks: int = 600
    #: a named map of games/parties/maps.py instead of drawn obstacles; "" draws (P-R2).
    #: A named map brings its own size: width, height and obstacle_percent are unused.
    map: str = ""


BOUNDS: dict[str, tuple[int, int, str]] = {
    "width": (6, MAX_SIZE, "The grid must be 6 to 26 squares wide."),
    "height": (6, MAX_SIZE, "The grid must be 6 to 26 squares high."),
    "obstacle_percent": (0, 30, "Obstacles may cover 0 to 30 percent of the grid."),
    "start_strength": (1, 1000, "The starting strength must be 1 to 1000 tenths (0.1 to 100.0)."),
    "strength_spread": (0, 1000, "The strength spread must be 0 to 1000 tenths."),
    "tick_seconds": (2, MAX_TICK_SECONDS, "A tick must last 2 seconds to 48 hours."),
    "max_ticks": (1, 100_000, "The tick cap must be 1 to 100000 ticks."),
}


def parse_settings(raw: Mapping[str, Any]) -> PartiesSettings:
    known = {f.name for f in fields(PartiesSettings)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise RuleViolation(
            "settings", f"Unknown setting(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}."
        )
    try:
        parsed = from_data(PartiesSettings, dict(raw))
    except DataError as exc:
        raise RuleViolation("settings", f"Bad setting: {exc}.") from None
    for key, (low, high, message) in BOUNDS.items():
        if not low <= getattr(parsed, key) <= high:
            raise RuleViolation("settings", message)
    if parsed.map and parsed.map not in MAPS:
        raise RuleViolation("settings", f"There is no map {parsed.map!r}; named maps: {', '.join(sorted(MAPS))}.")
    return parsed
