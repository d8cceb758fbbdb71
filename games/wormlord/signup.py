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


def turn_limit_in_settings(raw: Mapping[str, Any]) -> int | None:
    """The round length the settings give, if they give one (ruling WL-R10)."""
    value = raw.get("round_seconds")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def settings_with_turn_limit(raw: Mapping[str, Any], seconds: int) -> dict[str, Any]:
    """The game's turn limit is its round clock (§7.2, ruling WL-R10): every round of a
    refereed game has one, since a round nobody can win would otherwise never end."""
    if raw.get("time_limit", True) is not True:
        raise RuleViolation(
            "§7.2", "Every round of a refereed Wormlord game has a clock (the game's minutes per turn); "
            "time_limit cannot be turned off."
        )
    return {**raw, "time_limit": True, "round_seconds": seconds}


def clock_settings(raw: Mapping[str, Any], turn_limit_seconds: int | None) -> tuple[dict[str, Any], int | None]:
    """One clock per game (ruling WL-R10): the turn limit and ``round_seconds`` are one figure."""
    given = turn_limit_in_settings(raw)
    if turn_limit_seconds is None:
        if given is None:
            return dict(raw), None
        turn_limit_seconds = given
    elif given is not None and given != turn_limit_seconds:
        raise RuleViolation(
            "§7.2", f"The turn limit ({turn_limit_seconds} s) and the settings' round_seconds ({given} s) "
            "disagree: give one of them, or the same figure."
        )
    return settings_with_turn_limit(raw, turn_limit_seconds), turn_limit_seconds


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
