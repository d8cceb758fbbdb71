"""Refusals shared by the player orders: who is acting, whether the round runs, squares."""

from __future__ import annotations

from games.base import ActorKind, Command, RuleViolation
from games.wormlord.board import SQUARES, is_square, neighbours
from games.wormlord.state import Phase, Side, WormlordState


def seconds(ms: int) -> str:
    """A wait in words: ``1.15 s``."""
    return f"{ms / 1000:g} s"


def acting_side(state: WormlordState, command: Command) -> tuple[Side, int]:
    """The colour a player's order is for, and the seat that gave it."""
    seat = command.actor.seat
    side = state.side_of_seat(seat) if command.actor.kind is ActorKind.PLAYER else None
    if side is None or seat is None:
        raise RuleViolation("§1", "Only a player of this game can place knots or headquarters.")
    return side, seat


def round_running(state: WormlordState, command: Command) -> None:
    """§3.1: nothing happens before "NOW!"; §7.2: nor after the timer rang."""
    if state.phase in (Phase.NEW, Phase.WAITING):
        raise RuleViolation("§3.1", "The first round has not been set up yet: wait for the countdown.")
    if state.phase is Phase.OVER:
        raise RuleViolation("§6", "The game is over.")
    if state.phase is Phase.BREAK:
        raise RuleViolation(
            "§3.1", f"Round {state.round} is over; wait for the countdown of the next round."
        )
    starts = state.starts_at_ms or 0
    if command.at_ms < starts:
        raise RuleViolation(
            "§3.1",
            f"Round {state.round} has not started: wait {seconds(starts - command.at_ms)} "
            f"for \"NOW!\" (at {starts}).",
        )
    if state.ends_at_ms is not None and command.at_ms >= state.ends_at_ms:
        raise RuleViolation("§7.2", f"Time is up for round {state.round}: the timer has rung.")


def board_square(square: str) -> str:
    if not is_square(square):
        raise RuleViolation(
            "§1", f"{square!r} is not a space of the board ({SQUARES[0]} to {SQUARES[-1]})."
        )
    return square


def placeable(state: WormlordState, square: str) -> None:
    """§1 Remarks and §4: impassable spaces and bases take nothing."""
    terrain = state.terrain(board_square(square))
    if terrain == "#":
        raise RuleViolation("§1", f"{square} is impassable: nothing can be placed on it.")
    if terrain.isdigit():
        raise RuleViolation("§4", f"{square} is a base: a base can never be occupied.")


def adjacent_to_own(state: WormlordState, side: Side, square: str) -> None:
    """§3.2: "adjacent to a space you already occupy"; §4: the base counts as occupied."""
    if not any(state.holds(side.colour, n) for n in neighbours(square)):
        raise RuleViolation(
            "§3.2",
            f"{square} is not adjacent to a space you occupy or to your base "
            "(adjacent means orthogonally: no diagonals).",
        )
