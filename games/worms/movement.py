"""Walking (§7): up to 3 orthogonal squares per worm; no climbing more than +1, no water,
no worms or oil drums in the way; a drop of more than 2 ends the turn with fall damage
unless a parachute opens. Walking onto a mine sets it off; onto a crate or card collects it.
"""

from __future__ import annotations

from games.base import RuleViolation
from games.worms import events as ev
from games.worms.board import Square, SquareError, name, orthogonal_neighbours, parse_square
from games.worms.commands import MoveWorm
from games.worms.outcome import Outcome
from games.worms.physics import arrive
from games.worms.state import WormProgress, WormsState
from games.worms.turn import MOVES_PER_WORM, acting_seat, check_may_act, own_worm

MAX_CLIMB = 1


def step_problem(state: WormsState, start: Square, target: Square) -> str | None:
    """Why a worm on ``start`` cannot step onto ``target``, or None."""
    if target not in set(orthogonal_neighbours(start)):
        return f"{name(target)} is not next to {name(start)}; worms move one square N, E, S or W at a time"
    if state.is_water(target):
        return f"{name(target)} is water; worms cannot cross water"
    climb = state.height(target) - state.height(start)
    if climb > MAX_CLIMB:
        return f"{name(target)} is {climb} higher than {name(start)}; a worm climbs at most 1"
    other = state.worm_at(target)
    if other is not None:
        return f"{name(target)} is taken by worm {other.id}; worms cannot walk through worms"
    if state.drum_at(target) is not None:
        return f"{name(target)} has an oil drum; worms cannot walk through oil drums"
    return None


def can_step(state: WormsState, square: Square) -> bool:
    return any(step_problem(state, square, t) is None for t in orthogonal_neighbours(square))


def move(out: Outcome, command: MoveWorm) -> None:
    state = out.state
    seat = acting_seat(state, command.actor)
    worm = own_worm(state, seat, command.worm)
    check_may_act(state, worm)
    progress = state.progress
    if progress.weapon is not None and progress.shooter != worm.id:
        raise RuleViolation(
            "§7", f"After firing only {progress.shooter}, who fired, may move on; {worm.id} cannot."
        )
    if not command.path:
        raise RuleViolation("§7", "Give at least one square to move to.")
    mine = progress.of(worm.id) or WormProgress(worm.id, 0, MOVES_PER_WORM)
    moved, allowance = mine.moved, mine.allowance
    for text in command.path:
        current = out.state.worm(worm.id)
        if current is None or out.turn_over is not None:
            return  # the walk ended (a fall, a mine, a booby trap): the rest is not walked
        try:
            target = parse_square(text)
        except SquareError as exc:
            raise RuleViolation("§7", str(exc)) from None
        if moved >= allowance:
            raise RuleViolation(
                "§7",
                f"{worm.id} has no movement left ({moved} of {allowance} squares used); "
                f"it cannot reach {name(target)}.",
            )
        problem = step_problem(out.state, current.square, target)
        if problem is not None:
            raise RuleViolation("§7", f"{worm.id} cannot move to {name(target)}: {problem}.")
        from_height = out.state.height(current.square)
        out.emit(ev.WormMoved(worm.id, target[0], target[1], cost=1))
        moved += 1
        arrive(out, worm.id, from_height, walking=True)
