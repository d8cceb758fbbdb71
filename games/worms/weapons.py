"""Firing (§5, §7): one weapon per team turn (the multi-shot weapons aside), from the
team's inventory. A weapon is resolved by the handler of its delivery
(``games.worms.deliveries``), its walk (``games.worms.walkers``) or its own handler
(``games.worms.weapons_special``, registered by name in ``games.worms.arsenal``)."""

from __future__ import annotations

from games.base import RuleViolation
from games.worms import events as ev
from games.worms.arsenal import Handler
from games.worms.commands import Fire
from games.worms.deliveries import BY_DELIVERY
from games.worms.invisibility import UNSEEN, hidden_owner, reveal
from games.worms.items import ITEMS, Category, Delivery
from games.worms.outcome import Outcome
from games.worms.state import Stock, WormProgress
from games.worms.turn import MOVES_PER_WORM, acting_seat, check_may_act, own_worm
from games.worms.walkers import WALKERS
from games.worms.weapons_special import SPECIAL


def handler_of(weapon: str) -> Handler | None:
    """What resolves a shot of ``weapon`` (None: not a weapon this referee knows)."""
    spec = ITEMS.get(weapon)
    if spec is None or spec.delivery is None:
        return None
    if spec.delivery is Delivery.WALKER:
        return WALKERS.get(weapon)
    if spec.delivery is Delivery.SPECIAL:
        return SPECIAL.get(weapon)
    return BY_DELIVERY.get(spec.delivery)


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
        if progress.weapon == command.weapon and progress.shots_left > 0:
            raise RuleViolation(
                "§7", f"Only {progress.shooter}, who fired the {spec.title}, may fire it again this turn."
            )
        raise RuleViolation(
            "§7", f"Your team has already fired the {ITEMS[progress.weapon].title} this turn; "
            "one weapon per turn."
        )
    held = state.stock(seat, command.weapon)
    if held == 0 and not (follow_up and command.weapon != "mad_cow"):
        raise RuleViolation("§5", f"Your team has no {spec.title} left.")
    if out.state.progress.fuse is not None and command.weapon == "dynamite":
        raise RuleViolation("§5", "A dynamite is already burning.")
    handler = handler_of(command.weapon)
    if handler is None:  # pragma: no cover - every weapon of §5 has a handler
        raise RuleViolation("§5", f"The {spec.title} cannot be fired with this referee yet.")
    mine = progress.of(worm.id) or WormProgress(worm.id, 0, MOVES_PER_WORM)
    target = command.target
    if command.weapon != "prod":
        # §11 "If a worm that is invisible uses a weapon, then he will become visible again.
        # The only exception to this is the prod."
        revealed = reveal(out.state, worm.id, "fired")
        if revealed is not None:
            out.emit(revealed)
    elif hidden_owner(out.state, worm.id) is not None:
        target = UNSEEN  # W-R41: a square or direction next to the worm would place it
    retreat = spec.retreat * (2 if mine.fast else 1)  # §5 FAST WALK doubles the retreat
    shots_left = (progress.shots_left - 1) if follow_up else spec.shots - 1
    spent = 0 if spec.free or (follow_up and command.weapon != "mad_cow") else 1
    double = not progress.double and state.stock(seat, "double_damage") != 0
    out.emit(
        ev.WeaponFired(
            worm.id, command.weapon, target, spent, shots_left, mine.allowance + retreat,
            double,
        )
    )
    if double:
        out.emit(ev.ItemsLost(seat, (Stock("double_damage", 1),), "double damage used"))
    out.power = 2 if out.state.progress.double else 1
    try:
        handler(out, worm, command)
    finally:
        out.power = 1
