"""The players' actions (§3.2 conquest, §3.3 knots and supply, §5 headquarters, §7.1 talk)."""

from __future__ import annotations

from games.base import Event, RuleViolation
from games.wormlord import events as ev
from games.wormlord.board import Colour
from games.wormlord.checks import (
    acting_side,
    adjacent_to_own,
    board_square,
    placeable,
    round_running,
    seconds,
)
from games.wormlord.commands import Conquer, Liberate, LiftHeadquarters, PlaceHeadquarters, Say
from games.wormlord.evolve import apply
from games.wormlord.rounds import round_won
from games.wormlord.state import OBJECTIVES_TO_WIN, Knot, Side, WormlordState

MAX_SAY = 500


def conquer(state: WormlordState, command: Conquer) -> tuple[Event, ...]:
    side, seat = acting_side(state, command)
    round_running(state, command)
    placeable(state, command.square)
    knot = state.knot_at(command.square)
    if knot is not None:
        raise RuleViolation("§3.3", _taken(knot, side, command.at_ms, None))
    adjacent_to_own(state, side, command.square)
    _knot_in_hand(side, command.at_ms)
    placed = ev.KnotPlaced(
        command.square, side.colour, seat, command.at_ms, command.at_ms + state.timing.knot_interval_ms
    )
    return _with_victory(state, (placed,), side, command.at_ms)


def liberate(state: WormlordState, command: Liberate) -> tuple[Event, ...]:
    side, seat = acting_side(state, command)
    round_running(state, command)
    placeable(state, command.square)
    square = command.square
    if command.owner is side.colour:
        raise RuleViolation("§3.3", "You cannot untie your own knots on the board.")
    knot = state.knot_at(square)
    if knot is None:
        raise RuleViolation(
            "§3.2", f"There is no knot on {square} to liberate: it is empty (conquer it instead)."
        )
    if knot.colour is not command.owner:
        raise RuleViolation("§3.2", _taken(knot, side, command.at_ms, command.owner))
    if state.side(knot.colour).hq == square:
        raise RuleViolation(
            "§5", f"{square} holds {knot.colour}'s headquarters: it is indisputably theirs while it stays."
        )
    adjacent_to_own(state, side, square)
    _knot_in_hand(side, command.at_ms)
    timing = state.timing
    freed = ev.KnotLiberated(square, knot.colour, seat, side.colour)
    placed = ev.KnotPlaced(
        square, side.colour, seat, command.at_ms, command.at_ms + timing.knot_interval_ms + timing.untie_ms
    )
    return _with_victory(state, (freed, placed), side, command.at_ms)


def place_headquarters(state: WormlordState, command: PlaceHeadquarters) -> tuple[Event, ...]:
    side, seat = acting_side(state, command)
    round_running(state, command)
    square = board_square(command.square)
    terrain = state.terrain(square)
    if terrain == "*":
        raise RuleViolation("§5", f"{square} is an Objective space: a headquarters cannot go there.")
    if terrain.isdigit():
        raise RuleViolation("§5", f"{square} is a base: a headquarters cannot go there.")
    knot = state.knot_at(square)
    if knot is None or knot.colour is not side.colour:
        holds = "nothing" if knot is None else f"a {knot.colour} knot"
        raise RuleViolation(
            "§5", f"Your headquarters goes on a space holding your own knot; {square} holds {holds}."
        )
    if side.hq == square:
        raise RuleViolation("§5", f"Your headquarters is already on {square}.")
    return (ev.HeadquartersPlaced(side.colour, seat, square, side.hq),)


def lift_headquarters(state: WormlordState, command: LiftHeadquarters) -> tuple[Event, ...]:
    side, seat = acting_side(state, command)
    round_running(state, command)
    if side.hq is None:
        raise RuleViolation("§5", "Your headquarters is not on the board.")
    return (ev.HeadquartersLifted(side.colour, seat, side.hq),)


def say(state: WormlordState, command: Say) -> tuple[Event, ...]:
    side, seat = acting_side(state, command)
    if len(side.seats) < 2:
        raise RuleViolation("§7.1", "Only teammates talk through the referee, and you have no teammate.")
    text = command.text.strip()
    if not text or len(text) > MAX_SAY:
        raise RuleViolation("§7.1", f"Say something of 1 to {MAX_SAY} characters.")
    return (ev.TeamSpoke(side.colour, seat, text, side.seats),)


def _knot_in_hand(side: Side, at_ms: int) -> None:
    """§3.3: one string in hand at a time, knotted then placed at once; none in supply: wait."""
    if side.supply <= 0:
        raise RuleViolation(
            "§3.3", "Your supply is empty: wait until an opponent liberates one of your knots."
        )
    if at_ms < side.next_at_ms:
        raise RuleViolation(
            "§3.3",
            f"Your next knot is not tied yet: wait {seconds(side.next_at_ms - at_ms)} "
            f"(you can place again from {side.next_at_ms}).",
        )


def _taken(knot: Knot, side: Side, at_ms: int, named: Colour | None) -> str:
    """The space changed since the player saw it (ruling WL-R5): what is on it now, who put
    it there and how long before the order arrived. Only that much is known: a knot does not
    remember whether it conquered an empty space or liberated an enemy knot, so the message
    does not guess."""
    who = "you" if knot.seat in side.seats and len(side.seats) == 1 else f"seat {knot.seat} ({knot.colour})"
    ago = max(0, at_ms - knot.at_ms)
    head = (
        f"{knot.square} is not empty: it holds a {knot.colour} knot" if named is None
        else f"{knot.square} holds a {knot.colour} knot, not a {named} one"
    )
    return f"{head}, placed there by {who} {seconds(ago)} before your order arrived."


def _with_victory(state: WormlordState, events: tuple[Event, ...], side: Side, at_ms: int) -> tuple[Event, ...]:
    """§2: the first to hold three Objective spaces wins the round."""
    after = state
    for event in events:
        after = apply(after, event)
    if after.objectives_held(side.colour) >= OBJECTIVES_TO_WIN:
        return events + round_won(after, side.colour, "objectives", at_ms)
    return events
