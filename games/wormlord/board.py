"""The 7x7 board: square names, orthogonal neighbours, terrain letters and colours.

Squares are named like chess squares: columns ``a``-``g`` from the left, rows ``1``-``7``
from the bottom, so ``a1`` is the bottom-left corner and ``g7`` the top-right one.
"""

from __future__ import annotations

import enum

SIZE = 7
COLUMNS = "abcdefg"
SQUARES: tuple[str, ...] = tuple(f"{c}{r}" for r in range(1, SIZE + 1) for c in COLUMNS)

#: Terrain letters of a map row (also the empty squares of the position notation).
PLAIN = "."
IMPASSABLE = "#"
OBJECTIVE = "*"
BASE_DIGITS = "1234"
TERRAIN = PLAIN + IMPASSABLE + OBJECTIVE + BASE_DIGITS


class Colour(enum.StrEnum):
    """The four colours of strings and headquarters, in the order sides receive them."""

    PINK = "pink"
    BLUE = "blue"
    YELLOW = "yellow"
    BROWN = "brown"

    @property
    def letter(self) -> str:
        """The side's letter in the notation: a (pink), b (blue), c (yellow), d (brown)."""
        return "abcd"[list(Colour).index(self)]

    @property
    def digit(self) -> str:
        """The digit of this colour's base in a map."""
        return str(list(Colour).index(self) + 1)

    @classmethod
    def of_letter(cls, letter: str) -> Colour:
        return list(cls)["abcd".index(letter.lower())]

    @classmethod
    def of_digit(cls, digit: str) -> Colour:
        return list(cls)[int(digit) - 1]


def is_square(name: str) -> bool:
    return name in _INDEX


def xy(square: str) -> tuple[int, int]:
    """Column and row, both from 0."""
    return COLUMNS.index(square[0]), int(square[1:]) - 1


def name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def neighbours(square: str) -> tuple[str, ...]:
    """The orthogonally adjacent squares (the rulebook's "adjacent": no diagonals)."""
    return _NEIGHBOURS[square]


def terrain_at(grid: tuple[str, ...], square: str) -> str:
    """The terrain letter of ``square`` in a grid of rows given top row (7) first."""
    x, y = xy(square)
    return grid[SIZE - 1 - y][x]


def _compute_neighbours(square: str) -> tuple[str, ...]:
    x, y = xy(square)
    out = []
    for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        nx, ny = x + dx, y + dy
        if 0 <= nx < SIZE and 0 <= ny < SIZE:
            out.append(name(nx, ny))
    return tuple(out)


_INDEX = {s: i for i, s in enumerate(SQUARES)}
_NEIGHBOURS = {s: _compute_neighbours(s) for s in SQUARES}
