"""§8 as far as this issue needs it: arriving on a square (falls, parachutes, water,
mines, crates), pushes, and the wind drift of a parachute.

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


def arrive(out: Outcome, worm_id: str, from_height: int, *, walking: bool) -> None:
    """The worm is now on its square, coming from ``from_height`` (its land, or the land
    plus how high it was thrown). Applies parachute, water, fall, mine, crate, card: a
    worm that comes down in water drowns and takes no fall damage.
    Ends the turn (``out.turn_over``) when the rules say a walker's turn ends."""
    from games.worms.crates import collect
    from games.worms.explosions import mine_explodes, resolve_deaths

    worm = out.state.worm(worm_id)
    if worm is None:
        return
    drop = from_height - out.state.height(worm.square)
    if drop > FALL_SAFE:
        if out.state.stock(worm.seat, "parachute") != 0:
            out.emit(ev.ParachuteOpened(worm.id, worm.seat))
            drift(out, worm_id, from_height)
        elif not out.state.is_water(worm.square):
            # §7/§9 "A worm will die if it is knocked into water"; "Drowning worms will not
            # remove weapons or create a donor card": no fall damage into water (W-R54)
            damage = fall_damage(drop)
            out.emit(ev.WormDamaged(worm.id, damage, worm.health - damage, "fall"))
            if walking:
                out.end_turn("fall")
            if worm.health - damage <= 0:
                resolve_deaths(out)
                return
    worm = out.state.worm(worm_id)
    if worm is None:
        return
    if out.state.is_water(worm.square):
        out.emit(ev.WormDied(worm.id, "drowned"))
        if walking:
            out.end_turn("drowned")
        return
    if out.state.mine_at(worm.square) is not None:
        mine_explodes(out, worm.square, out.state.mine_at(worm.square))
        if walking:
            out.end_turn("mine")
        return
    if collect(out, worm) and walking:
        out.end_turn("booby-trapped crate")


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


def _fly(
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


def push_worm(
    out: Outcome, worm_id: str, direction: Direction, distance: int, thrown: int, *, downhill_only: bool = False
) -> None:
    worm = out.state.worm(worm_id)
    if worm is None:
        return
    air = out.state.height(worm.square) + thrown
    square = _fly(out, worm.square, direction, distance, air, downhill_only=downhill_only)
    square = free_landing(out, square, worm.square, air, mine=False)
    if square != worm.square:
        out.emit(ev.WormMoved(worm_id, square[0], square[1], cost=0, cause="push"))
    arrive(out, worm_id, air, walking=False)


def push_mine(
    out: Outcome, square: Square, direction: Direction, distance: int, thrown: int, *, detonate: bool
) -> None:
    """§9: a mine is knocked like a worm; only a prod or kamikaze sets it off (on landing)."""
    from games.worms.crates import mine_onto_crate
    from games.worms.explosions import mine_explodes

    mine = out.state.mine_at(square)
    if mine is None:
        return
    air = out.state.height(square) + thrown
    target = _fly(out, square, direction, distance, air)
    target = free_landing(out, target, square, air, mine=True)
    if target != square:
        out.emit(ev.MineMoved(square[0], square[1], target[0], target[1]))
    if out.state.is_water(target):
        out.emit(ev.ObjectSank(target[0], target[1], "mine"))
        return
    if detonate or out.state.worm_at(target) is not None:
        mine_explodes(out, target, out.state.mine_at(target))
        return
    mine_onto_crate(out, target)


def push_drum(out: Outcome, square: Square, direction: Direction, distance: int, thrown: int) -> None:
    air = out.state.height(square) + thrown
    target = _fly(out, square, direction, distance, air)
    target = free_landing(out, target, square, air, mine=False)
    if target != square:
        out.emit(ev.DrumMoved(square[0], square[1], target[0], target[1]))
    if out.state.is_water(target):
        out.emit(ev.ObjectSank(target[0], target[1], "drum"))
