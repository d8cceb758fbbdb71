"""Sign-up (§4, §6): settings, teams, the shopping list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import RuleViolation, SeatInfo
from games.worms.board import SIZE
from games.worms.items import FREE_ITEMS, ITEMS, POINTS_BY_PLAYERS, TEAM_WEAPON_UNITS, title
from games.worms.state import Settings, Stock, Team

MAX_WORMS_ON_BOARD = 18
MAX_PLAYERS = 8
DEFAULT_WORMS_PER_TEAM = 4
LETTERS = "ABCDEFGH"


def worms_per_team(settings: Settings, players: int) -> int:
    """Ruling W-R1: 4 worms a team, fewer when needed to keep at most 18 on the board
    (§2): 2-4 players 4 each, 5-6 players 3 each, 7-8 players 2 each."""
    cap = MAX_WORMS_ON_BOARD // max(players, 1)
    wanted = settings.worms_per_team or DEFAULT_WORMS_PER_TEAM
    return max(1, min(wanted, cap))


def parse_settings(raw: Mapping[str, Any]) -> Settings:
    known = {"worms_per_team", "sudden_death_after", "mines", "drums", "health"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise RuleViolation("settings", f"Unknown setting(s): {', '.join(unknown)}.")
    problems: list[str] = []
    values: dict[str, Any] = {}
    bounds = {
        "worms_per_team": (1, MAX_WORMS_ON_BOARD // 2),
        "sudden_death_after": (1, 100),
        "mines": (0, 60),
        "drums": (0, 20),
        "health": (1, 1000),
    }
    for key, value in raw.items():
        low, high = bounds[key]
        if value is None and key == "worms_per_team":
            values[key] = None
        elif isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            problems.append(f"{key} must be a whole number from {low} to {high}")
        else:
            values[key] = value
    if problems:
        raise RuleViolation("settings", "; ".join(problems) + ".")
    return Settings(**values)


def make_teams(seats: Sequence[SeatInfo]) -> tuple[Team, ...]:
    if not 2 <= len(seats) <= MAX_PLAYERS:
        raise RuleViolation("§2", f"A game has 2 to {MAX_PLAYERS} players, not {len(seats)}.")
    ordered = sorted(seats, key=lambda s: s.number)
    return tuple(
        Team(seat=s.number, letter=LETTERS[i], name=s.name, inventory=())
        for i, s in enumerate(ordered)
    )


def points_for(players: int) -> int:
    return POINTS_BY_PLAYERS[max(2, min(players, MAX_PLAYERS))]


def check_shopping_list(
    team_weapon: str, items: tuple[Stock, ...], points: int
) -> tuple[Stock, ...]:
    """Return the starting inventory, or raise one RuleViolation listing every problem."""
    problems: list[str] = []
    if team_weapon not in TEAM_WEAPON_UNITS:
        choices = ", ".join(f"{n} ({title(n)})" for n in TEAM_WEAPON_UNITS)
        problems.append(
            f"{team_weapon!r} is not a team weapon; choose one of {choices}"
            if team_weapon
            else f"choose one free team weapon: {choices}"
        )
    spent = 0
    seen: set[str] = set()
    bought: list[Stock] = []
    for stock in items:
        spec = ITEMS.get(stock.item)
        if stock.item in seen:
            problems.append(f"{title(stock.item)} is listed twice; give one line with the total")
            continue
        seen.add(stock.item)
        if spec is None:
            problems.append(f"{stock.item!r} is not on the shopping list (items are named like 'bazooka', 'fire_punch')")
            continue
        if spec.free:
            problems.append(f"{spec.title}s are free and unlimited; leave them off the list")
            continue
        if stock.item in TEAM_WEAPON_UNITS:
            problems.append(f"the {spec.title} is a team weapon: it can only be the free choice")
            continue
        if spec.price is None:
            problems.append(f"the {spec.title} cannot be bought, only found in crates")
            continue
        if stock.count is None:
            problems.append(f"you cannot buy an unlimited supply of {spec.title}")
            continue
        if stock.count < 1:
            problems.append(f"buy at least 1 {spec.title} or leave it off the list")
            continue
        spent += spec.price * stock.count
        bought.append(stock)
    if spent > points:
        problems.append(f"the list costs {spent} points but you have {points}")
    if problems:
        raise RuleViolation("§6", "Your shopping list is not valid: " + "; ".join(problems) + ".")
    team = (Stock(team_weapon, TEAM_WEAPON_UNITS[team_weapon]),)
    return (*(Stock(n, None) for n in FREE_ITEMS), *team, *bought)


def free_land_needed(teams: int, per_team: int, settings: Settings) -> int:
    return teams * per_team + settings.mines + settings.drums + 2 * SIZE
