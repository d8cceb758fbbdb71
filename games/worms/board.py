"""The 15x15 grid: squares, names, directions and neighbourhoods (§2).

Squares are ``(x, y)`` with ``x`` the column ``a``..``o`` and ``y`` the row ``1``..``15``
counted from the top (north) edge, so ``a1`` is the north-west corner. North is ``y - 1``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator

SIZE = 15
MAX_HEIGHT = 10
COLUMNS = "abcdefghijklmno"

Square = tuple[int, int]


class Direction(enum.StrEnum):
    N = "N"
    NE = "NE"
    E = "E"
    SE = "SE"
    S = "S"
    SW = "SW"
    W = "W"
    NW = "NW"

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTAS[self]

    @property
    def orthogonal(self) -> bool:
        return len(self.value) == 1


_DELTAS: dict[Direction, tuple[int, int]] = {
    Direction.N: (0, -1),
    Direction.NE: (1, -1),
    Direction.E: (1, 0),
    Direction.SE: (1, 1),
    Direction.S: (0, 1),
    Direction.SW: (-1, 1),
    Direction.W: (-1, 0),
    Direction.NW: (-1, -1),
}

ORTHOGONAL: tuple[Direction, ...] = (Direction.N, Direction.E, Direction.S, Direction.W)
#: The eight directions in the order a random push direction is rolled (0..7).
ALL_DIRECTIONS: tuple[Direction, ...] = tuple(Direction)


def on_board(square: Square) -> bool:
    x, y = square
    return 0 <= x < SIZE and 0 <= y < SIZE


def step(square: Square, direction: Direction, distance: int = 1) -> Square:
    dx, dy = direction.delta
    return (square[0] + dx * distance, square[1] + dy * distance)


def direction_between(start: Square, end: Square) -> Direction | None:
    """The direction of a one-square step from ``start`` to ``end`` (8 neighbours)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    for direction, delta in _DELTAS.items():
        if delta == (dx, dy):
            return direction
    return None


def away(center: Square, square: Square) -> Direction | None:
    """The direction pointing from ``center`` towards ``square`` (sign of each axis)."""
    dx = (square[0] > center[0]) - (square[0] < center[0])
    dy = (square[1] > center[1]) - (square[1] < center[1])
    return direction_between((0, 0), (dx, dy))


def ring(center: Square, radius: int = 1) -> Iterator[Square]:
    """The on-board squares at Chebyshev distance exactly ``radius`` (the 8, the 16...)."""
    cx, cy = center
    for y in range(cy - radius, cy + radius + 1):
        for x in range(cx - radius, cx + radius + 1):
            if max(abs(x - cx), abs(y - cy)) == radius and on_board((x, y)):
                yield (x, y)


def orthogonal_neighbours(square: Square) -> Iterator[Square]:
    for direction in ORTHOGONAL:
        nxt = step(square, direction)
        if on_board(nxt):
            yield nxt


def all_squares() -> Iterator[Square]:
    for y in range(SIZE):
        for x in range(SIZE):
            yield (x, y)


def index(square: Square) -> int:
    return square[1] * SIZE + square[0]


def name(square: Square) -> str:
    return f"{COLUMNS[square[0]]}{square[1] + 1}"


class SquareError(ValueError):
    pass


def parse_square(text: str) -> Square:
    """``"c4"`` -> ``(2, 3)``; raises ``SquareError`` with a sentence a player understands."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise SquareError(f"{text!r} is not a square: write a column a-o and a row 1-15, like c4.")
    row = int(text[1:])
    if not 1 <= row <= SIZE:
        raise SquareError(f"{text!r} is not a square: rows go from 1 to {SIZE}.")
    return (COLUMNS.index(text[0]), row - 1)
