"""Aiming (§5 RNG and HGT, §8 wind): where a shot may be aimed and where it lands.

- Range counts a diagonal step as 2, so a square ``dx`` across and ``dy`` down is
  ``|dx| + |dy|`` away (ruling W-R26).
- "Straight line only" weapons aim along the worm's row or column.
- HGT is a window around the firer's land height. The shot flies along the line of
  squares to its target (diagonal steps while both offsets remain, then straight); the
  first square above the window is a wall: the shot stops on the square before it
  (ruling W-R27). A target below the window is out of reach: nothing there is hit.
- The bazooka fires from the square the wind moves the worm to (§5, §8).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import RuleViolation
from games.worms.board import (
    Direction,
    Square,
    SquareError,
    away,
    name,
    on_board,
    parse_square,
    step,
)
from games.worms.items import ITEMS
from games.worms.state import Worm, WormsState


@dataclass(frozen=True)
class Landing:
    """Where the shot ends: ``square`` (None: it flew over, out of the window below),
    whether it hit a wall on the way, and the direction it travelled (None: none)."""

    square: Square | None
    wall: bool
    direction: Direction | None


def distance(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def parse_direction(text: str) -> Direction | None:
    try:
        return Direction(text.strip().upper())
    except ValueError:
        return None


def target_square(text: str, title: str) -> Square:
    try:
        return parse_square(text)
    except SquareError as exc:
        raise RuleViolation("§5", f"Aim the {title} at a square: {exc}") from None


def origin(state: WormsState, worm: Worm, weapon: str) -> Square:
    """§8: "imagine your worm is standing ... in the square indicated by the strength and
    direction of the wind" (bazooka only)."""
    wind = state.wind
    if weapon == "bazooka" and not wind.calm and wind.direction is not None:
        return step(worm.square, wind.direction, wind.strength)
    return worm.square


def check_reach(state: WormsState, worm: Worm, weapon: str, target: Square) -> Square:
    """Refuse (§5) a target out of range or off the line; returns the firing origin."""
    spec = ITEMS[weapon]
    start = origin(state, worm, weapon)
    if spec.straight_only and target[0] != worm.square[0] and target[1] != worm.square[1]:
        raise RuleViolation(
            "§5", f"The {spec.title} fires in a straight line only, along a row or column, "
            f"not diagonally to {name(target)}."
        )
    if target == worm.square and spec.straight_only:
        raise RuleViolation("§5", f"Aim the {spec.title} at another square than your worm's.")
    if spec.reach is not None and distance(start, target) > spec.reach:
        wind = " from where the wind puts it" if start != worm.square else ""
        raise RuleViolation(
            "§5", f"{name(target)} is {distance(start, target)} squares away{wind} (a diagonal step "
            f"counts 2); the {spec.title} reaches {spec.reach}."
        )
    return start


def line(start: Square, target: Square) -> list[Square]:
    """The squares a shot crosses after ``start``, ending with ``target``."""
    out: list[Square] = []
    x, y = start
    while (x, y) != target:
        x += (target[0] > x) - (target[0] < x)
        y += (target[1] > y) - (target[1] < y)
        out.append((x, y))
    return out


def land_shot(state: WormsState, worm: Worm, weapon: str, target: Square) -> Landing:
    """Where a shot aimed at ``target`` lands, given the HGT window (§5)."""
    spec = ITEMS[weapon]
    start = origin(state, worm, weapon)
    base = state.height(worm.square)
    top = None if spec.height_up is None else base + spec.height_up
    bottom = None if spec.height_down is None else base - spec.height_down
    direction = away(start, target)
    previous = start
    for square in line(start, target):
        if on_board(square) and top is not None and state.height(square) > top:
            if not on_board(previous):
                return Landing(None, True, direction)
            return Landing(previous, True, direction)
        previous = square
    if bottom is not None and state.height(target) < bottom:
        return Landing(None, False, direction)
    return Landing(target, False, direction)


def straight_direction(worm: Worm, text: str, title: str) -> Direction:
    """Walking weapons (sheep, mad cow, old woman, kamikaze) set off N, E, S or W."""
    direction = parse_direction(text)
    if direction is None:
        try:
            square = parse_square(text)
        except SquareError:
            raise RuleViolation("§5", f"Send the {title} N, E, S or W.") from None
        direction = away(worm.square, square)
        if direction is None or not direction.orthogonal:
            raise RuleViolation("§5", f"The {title} goes in a straight line only, N, E, S or W.")
    if not direction.orthogonal:
        raise RuleViolation("§5", f"The {title} goes in a straight line only, N, E, S or W, not {direction}.")
    return direction
