"""Squares, directions, terrain and the one line algorithm for sight and bullets (§5, §6).

Squares are ``(x, y)``: ``x`` the column from 0 (named a, b, c ...), ``y`` the row from 0 at
the top (named 1, 2, 3 ...), so ``c2`` is ``(2, 1)``. North is up (``y`` decreasing).
"""

from __future__ import annotations

import enum
import re
from functools import lru_cache

Square = tuple[int, int]

DIRECTIONS: dict[str, Square] = {
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
    "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
}
DIRECTION_NAMES = tuple(DIRECTIONS)


class Terrain(enum.StrEnum):
    """One character per square, as in the map files and the notation (§5)."""

    FLOOR = "."
    WALL = "#"
    DOOR = "+"
    OPEN_DOOR = "_"
    LOCKED_DOOR = "L"
    WINDOW = "="
    CRATE = "c"
    NUCLEAR_CRATE = "n"
    HEALTH_PACK = "h"


TERRAIN_CHARS = frozenset(t.value for t in Terrain)
#: Squares a unit may step onto (a health pack is picked up by stepping on it).
WALKABLE = frozenset({Terrain.FLOOR, Terrain.OPEN_DOOR, Terrain.HEALTH_PACK})
#: Squares that stop sight: walls and closed doors (windows and crates do not).
OPAQUE = frozenset({Terrain.WALL, Terrain.DOOR, Terrain.LOCKED_DOOR})
#: Squares a bullet stops at (besides units): everything but floor, open doors and windows.
SOLID = frozenset({Terrain.WALL, Terrain.DOOR, Terrain.LOCKED_DOOR, Terrain.CRATE,
                   Terrain.NUCLEAR_CRATE, Terrain.HEALTH_PACK})
#: What a Firebot's fireball cannot pass (§5: hardened objects and walls).
HARD = frozenset({Terrain.WALL, Terrain.LOCKED_DOOR, Terrain.NUCLEAR_CRATE})


def name(square: Square) -> str:
    x, y = square
    return f"{_column(x)}{y + 1}"


def _column(x: int) -> str:
    return chr(ord("a") + x) if x < 26 else "z" + _column(x - 26)


_SQUARE = re.compile(r"^([a-z])(\d{1,2})$")


def parse_square(text: str) -> Square:
    """``"c2"`` -> ``(2, 1)``; ValueError with the reason otherwise."""
    m = _SQUARE.match(text.strip())
    if not m or int(m.group(2)) < 1:
        raise ValueError(f"{text!r} is not a square (a column letter and a row number, e.g. c2)")
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


def step(square: Square, direction: str) -> Square:
    dx, dy = DIRECTIONS[direction]
    return square[0] + dx, square[1] + dy


def distance(a: Square, b: Square) -> int:
    """Ranges and sight are counted in king moves (Chebyshev distance)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def neighbours(square: Square, radius: int = 1) -> tuple[Square, ...]:
    x, y = square
    return tuple(
        (x + dx, y + dy) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)
        if (dx, dy) != (0, 0)
    )


#: One square of a line: the square entered and, when the line enters it exactly through a
#: corner, the two squares beside that corner (else an empty tuple).
Crossing = tuple[Square, tuple[Square, ...]]


@lru_cache(maxsize=16384)
def line(a: Square, b: Square) -> tuple[Crossing, ...]:
    """The squares the segment from the centre of ``a`` to the centre of ``b`` crosses, in
    order, without ``a`` and with ``b`` (L-R11).

    Walk from centre to centre: at each step compare where the segment leaves the current
    square. It leaves through a vertical side (step in x), a horizontal side (step in y), or
    exactly through a corner: then it steps diagonally and records the two squares that meet
    at that corner. The segment touches those two only at a point; it is blocked there only
    if BOTH are blocking (a bullet or a look squeezes between one wall and open floor)."""
    (x0, y0), (x1, y1) = a, b
    nx, ny = abs(x1 - x0), abs(y1 - y0)
    sx, sy = (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)
    x, y, ix, iy = x0, y0, 0, 0
    out: list[Crossing] = []
    while ix < nx or iy < ny:
        decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if decision == 0:
            sides = ((x + sx, y), (x, y + sy))
            x, y, ix, iy = x + sx, y + sy, ix + 1, iy + 1
            out.append(((x, y), sides))
        elif decision < 0:
            x, ix = x + sx, ix + 1
            out.append(((x, y), ()))
        else:
            y, iy = y + sy, iy + 1
            out.append(((x, y), ()))
    return tuple(out)


def line_squares(a: Square, b: Square) -> tuple[Square, ...]:
    return tuple(sq for sq, _ in line(a, b))


# --- run-length rows (map files and notation) -------------------------------------------


def rle(row: str) -> str:
    """``"####..."`` -> ``"#4.3"``: a character, then its count when more than one."""
    out, i = [], 0
    while i < len(row):
        j = i
        while j < len(row) and row[j] == row[i]:
            j += 1
        out.append(row[i] + (str(j - i) if j - i > 1 else ""))
        i = j
    return "".join(out)


def unrle(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch.isdigit():
            raise ValueError(f"a count with no character before it at {text[: i + 1]!r}")
        j = i + 1
        while j < len(text) and text[j].isdigit():
            j += 1
        out.append(ch * (int(text[i + 1 : j]) if j > i + 1 else 1))
        i = j
    return "".join(out)
