"""§8 movement through the air: fall damage, the path of a push, bouncing off walls,
landing on a free square and a parachute's drift. Nothing here sets anything off: what
happens where a worm or mine comes down (water, mines, crates) is ``games.worms.blast``'s.

A worm is thrown from the height of its square after the blast's land damage (W-R21) and
bounces off walls by reflection (W-R31).
"""

from __future__ import annotations

from games.worms import events as ev
from games.worms.board import ALL_DIRECTIONS, Direction, Square, on_board, step
from games.worms.outcome import Outcome

FALL_SAFE = 2
FALL_DAMAGE_PER_LEVEL = 10


def fall_damage(drop: int) -> int:
    """§8: 10 per level fallen beyond 2."""
    return max(0, drop - FALL_SAFE) * FALL_DAMAGE_PER_LEVEL


def drift(out: Outcome, worm_id: str, air_height: int) -> None:
    """§5 PARACHUTE, §8: carried by the wind as many squares as its strength, not counted as
    movement; stopped (dropped where it is) by higher land, the edge, a worm or a drum."""
    wind = out.state.wind
    if wind.direction is None or wind.strength == 0:
        return
    worm = out.state.worm(worm_id)
    assert worm is not None
    square = worm.square
    for _ in range(wind.strength):
        nxt = step(square, wind.direction)
        if not on_board(nxt) or out.state.height(nxt) > air_height or out.state.blocked(nxt):
            break
        square = nxt
    if square != worm.square:
        out.emit(ev.WormMoved(worm_id, square[0], square[1], cost=0, cause="parachute"))


def push_path(start: Square, direction: Direction, distance: int) -> list[Direction]:
    """§8: a diagonal push alternates horizontal then vertical steps (odd: one more
    horizontal); a straight push is ``distance`` steps."""
    if direction.orthogonal:
        return [direction] * distance
    horizontal = Direction.E if "E" in direction.value else Direction.W
    vertical = Direction.N if "N" in direction.value else Direction.S
    return [horizontal if i % 2 == 0 else vertical for i in range(distance)]


def fly(
    out: Outcome, start: Square, direction: Direction, distance: int, air: int, *, downhill_only: bool = False
) -> Square:
    """§8: step along the push path; a square higher than ``air`` (or the board's edge,
    an infinitely high wall) reflects the step: the component that hit the wall turns
    back, the other goes on, and the step is still taken (ruling W-R31). Boxed in on both
    sides, the step is spent where it is. ``downhill_only`` (longbow, minigun): the push
    stops before the first step uphill."""
    state = out.state
    square = start
    flip_x = flip_y = 1
    for d in push_path(start, direction, distance):
        dx, dy = d.delta[0] * flip_x, d.delta[1] * flip_y
        nxt = (square[0] + dx, square[1] + dy)
        if downhill_only and on_board(nxt) and state.height(nxt) > state.height(square):
            break
        if not on_board(nxt) or state.height(nxt) > air:
            if dx:
                flip_x = -flip_x
            else:
                flip_y = -flip_y
            nxt = (square[0] - dx, square[1] - dy)
            if not on_board(nxt) or state.height(nxt) > air:
                continue
            if downhill_only and state.height(nxt) > state.height(square):
                break
        square = nxt
    return square


def free_landing(out: Outcome, square: Square, start: Square, air: int, *, mine: bool) -> Square:
    """§8: landing on a worm or drum (or a mine on a card) moves it one square in a random
    direction until it is free."""

    def taken(s: Square) -> bool:
        if s == start:
            return False
        if mine:
            return out.state.blocked(s) or out.state.card_at(s) is not None or (
                out.state.mine_at(s) is not None
            )
        return out.state.blocked(s)

    tries = 0
    while taken(square) and tries < 16:
        tries += 1
        direction = ALL_DIRECTIONS[out.dice.roll("landing on an occupied square: direction", 0, 7)]
        nxt = step(square, direction)
        if on_board(nxt) and out.state.height(nxt) <= air:
            square = nxt
    return start if taken(square) else square


def thrown_to(
    out: Outcome, start: Square, direction: Direction, distance: int, thrown: int, *,
    mine: bool = False, downhill_only: bool = False,
) -> Square:
    """§8: where a worm, mine or drum on ``start``, thrown ``thrown`` high and pushed
    ``distance`` squares, comes down (bounces and occupied squares included)."""
    air = out.state.height(start) + thrown
    square = fly(out, start, direction, distance, air, downhill_only=downhill_only)
    return free_landing(out, square, start, air, mine=mine)
