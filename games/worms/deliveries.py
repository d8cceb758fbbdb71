"""The weapons delivered the same way share one handler each (§5; ``Delivery`` in
``games.worms.items``): aimed bullets, thrown blasts, strikes from the air and weapons
placed next to the worm. Each reads the weapon's blast from its entry."""

from __future__ import annotations

from collections.abc import Callable

from games.base import RuleViolation
from games.worms import events as ev
from games.worms.aim import check_reach, land_shot, parse_direction, target_square
from games.worms.blast import mine_explodes, shot_blast
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
from games.worms.items import ITEMS, Delivery, blast_of
from games.worms.outcome import Outcome
from games.worms.state import Mine, MineType, Worm

Handler = Callable[[Outcome, Worm, Fire], None]


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


def landing(out: Outcome, worm: Worm, command: Fire) -> tuple[Square, Direction | None, bool] | None:
    """Check the aim (refusing what §5 forbids) and work out the landing: the square,
    the shot's direction, and whether it hit a wall; None if it flew out of reach."""
    title = ITEMS[command.weapon].title
    target = target_square(command.target, title)
    check_reach(out.state, worm, command.weapon, target)
    landed = land_shot(out.state, worm, command.weapon, target)
    if landed.square is None:
        return None
    direction = landed.direction
    if direction is None and command.weapon == "bazooka" and not out.state.wind.calm:
        direction = out.state.wind.direction
    return landed.square, direction, landed.wall


def aimed(out: Outcome, worm: Worm, command: Fire) -> None:
    """Handgun, shotgun, longbow, minigun: a bullet hits its target square only; in a wall
    it is lost (ruling W-R27)."""
    landed = landing(out, worm, command)
    if landed is not None and not landed[2]:
        shot_blast(out, landed[0], blast_of(command.weapon), landed[1])


def thrown(out: Outcome, worm: Worm, command: Fire) -> None:
    """Bazooka, grenade, gas grenade, holy hand-grenade: blasts where it lands, also
    against a wall (on the square before it)."""
    landed = landing(out, worm, command)
    if landed is not None:
        shot_blast(out, landed[0], blast_of(command.weapon), landed[1])


def from_the_air(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG ALL, HGT ALL: homing missile and super sheep on any square, the air strike's 5
    missiles one after another in the order named; each push is random."""
    if ITEMS[command.weapon].squares > 1:
        squares = air_strike_squares(command.target)
    else:
        squares = [target_square(command.target, ITEMS[command.weapon].title)]
    for square in squares:
        shot_blast(out, square, blast_of(command.weapon), None)


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


def placed(out: Outcome, worm: Worm, command: Fire) -> None:
    """Mine and dynamite: set down next to the worm, never thrown up (§5 HGT +0/-ALL)."""
    if command.weapon == "mine":
        place_mine(out, worm, command)
    else:
        dynamite(out, worm, command)


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


def dynamite(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 1 (or the worm's own square), HGT +0/-ALL; the fuse burns while the worm retreats
    (2 extra squares) and it explodes when the turn ends (ruling W-R9)."""
    square = worm.square
    if command.target:
        square = adjacent_target(worm, command.target, "dynamite", own_square=True)
    if out.state.height(square) > out.state.height(worm.square):
        raise RuleViolation("§5", f"{name(square)} is higher than your worm; dynamite is dropped, not thrown up.")
    out.emit(ev.DynamitePlaced(square[0], square[1]))


BY_DELIVERY: dict[Delivery, Handler] = {
    Delivery.AIMED: aimed,
    Delivery.THROWN: thrown,
    Delivery.AIR: from_the_air,
    Delivery.PLACED: placed,
}
