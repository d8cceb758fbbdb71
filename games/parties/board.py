"""The grid: squares, the eight directions, terrain and the diagonal squeeze (§5).

Squares are ``(x, y)`` with ``x`` the column from the west edge and ``y`` the row from the
north edge, both from 0. In text a square is a column letter and a row number from 1 at
the top: ``a1`` is the north-west corner, ``c4`` is ``(2, 3)``. North is up (``y - 1``).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable

Square = tuple[int, int]

OPEN = "."
MOUNTAIN = "M"
FOREST = "F"
TERRAIN_NAMES = {MOUNTAIN: "a mountain", FOREST: "a forest", OPEN: "open ground"}
MAX_SIZE = 26  # one letter per column

#: direction name -> (dx, dy); "stay" is the ninth choice.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
    "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
}
STAY = "stay"
CHOICES = (*DIRECTIONS, STAY)
#: A solo's standing answer when another solo meets it (§1.1, P-R9): words of the orders,
#: like the directions, so the state and the notation writer both read them from here.
ALLY_POLICIES = ("always", "never", "lead", "follow")
DEFAULT_POLICY = "always"


def name(square: Square) -> str:
    x, y = square
    return f"{chr(ord('a') + x)}{y + 1}"


_SQUARE = re.compile(r"([a-z])([1-9][0-9]?)$")


def parse_square(text: str) -> Square:
    match = _SQUARE.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a square (a column letter and a row number, like c4)")
    return ord(match.group(1)) - ord("a"), int(match.group(2)) - 1


def step(square: Square, direction: str) -> Square:
    if direction == STAY:
        return square
    dx, dy = DIRECTIONS[direction]
    return square[0] + dx, square[1] + dy


def adjacent(a: Square, b: Square) -> bool:
    """The eight neighbours (king's move): what counts as meeting (P-R7)."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


class Terrain:
    """Rows of terrain characters, read-only helpers around them."""

    def __init__(self, rows: tuple[str, ...]) -> None:
        self.rows = rows
        self.height = len(rows)
        self.width = len(rows[0]) if rows else 0

    def inside(self, square: Square) -> bool:
        x, y = square
        return 0 <= x < self.width and 0 <= y < self.height

    def at(self, square: Square) -> str:
        return self.rows[square[1]][square[0]]

    def blocked(self, square: Square) -> bool:
        """Off the grid, a mountain or a forest (§5.1)."""
        return not self.inside(square) or self.at(square) != OPEN

    def squeezed(self, start: Square, end: Square) -> bool:
        """A one-square diagonal step between two obstacle corners (§5.2): both squares
        beside the diagonal are obstacles. With one of them open the bot walks along the
        open outer edge of the obstacle, which is free (§5.4)."""
        dx, dy = end[0] - start[0], end[1] - start[1]
        if abs(dx) != 1 or abs(dy) != 1:
            return False
        corners = ((start[0] + dx, start[1]), (start[0], start[1] + dy))
        return all(self.inside(c) and self.at(c) != OPEN for c in corners)

    def open_squares(self) -> list[Square]:
        return [(x, y) for y in range(self.height) for x in range(self.width) if self.at((x, y)) == OPEN]


def connected(terrain: Terrain) -> bool:
    """Whether every open square can reach every other by king's moves (a squeeze is a
    move, so diagonal gaps connect)."""
    squares = terrain.open_squares()
    if not squares:
        return True
    seen = {squares[0]}
    todo = deque([squares[0]])
    while todo:
        here = todo.popleft()
        for direction in DIRECTIONS:
            there = step(here, direction)
            if there not in seen and not terrain.blocked(there):
                seen.add(there)
                todo.append(there)
    return len(seen) == len(squares)


def with_obstacle(rows: tuple[str, ...], square: Square, kind: str) -> tuple[str, ...]:
    x, y = square
    row = rows[y]
    return (*rows[:y], row[:x] + kind + row[x + 1 :], *rows[y + 1 :])


def near_any(square: Square, others: Iterable[Square], distance: int) -> bool:
    return any(max(abs(square[0] - o[0]), abs(square[1] - o[1])) <= distance for o in others)
