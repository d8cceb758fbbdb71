"""Standard weapons of §5 (every team may buy them): prod, handgun, bazooka, grenade,
shotgun, longbow, fire punch, mine, dynamite, air strike, homing missile, gas grenade.
The walking ones (kamikaze, sheep) are in ``weapons_walkers``."""

from __future__ import annotations

from games.base import RuleViolation
from games.worms import events as ev
from games.worms.aim import check_reach, land_shot, parse_direction, target_square
from games.worms.arsenal import weapon
from games.worms.blast import shot_blast
from games.worms.board import (
    ORTHOGONAL,
    Direction,
    Square,
    SquareError,
    name,
    on_board,
    parse_square,
    step,
)
from games.worms.commands import Fire
from games.worms.crates import mine_onto_crate
from games.worms.explosions import Blast, Ring, mine_explodes
from games.worms.items import ITEMS
from games.worms.outcome import Outcome
from games.worms.physics import push_drum, push_mine, push_worm
from games.worms.state import Mine, MineType, Worm

BAZOOKA = Blast("bazooka", (40, 50), center_land=1, center_push=1, center_throw=1)
GRENADE = Blast("grenade", (40, 50), center_land=1, center_push=1, center_throw=1)
HANDGUN = Blast("handgun", (20, 20))
SHOTGUN = Blast("shotgun", (25, 25))
#: LND 0: a longbow arrow throws nobody into the air; it pushes downhill or across only
LONGBOW = Blast("longbow", (15, 15), center_push=2, downhill_only=True)
FIRE_PUNCH = Blast("fire punch", (30, 30), center_push=3, center_throw=3)
AIR_STRIKE = Blast("air strike", (35, 35), center_land=1, center_push=1, center_throw=1)
HOMING_MISSILE = Blast("homing missile", (40, 50), center_land=1, center_push=1, center_throw=1)
GAS_GRENADE = Blast("gas grenade", center_poison=1, rings=(Ring(1, poison=1, below=1, above=4),))


def adjacent_target(worm: Worm, target: str, weapon_title: str, *, own_square: bool) -> Square:
    """A square next to the worm (N, E, S or W: a diagonal is 2 away), given as a direction
    or a square name."""
    direction = parse_direction(target)
    if direction is not None:
        if not direction.orthogonal:
            raise RuleViolation(
                "§5", f"The {weapon_title} reaches 1 square N, E, S or W, not {direction} "
                "(a diagonal step counts 2)."
            )
        square = step(worm.square, direction)
    else:
        try:
            square = parse_square(target)
        except SquareError as exc:
            raise RuleViolation("§5", f"Aim the {weapon_title} with N, E, S, W or a square: {exc}") from None
    allowed = {step(worm.square, d) for d in ORTHOGONAL}
    if own_square:
        allowed.add(worm.square)
    if square not in allowed or not on_board(square):
        raise RuleViolation(
            "§5", f"{name(square) if on_board(square) else target} is out of the {weapon_title}'s range of 1."
        )
    return square


def aimed(out: Outcome, worm: Worm, command: Fire) -> tuple[Square, Direction | None, bool] | None:
    """Check the aim (refusing what §5 forbids) and work out the landing: the square,
    the shot's direction, and whether it hit a wall; None if it flew out of reach."""
    title = ITEMS[command.weapon].title
    target = target_square(command.target, title)
    check_reach(out.state, worm, command.weapon, target)
    landing = land_shot(out.state, worm, command.weapon, target)
    if landing.square is None:
        return None
    direction = landing.direction
    if direction is None and command.weapon == "bazooka" and not out.state.wind.calm:
        direction = out.state.wind.direction
    return landing.square, direction, landing.wall


def thrown(out: Outcome, worm: Worm, command: Fire, spec: Blast) -> None:
    """Bazooka, grenade, gas grenade, holy hand-grenade...: blasts where it lands, also
    against a wall (on the square before it)."""
    landing = aimed(out, worm, command)
    if landing is not None:
        shot_blast(out, landing[0], spec, landing[1])


def gun(out: Outcome, worm: Worm, command: Fire, spec: Blast) -> None:
    """Handgun, shotgun, longbow, minigun: a bullet hits its target square only; in a wall
    it is lost (ruling W-R27)."""
    landing = aimed(out, worm, command)
    if landing is not None and not landing[2]:
        shot_blast(out, landing[0], spec, landing[1])


