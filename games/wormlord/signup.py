"""Settings and set-up (§1 Setup, §7.1 teams, §8 maps)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import RuleViolation, SeatInfo, TurnLimits
from games.serialization import DataError, from_data
from games.wormlord import events as ev
from games.wormlord import maps
from games.wormlord.board import SQUARES, Colour, terrain_at
from games.wormlord.state import Settings, Timing

#: §7.2 "We suggest 3 minutes": the round length, in the turn-limit shape (ruling WL-R10).
ROUND_LIMITS = TurnLimits(minimum=60, maximum=3600, default=180, unit="minutes", rule="§7.2")

_BOUNDS = {
    "knot_interval_ms": (0, 60_000),
    "untie_ms": (0, 60_000),
    "countdown_ms": (0, 60_000),
    "break_ms": (0, 600_000),
}


def parse_settings(raw: Mapping[str, Any]) -> Settings:
    try:
        settings = from_data(Settings, dict(raw))
    except DataError as exc:
        raise RuleViolation("settings", str(exc)) from None
    if settings.map and maps.find(settings.map) is None:
        known = ", ".join(m.name for m in maps.all_maps())
        raise RuleViolation("§8", f"There is no map called {settings.map!r} (known: {known}).")
    low, high = ROUND_LIMITS.minimum, ROUND_LIMITS.maximum
    if not low <= settings.round_seconds <= high:
        raise RuleViolation(
            "§7.2", f"A round must last between {low // 60} and {high // 60} minutes, not {settings.round_seconds} s."
        )
    for name, (low, high) in _BOUNDS.items():
        value = getattr(settings, name)
        if not low <= value <= high:
            raise RuleViolation("settings", f"{name} must be between {low} and {high} ms, not {value}.")
    return settings


def make_sides(settings: Settings, seats: Sequence[SeatInfo]) -> tuple[tuple[int, ...], ...]:
    """Seats in seat order get pink, blue, yellow, brown; with teams, two by two (WL-R12)."""
    numbers = sorted(s.number for s in seats)
    if settings.teams:
        if len(numbers) not in (4, 6, 8):
            raise RuleViolation("§7.1", f"Teams need 4, 6 or 8 players, not {len(numbers)}.")
        return tuple(tuple(numbers[i : i + 2]) for i in range(0, len(numbers), 2))
    if not 2 <= len(numbers) <= 4:
        raise RuleViolation(
            "§1", f"Wormlord is for 2 to 4 players (up to 8 in teams of two), not {len(numbers)}."
        )
    return tuple((n,) for n in numbers)


def setup(
    settings: Settings, seats: Sequence[SeatInfo], drawings: Mapping[str, str] = maps.NO_DRAWINGS
) -> tuple[ev.GameSetUp]:
    """``drawings``: the earlier map drawings the ruleset version sets games up on."""
    groups = make_sides(settings, seats)
    standard = maps.STANDARD[len(groups)]
    chosen = maps.find(settings.map, drawings) if settings.map else maps.load(standard, drawings.get(standard, ""))
    assert chosen is not None  # parse_settings refused unknown names
    if chosen.players != len(groups):
        raise RuleViolation(
            "§8", f"{chosen.name} is a map for {chosen.players} colours; this game has {len(groups)}."
        )
    sides = []
    for colour, group in zip(Colour, groups, strict=False):
        base = next(s for s in SQUARES if terrain_at(chosen.grid, s) == colour.digit)
        sides.append(ev.SideSetUp(colour, group, base))
    timing = Timing(
        knot_interval_ms=settings.knot_interval_ms, untie_ms=settings.untie_ms,
        countdown_ms=settings.countdown_ms, break_ms=settings.break_ms,
        round_ms=settings.round_seconds * 1000 if settings.time_limit else None,
    )
    return (ev.GameSetUp(chosen.id, chosen.grid, tuple(sides), timing),)
