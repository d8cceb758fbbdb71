"""§5 utilities.

Collectable (used by an order, ``UseUtility``): ninja rope and fast walk (for the worm's
moves this turn, ``games.worms.movement``), teleport (any square without a worm or oil
drum; ends the turn), bubble trouble (``games.worms.blast`` keeps the square out of most
blasts), invisibility (``games.worms.invisibility``).

Instant effect (never ordered): parachute (``games.worms.physics.arrive``), double damage
(``games.worms.weapons``), crate spy and crate shower (on collection, ``games.worms.crates``).
"""

from __future__ import annotations

from games.base import RuleViolation
from games.worms import events as ev
from games.worms.blast import arrive
from games.worms.board import SquareError, name, parse_square
from games.worms.commands import UseUtility
from games.worms.items import ITEMS, Category
from games.worms.movement import hidden_worm_at, known_worm_at
from games.worms.outcome import Outcome
from games.worms.physics import free_landing
from games.worms.state import Worm, WormProgress
from games.worms.turn import MOVES_PER_WORM, acting_seat, check_may_act, own_worm

COLLECTABLE = ("ninja_rope", "fast_walk", "teleport", "bubble_trouble", "invisibility")
INSTANT = ("parachute", "double_damage", "crate_spy", "crate_shower")
#: §5 "it will dissapear after 3 rounds"; INVISIBILITY "3 rounds to be precise"
ROUNDS = 3


def use(out: Outcome, command: UseUtility) -> None:
    state = out.state
    seat = acting_seat(state, command.actor)
    worm = own_worm(state, seat, command.worm)
    spec = ITEMS.get(command.utility)
    if spec is None or spec.category is not Category.UTILITY:
        raise RuleViolation("§5", f"{command.utility!r} is not a utility.")
    if command.utility in INSTANT:
        raise RuleViolation(
            "§5", f"The {spec.title} is an instant-effect utility: it works by itself and is not used by an order."
        )
    check_may_act(state, worm)
    progress = state.progress
    if progress.weapon is not None and progress.shooter != worm.id:
        raise RuleViolation(
            "§7", f"After firing only {progress.shooter}, who fired, may act on; {worm.id} cannot."
        )
    if state.stock(seat, command.utility) == 0:
        raise RuleViolation("§5", f"Your team has no {spec.title} left.")
    mine = progress.of(worm.id) or WormProgress(worm.id, 0, MOVES_PER_WORM)
    HANDLERS[command.utility](out, worm, mine, command)


def _rope(out: Outcome, worm: Worm, mine: WormProgress, command: UseUtility) -> None:
    if mine.rope:
        raise RuleViolation("§5", f"{worm.id} is already on a ninja rope this turn.")
    out.emit(ev.UtilityUsed(worm.id, worm.seat, "ninja_rope"))


def _fast_walk(out: Outcome, worm: Worm, mine: WormProgress, command: UseUtility) -> None:
    if mine.fast:
        raise RuleViolation("§5", f"{worm.id} is already fast walking this turn.")
    out.emit(ev.UtilityUsed(worm.id, worm.seat, "fast_walk"))


def _teleport(out: Outcome, worm: Worm, mine: WormProgress, command: UseUtility) -> None:
    """§5 TELEPORT "onto any unoccupied grid square ... using it will end your turn".
    Unoccupied: no worm the team knows of and no oil drum (§8: what occupies a square);
    water drowns, a mine goes off, a crate is collected. A square holding an invisible
    worm of another team: the worm lands as on an occupied square (§8), one random square
    at a time, and its team is told where the invisible worm is (ruling W-R42)."""
    try:
        target = parse_square(command.target)
    except SquareError as exc:
        raise RuleViolation("§5", f"Teleport where? {exc}") from None
    other = known_worm_at(out.state, target, worm.seat)
    if other is not None:
        raise RuleViolation("§5", f"{name(target)} is taken by worm {other.id}; a teleport needs an unoccupied square.")
    if out.state.drum_at(target) is not None:
        raise RuleViolation("§5", f"{name(target)} has an oil drum; a teleport needs an unoccupied square.")
    hidden = not worm.visible
    out.emit(ev.UtilityUsed(worm.id, worm.seat, "teleport"))
    found = hidden_worm_at(out.state, target, worm.seat)
    landing = target
    if found is not None:
        out.emit(ev.InvisibleWormMet(worm.seat, worm.id, found.id, found.x, found.y, 0))
        landing = free_landing(out, target, worm.square, 10, mine=False)
    out.emit(ev.Teleported(worm.id, worm.seat, landing[0], landing[1], hidden))
    arrive(out, worm.id, out.state.height(landing), walking=True)
    out.end_turn("teleport")


def _bubble(out: Outcome, worm: Worm, mine: WormProgress, command: UseUtility) -> None:
    if out.state.bubble_at(worm.square) is not None:
        raise RuleViolation("§5", f"{worm.id} is already inside a bubble.")
    out.emit(ev.UtilityUsed(worm.id, worm.seat, "bubble_trouble"))
    out.emit(ev.BubbleCreated(worm.x, worm.y, worm.seat, ROUNDS))


def _invisibility(out: Outcome, worm: Worm, mine: WormProgress, command: UseUtility) -> None:
    if not worm.visible:
        raise RuleViolation("§5", f"{worm.id} is already invisible.")
    out.emit(ev.UtilityUsed(worm.id, worm.seat, "invisibility"))
    out.emit(ev.WormVanished(worm.id, worm.seat, ROUNDS))


HANDLERS = {
    "ninja_rope": _rope,
    "fast_walk": _fast_walk,
    "teleport": _teleport,
    "bubble_trouble": _bubble,
    "invisibility": _invisibility,
}