@weapon("prod")
def prod(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 1, HGT +0/-1, push 1 in the direction of the shot, knocks 1 into the air; moves
    oil drums without blowing them up; sets mines off where they land."""
    square = adjacent_target(worm, command.target, "prod", own_square=False)
    direction = next(d for d in ORTHOGONAL if step(worm.square, d) == square)
    diff = out.state.height(square) - out.state.height(worm.square)
    if not -1 <= diff <= 0:
        return  # hits the wall above, or swings over the land below: nothing happens
    power = out.power
    target = out.state.worm_at(square)
    if target is not None:
        push_worm(out, target.id, direction, power, power)
    elif out.state.drum_at(square) is not None:
        push_drum(out, square, direction, power, power)
    elif out.state.mine_at(square) is not None:
        push_mine(out, square, direction, power, power, detonate=True)


@weapon("handgun")
def handgun(out: Outcome, worm: Worm, command: Fire) -> None:
    gun(out, worm, command, HANDGUN)


@weapon("shotgun")
def shotgun(out: Outcome, worm: Worm, command: Fire) -> None:
    gun(out, worm, command, SHOTGUN)


@weapon("longbow")
def longbow(out: Outcome, worm: Worm, command: Fire) -> None:
    gun(out, worm, command, LONGBOW)


@weapon("bazooka")
def bazooka(out: Outcome, worm: Worm, command: Fire) -> None:
    thrown(out, worm, command, BAZOOKA)


@weapon("grenade")
def grenade(out: Outcome, worm: Worm, command: Fire) -> None:
    thrown(out, worm, command, GRENADE)


@weapon("gas_grenade")
def gas_grenade(out: Outcome, worm: Worm, command: Fire) -> None:
    thrown(out, worm, command, GAS_GRENADE)


@weapon("homing_missile")
def homing_missile(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG ALL, HGT ALL: any square; the push is random."""
    square = target_square(command.target, "Homing Missile")
    shot_blast(out, square, HOMING_MISSILE, None)


@weapon("fire_punch")
def fire_punch(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 1, HGT +5/-0: the square next to the worm, up to 5 higher, not lower; 30 damage,
    pushed 3 in the direction of the punch and knocked 3 into the air."""
    square = adjacent_target(worm, command.target, "fire punch", own_square=False)
    direction = next(d for d in ORTHOGONAL if step(worm.square, d) == square)
    diff = out.state.height(square) - out.state.height(worm.square)
    if 0 <= diff <= 5:
        shot_blast(out, square, FIRE_PUNCH, direction)


def air_strike_squares(text: str) -> list[Square]:
    """``c5-g5`` (or ``c5,d5,e5,f5,g5``): 5 adjacent squares in a straight line, along a
    row, a column or a diagonal (ruling W-R32)."""
    parts = text.replace(",", "-").split("-")
    try:
        ends = [parse_square(p) for p in parts if p.strip()]
    except SquareError as exc:
        raise RuleViolation("§5", f"Name the air strike's squares like c5-g5: {exc}") from None
    if len(ends) == 2:
        (x0, y0), (x1, y1) = ends
        dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
        squares = [(x0 + dx * k, y0 + dy * k) for k in range(5)]
        if squares[-1] != ends[1]:
            raise RuleViolation(
                "§5", "The air strike's 5 squares must be next to each other in a straight line "
                f"({name(ends[0])} to {name(ends[1])} is not 5 squares in a row)."
            )
        return squares
    if len(ends) != 5:
        raise RuleViolation("§5", "The air strike drops exactly 5 missiles: name 5 squares in a row.")
    dx, dy = ends[1][0] - ends[0][0], ends[1][1] - ends[0][1]
    if max(abs(dx), abs(dy)) != 1 or any(
        (b[0] - a[0], b[1] - a[1]) != (dx, dy) for a, b in zip(ends, ends[1:], strict=False)
    ):
        raise RuleViolation("§5", "The air strike's 5 squares must be next to each other in a straight line.")
    return ends


@weapon("air_strike")
def air_strike(out: Outcome, worm: Worm, command: Fire) -> None:
    """5 missiles, one after another in the order named: 35 each, LND 1, push 1 random."""
    for square in air_strike_squares(command.target):
        shot_blast(out, square, AIR_STRIKE, None)


@weapon("mine")
def place_mine(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 1, HGT +0/-ALL; the player chooses the type (v2.1); on a worm it goes off at
    once, on a crate it booby-traps it (§9); a card's square cannot take a mine."""
    square = adjacent_target(worm, command.target, "mine", own_square=False)
    try:
        kind = MineType(command.mine_type.strip().lower()[:1] or "d")
    except ValueError:
        raise RuleViolation("§5", "A mine is a damage (d), shockwave (s) or poison (p) mine.") from None
    if out.state.height(square) > out.state.height(worm.square):
        raise RuleViolation("§5", f"{name(square)} is higher than your worm; a mine is dropped, not thrown up.")
    if out.state.is_water(square):
        raise RuleViolation("§5", f"{name(square)} is water; the mine would sink.")
    if out.state.mine_at(square) or out.state.drum_at(square) or out.state.card_at(square):
        raise RuleViolation("§9", f"{name(square)} already holds a mine, an oil drum or a donor card.")
    out.emit(ev.MinePlaced(Mine(square[0], square[1], kind)))
    if out.state.worm_at(square) is not None:
        mine_explodes(out, square, out.state.mine_at(square), power=out.power)
    else:
        mine_onto_crate(out, square)


@weapon("dynamite")
def dynamite(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 1 (or the worm's own square), HGT +0/-ALL; the fuse burns while the worm retreats
    (2 extra squares) and it explodes when the turn ends (ruling W-R9)."""
    square = worm.square
    if command.target:
        square = adjacent_target(worm, command.target, "dynamite", own_square=True)
    if out.state.height(square) > out.state.height(worm.square):
        raise RuleViolation("§5", f"{name(square)} is higher than your worm; dynamite is dropped, not thrown up.")
    out.emit(ev.DynamitePlaced(square[0], square[1]))
