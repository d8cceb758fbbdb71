"""Map generation and placement (§4; §13 "how this is done" is missing, so this is ours).

The generator (ruling W-R4 in docs/rulings.md), every draw from the dice:

1. Start from open water everywhere.
2. Raise 3-5 islands. Each has a centre (any square), a radius 3-6, a peak height 4-10 and
   a steepness 1-2. A square's height from one island is ``peak - steepness * d`` where
   ``d`` is its Chebyshev distance from the centre, for ``d <= radius``; a square takes the
   highest value any island gives it. Steepness 2 makes cliffs (drops of 2 per square),
   steepness 1 slopes; overlapping islands make plateaus and valleys.
3. Sink 0-3 water holes: a random land square becomes 0 (open water).
4. If fewer than ``needed`` land squares exist (worms, mines, drums and room to move),
   raise one more island and repeat from step 3, at most 6 extra islands; after that the
   map is used as it is and placement fails loudly if there is no room.

Placement: worms first (team by team in seat order, worm by worm), then the mines (type
drawn per mine), then the oil drums, each on a random free land square.
"""

from __future__ import annotations

from games.dice import Dice
from games.worms.board import MAX_HEIGHT, SIZE, Square, all_squares, index
from games.worms.state import Drum, Mine, MineType, Team, Worm

MIN_ISLANDS, MAX_ISLANDS = 3, 5
EXTRA_ISLANDS = 6
MINE_TYPES: tuple[MineType, ...] = (MineType.DAMAGE, MineType.SHOCKWAVE, MineType.POISON)


class MapError(ValueError):
    pass


def _raise_island(dice: Dice, heights: list[int]) -> None:
    cx = dice.roll("island centre column", 0, SIZE - 1)
    cy = dice.roll("island centre row", 0, SIZE - 1)
    radius = dice.roll("island radius", 3, 6)
    peak = dice.roll("island peak height", 4, MAX_HEIGHT)
    steep = dice.roll("island steepness", 1, 2)
    for x, y in all_squares():
        d = max(abs(x - cx), abs(y - cy))
        if d <= radius:
            h = max(0, peak - steep * d)
            heights[index((x, y))] = max(heights[index((x, y))], h)


def generate(dice: Dice, needed: int) -> tuple[int, ...]:
    heights = [0] * (SIZE * SIZE)
    for _ in range(dice.roll("number of islands", MIN_ISLANDS, MAX_ISLANDS)):
        _raise_island(dice, heights)
    for extra in range(EXTRA_ISLANDS + 1):
        for _ in range(dice.roll("number of water holes", 0, 3)):
            land = [s for s in all_squares() if heights[index(s)] > 0]
            if land:
                heights[index(dice.choice("water hole", land))] = 0
        if sum(1 for h in heights if h > 0) >= needed or extra == EXTRA_ISLANDS:
            break
        _raise_island(dice, heights)
    return tuple(heights)


def place(
    dice: Dice,
    heights: tuple[int, ...],
    teams: tuple[Team, ...],
    worms_per_team: int,
    mines: int,
    drums: int,
    health: int,
) -> tuple[tuple[Worm, ...], tuple[Mine, ...], tuple[Drum, ...]]:
    free: list[Square] = [s for s in all_squares() if heights[index(s)] > 0]

    def take(purpose: str) -> Square:
        if not free:
            raise MapError("the map has no free land left to place everything on")
        square = dice.choice(purpose, free)
        free.remove(square)
        return square

    placed_worms: list[Worm] = []
    for team in teams:
        for n in range(1, worms_per_team + 1):
            x, y = take(f"square of worm {team.letter}{n}")
            placed_worms.append(Worm(f"{team.letter}{n}", team.seat, x, y, health))
    placed_mines: list[Mine] = []
    for n in range(mines):
        x, y = take(f"square of mine {n + 1}")
        kind = MINE_TYPES[dice.roll(f"type of mine {n + 1} (0 damage, 1 shockwave, 2 poison)", 0, 2)]
        placed_mines.append(Mine(x, y, kind))
    placed_drums = [Drum(*take(f"square of oil drum {n + 1}")) for n in range(drums)]
    return tuple(placed_worms), tuple(placed_mines), tuple(placed_drums)
