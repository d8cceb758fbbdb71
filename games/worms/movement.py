"""Walking (§7): up to 3 orthogonal squares per worm; no climbing more than +1, no water,
no worms or oil drums in the way; a drop of more than 2 ends the turn with fall damage
unless a parachute opens. Walking onto a mine sets it off; onto a crate or card collects it.

§5 NINJA ROPE: the worm moves over heights, water, mines, drums and worms; only the square
it ends a move on counts (no fall, a mine there goes off, water drowns). §5 FAST WALK
doubles the allowance (``WormProgress.fast``). §11: a worm that walks into an invisible
worm of another team stops before it and loses the rest of that move (``InvisibleWormMet``).
"""

from __future__ import annotations

from games.base import RuleViolation
from games.worms import events as ev
from games.worms.blast import arrive
from games.worms.board import Square, SquareError, name, orthogonal_neighbours, parse_square
from games.worms.commands import MoveWorm
from games.worms.outcome import Outcome
from games.worms.state import Worm, WormProgress, WormsState
from games.worms.turn import MOVES_PER_WORM, acting_seat, check_may_act, own_worm

MAX_CLIMB = 1


def known_worm_at(state: WormsState, square: Square, seat: int | None) -> Worm | None:
    """The worm on ``square`` as ``seat`` knows it: invisible worms of other teams are
    not there for it (§11); ``seat`` None knows every worm."""
    worm = state.worm_at(square)
    if worm is None or worm.visible or seat is None or worm.seat == seat:
        return worm
    return None


def hidden_worm_at(state: WormsState, square: Square, seat: int) -> Worm | None:
    """An invisible worm of another team on ``square`` (what ``seat`` would bump into)."""
    worm = state.worm_at(square)
    if worm is not None and not worm.visible and worm.seat != seat:
        return worm
    return None


def step_problem(state: WormsState, start: Square, target: Square, seat: int | None = None) -> str | None:
    """Why a worm on ``start`` cannot step onto ``target``, or None. With ``seat``, only
    what that team knows counts: an invisible worm of another team is no reason (§11)."""
    if target not in set(orthogonal_neighbours(start)):
        return f"{name(target)} is not next to {name(start)}; worms move one square N, E, S or W at a time"
    if state.is_water(target):
        return f"{name(target)} is water; worms cannot cross water"
    climb = state.height(target) - state.height(start)
    if climb > MAX_CLIMB:
        return f"{name(target)} is {climb} higher than {name(start)}; a worm climbs at most 1"
    other = known_worm_at(state, target, seat)
    if other is not None:
        return f"{name(target)} is taken by worm {other.id}; worms cannot walk through worms"
    if state.drum_at(target) is not None:
        return f"{name(target)} has an oil drum; worms cannot walk through oil drums"
    return None


def can_step(state: WormsState, square: Square, seat: int | None = None) -> bool:
    return any(step_problem(state, square, t, seat) is None for t in orthogonal_neighbours(square))


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
    try:
        path = [parse_square(text) for text in command.path]
    except SquareError as exc:
        raise RuleViolation("§7", str(exc)) from None
    if mine.rope:
        _rope(out, worm, mine, path)
    else:
        _walk(out, worm, mine, path)


def _no_movement_left(worm: Worm, mine: WormProgress, used: int, target: Square) -> RuleViolation:
    return RuleViolation(
        "§7",
        f"{worm.id} has no movement left ({used} of {mine.allowance} squares used); "
        f"it cannot reach {name(target)}.",
    )


def _walk(out: Outcome, worm: Worm, mine: WormProgress, path: list[Square]) -> None:
    used = mine.used
    for i, target in enumerate(path):
        current = out.state.worm(worm.id)
        if current is None or out.turn_over is not None:
            return  # the walk ended (a fall, a mine, a booby trap): the rest is not walked
        if used >= mine.allowance:
            raise _no_movement_left(worm, mine, used, target)
        problem = step_problem(out.state, current.square, target, worm.seat)
        if problem is not None:
            raise RuleViolation("§7", f"{worm.id} cannot move to {name(target)}: {problem}.")
        hidden = hidden_worm_at(out.state, target, worm.seat)
        if hidden is not None:
            _bump(out, worm, hidden, min(len(path) - i, mine.allowance - used))
            return
        from_height = out.state.height(current.square)
        out.emit(ev.WormMoved(worm.id, target[0], target[1], cost=1))
        used += 1
        arrive(out, worm.id, from_height, walking=True)


def _bump(out: Outcome, walker: Worm, hidden: Worm, lost: int) -> None:
    """§11: "you will be stopped and I will notify you by PM. You will not get the movement
    turns back that you used up from that point, but will now know the location"."""
    out.emit(ev.InvisibleWormMet(walker.seat, walker.id, hidden.id, hidden.x, hidden.y, lost))
    out.halted = True


def _rope(out: Outcome, worm: Worm, mine: WormProgress, path: list[Square]) -> None:
    """§5 NINJA ROPE: each square next to the last, over anything; the move may not end on
    a worm or an oil drum it knows of; an invisible worm there stops it short (§11)."""
    square = worm.square
    used = mine.used
    for target in path:
        if used >= mine.allowance:
            raise _no_movement_left(worm, mine, used, target)
        if target not in set(orthogonal_neighbours(square)):
            raise RuleViolation(
                "§7", f"{worm.id} cannot move to {name(target)}: it is not next to {name(square)}; "
                "a worm on a ninja rope still moves one square N, E, S or W at a time."
            )
        square, used = target, used + 1
    end = path[-1]
    other = known_worm_at(out.state, end, worm.seat)
    if other is not None and other.id != worm.id:
        raise RuleViolation("§5", f"A ninja rope move may not end on a worm; {other.id} is on {name(end)}.")
    if out.state.drum_at(end) is not None:
        raise RuleViolation("§5", f"A ninja rope move may not end on an oil drum; {name(end)} has one.")
    stop = len(path)
    hidden = hidden_worm_at(out.state, end, worm.seat)
    if hidden is not None:
        # stop on the last square of the move where a worm may end (ruling W-R43)
        stop -= 1
        while stop > 0 and (out.state.blocked(path[stop - 1]) and path[stop - 1] != worm.square):
            stop -= 1
    for target in path[:stop]:
        out.emit(ev.WormMoved(worm.id, target[0], target[1], cost=1, cause="rope"))
    if hidden is not None:
        _bump(out, worm, hidden, len(path) - stop)
    if stop:
        here = out.state.worm(worm.id)
        if here is not None:
            arrive(out, worm.id, out.state.height(here.square), walking=True)
