"""Firing (§5, §7): one weapon per team turn (the multi-shot weapons aside), from the
team's inventory. Each weapon is a handler registered by name; the arsenal issue adds the
rest. Implemented so far: prod, mine (placing), dynamite."""

from __future__ import annotations

from collections.abc import Callable

from games.base import RuleViolation
from games.worms import events as ev
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
from games.worms.explosions import mine_explodes
from games.worms.items import ITEMS, Category
from games.worms.outcome import Outcome
from games.worms.physics import push_drum, push_mine, push_worm
from games.worms.state import Mine, MineType, Worm, WormProgress
from games.worms.turn import MOVES_PER_WORM, acting_seat, check_may_act, own_worm

Handler = Callable[[Outcome, Worm, Fire], None]
HANDLERS: dict[str, Handler] = {}


def weapon(name_: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        HANDLERS[name_] = handler
        return handler

    return register


def fire(out: Outcome, command: Fire) -> None:
    state = out.state
    seat = acting_seat(state, command.actor)
    worm = own_worm(state, seat, command.worm)
    check_may_act(state, worm)
    spec = ITEMS.get(command.weapon)
    if spec is None or spec.category is Category.UTILITY:
        raise RuleViolation("§5", f"{command.weapon!r} is not a weapon.")
    progress = state.progress
    follow_up = (
        progress.weapon == command.weapon and progress.shots_left > 0 and progress.shooter == worm.id
    )
    if progress.weapon is not None and not follow_up:
        raise RuleViolation(
            "§7", f"Your team has already fired the {ITEMS[progress.weapon].title} this turn; "
            "one weapon per turn."
        )
    held = state.stock(seat, command.weapon)
    if held == 0:
        raise RuleViolation("§5", f"Your team has no {spec.title} left.")
    if out.state.progress.fuse is not None and command.weapon == "dynamite":
        raise RuleViolation("§5", "A dynamite is already burning.")
    handler = HANDLERS.get(command.weapon)
    if handler is None:
        raise RuleViolation("§5", f"The {spec.title} cannot be fired with this referee yet.")
    mine = progress.of(worm.id) or WormProgress(worm.id, 0, MOVES_PER_WORM)
    shots_left = (progress.shots_left - 1) if follow_up else spec.shots - 1
    spent = 0 if spec.free or (follow_up and command.weapon != "mad_cow") else 1
    out.emit(
        ev.WeaponFired(
            worm.id, command.weapon, command.target, spent, shots_left, mine.allowance + spec.retreat
        )
    )
    handler(out, worm, command)


def _direction(text: str) -> Direction | None:
    try:
        return Direction(text.strip().upper())
    except ValueError:
        return None


def adjacent_target(worm: Worm, target: str, weapon_title: str, *, own_square: bool) -> Square:
    """A square next to the worm (N, E, S or W), given as a direction or a square name."""
    direction = _direction(target)
    if direction is not None:
        if not direction.orthogonal:
            raise RuleViolation("§5", f"The {weapon_title} reaches 1 square N, E, S or W, not {direction}.")
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


@weapon("prod")
def prod(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 1, HGT +0/-1, push 1 in the direction of the shot, knocks 1 into the air; moves
    oil drums without blowing them up; sets mines off where they land."""
    square = adjacent_target(worm, command.target, "prod", own_square=False)
    direction = next(d for d in ORTHOGONAL if step(worm.square, d) == square)
    diff = out.state.height(square) - out.state.height(worm.square)
    if not -1 <= diff <= 0:
        return  # hits the wall above, or swings over the land below: nothing happens
    target = out.state.worm_at(square)
    if target is not None:
        push_worm(out, target.id, direction, 1, 1)
    elif out.state.drum_at(square) is not None:
        push_drum(out, square, direction, 1, 1)
    elif out.state.mine_at(square) is not None:
        push_mine(out, square, direction, 1, 1, detonate=True)


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
        mine_explodes(out, square, out.state.mine_at(square))
    elif out.state.crate_at(square) is not None:
        out.emit(ev.CrateBoobyTrapped(square[0], square[1]))


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
