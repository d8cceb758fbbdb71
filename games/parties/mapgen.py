"""Setting up: the map and the bots, every draw recorded with its reason (P-R1 to P-R3).

A named map (setting ``map``, games/parties/maps.py) replaces the drawn obstacles.

Obstacles: ``obstacle_percent`` of the squares are drawn one by one (a square, then its
kind); a draw that would cut the open ground in two is skipped, so every bot can reach
every other. Bots: each seat draws a start square at least three squares (king's moves)
from the bots placed before it where there is one, then its strength bonus."""

from __future__ import annotations

from collections.abc import Sequence

from games.base import SeatInfo
from games.dice import Dice
from games.parties.board import FOREST, MOUNTAIN, OPEN, Terrain, connected, near_any, with_obstacle
from games.parties.events import GameSetUp, PlacedBot
from games.parties.maps import MAPS
from games.parties.notation import parse_grid
from games.parties.settings import PartiesSettings

START_DISTANCE = 2  # no other bot within two squares: nobody meets on the first tick


def setup_events(settings: PartiesSettings, seats: Sequence[SeatInfo], dice: Dice) -> tuple[GameSetUp]:
    if settings.map:
        rows = parse_grid(MAPS[settings.map])
        wanted = 0
    else:
        rows = tuple(OPEN * settings.width for _ in range(settings.height))
        wanted = settings.width * settings.height * settings.obstacle_percent // 100
    for i in range(1, wanted + 1):
        free = Terrain(rows).open_squares()
        square = free[dice.roll(f"obstacle {i}: square (of {len(free)} open, row by row)", 0, len(free) - 1)]
        kind = MOUNTAIN if dice.roll(f"obstacle {i}: 1 mountain, 2 forest", 1, 2) == 1 else FOREST
        candidate = with_obstacle(rows, square, kind)
        if connected(Terrain(candidate)):
            rows = candidate
    placed: list[PlacedBot] = []
    for seat in sorted(s.number for s in seats):
        taken = [(b.x, b.y) for b in placed]
        free = [sq for sq in Terrain(rows).open_squares() if sq not in taken]
        spaced = [sq for sq in free if not near_any(sq, taken, START_DISTANCE)] or free
        x, y = spaced[dice.roll(f"seat {seat}: start square (of {len(spaced)}, row by row)", 0, len(spaced) - 1)]
        bonus = dice.roll(f"seat {seat}: strength bonus in tenths", 0, settings.strength_spread) if settings.strength_spread else 0
        placed.append(PlacedBot(seat, x, y, settings.start_strength + bonus))
    return (GameSetUp(rows=rows, bots=tuple(placed), tick_ms=settings.tick_seconds * 1000, max_ticks=settings.max_ticks),)
