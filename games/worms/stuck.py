"""§7 "If you are stuck, then your turn will be skipped." and §10's stalemate (rulings
W-R10, W-R20).

A team is stuck when none of its worms has anything to do with what the team holds: no
step to take, no movement utility that moves it (ninja rope, teleport), no weapon that
can hit an enemy worm it can see and (from ruleset version 2.1.1) no weapon that can
change what walls a worm in: lower a square next to it that is too high to climb, or
clear the oil drum or worm standing there (§1, §8: explosives lower the land). Only what
the team may know counts (§11, W-R43): other teams' invisible worms, crate contents and
booby traps are left out, so the decision (which everyone sees) gives nothing away.
"""

from __future__ import annotations

from dataclasses import replace

from games.base import Actor, ActorKind, RuleViolation
from games.dice import DiceError
from games.worms import events as ev
from games.worms.aim import distance, land_shot
from games.worms.board import (
    ORTHOGONAL,
    all_squares,
    name,
    on_board,
    orthogonal_neighbours,
    ring,
    step,
)
from games.worms.bot_shots import LowestDice
from games.worms.commands import Fire
from games.worms.items import ITEMS, Category
from games.worms.movement import MAX_CLIMB, can_step
from games.worms.outcome import Outcome
from games.worms.state import Stage, TurnProgress, Worm, WormsState
from games.worms.turn import end_turn
from games.worms.weapons import fire

#: every team holds these; a cheap test of reach is enough (W-R10)
ALWAYS_HELD = ("prod", "handgun")
#: the ninja rope's moves this turn, square by square over anything (§5, W-R47)
ROPE_REACH = 3


def is_stuck(state: WormsState, seat: int, *, digging: bool = True) -> bool:
    """§7: no worm of the team can step, move with a utility or hit an enemy it can see;
    with ``digging`` (version 2.1.1 on), nor open a way out with what the team holds."""
    worms = state.worms_of(seat)
    if any(can_step(state, w.square, seat) or can_hit(state, w) for w in worms):
        return False
    known = known_position(state, seat)
    if any(can_move_with_utility(known, w) for w in worms):
        return False
    team = known.team(seat)
    held = [
        s.item for s in (team.inventory if team else ())
        if s.count != 0 and ITEMS[s.item].category is not Category.UTILITY
    ]
    weapons = [item for item in held if item not in ALWAYS_HELD]
    if any(can_hit_with(known, w, weapon) for w in worms for weapon in weapons):
        return False
    return not (digging and any(can_open_with(known, w, weapon) for w in worms for weapon in held))


def is_stalemate(state: WormsState, *, digging: bool = True) -> bool:
    """§10: every remaining team is stuck (W-R20)."""
    return bool(state.worms) and all(is_stuck(state, t.seat, digging=digging) for t in state.active_teams())


def known_position(state: WormsState, seat: int) -> WormsState:
    """The position as the team may know it: other teams' invisible worms left out (§11),
    crates without their contents or booby traps (§9)."""
    worms = tuple(w for w in state.worms if w.visible or w.seat == seat)
    crates = tuple(replace(c, contents=(), booby_trapped=False) for c in state.crates)
    return replace(state, worms=worms, crates=crates)


def can_hit(state: WormsState, worm: Worm) -> bool:
    """W-R10: an enemy worm within prod reach, or in the line of the handgun every team
    holds (8 along the row or column, within its height window, no wall in between).
    Only worms the team can see count (§11, W-R43)."""
    for d in ORTHOGONAL:
        s = step(worm.square, d)
        if on_board(s):
            other = state.worm_at(s)
            if other is not None and other.seat != worm.seat and other.visible:
                diff = state.height(s) - state.height(worm.square)
                if -1 <= diff <= 0:
                    return True
    for other in state.worms:
        if other.seat == worm.seat or not other.visible or (other.x != worm.x and other.y != worm.y):
            continue
        if abs(other.x - worm.x) + abs(other.y - worm.y) > 8:
            continue
        if land_shot(state, worm, "handgun", other.square).square == other.square:
            return True
    return False


def can_move_with_utility(state: WormsState, worm: Worm) -> bool:
    """§5 NINJA ROPE (a move of up to 3 over anything, ending where no worm or drum is)
    and TELEPORT (any square without a worm or drum) move a worm that cannot walk; the
    other utilities neither move a worm nor hit anyone."""
    seat = worm.seat
    if state.stock(seat, "teleport") != 0:
        return any(s != worm.square and not state.blocked(s) for s in all_squares())
    if state.stock(seat, "ninja_rope") != 0:
        return any(
            0 < distance(worm.square, s) <= ROPE_REACH and not state.blocked(s) for s in all_squares()
        )
    return False


def can_hit_with(state: WormsState, worm: Worm, weapon: str) -> bool:
    """The weapon, fired by this worm, damages, moves, poisons or kills an enemy worm.
    RNG ALL weapons reach any square, so any enemy will do; the others are tried on a
    copy of the position (every die at its lowest) at each direction and at each square
    on or around an enemy."""
    enemies = [w for w in state.worms if w.seat != worm.seat]
    if not enemies:
        return False
    spec = ITEMS[weapon]
    if spec.reach is None:
        return True
    acting = replace(state, seat=worm.seat, stage=Stage.ACTING, progress=TurnProgress())
    squares = sorted({s for e in enemies for s in (e.square, *ring(e.square))})
    targets = [d.value for d in ORTHOGONAL] + [
        name(s) for s in squares if distance(worm.square, s) <= spec.reach + 3  # the wind (§8)
    ]
    ids = {e.id for e in enemies}
    return any(_hits(acting, worm, weapon, target, ids) for target in targets)


def can_open_with(state: WormsState, worm: Worm, weapon: str) -> bool:
    """W-R10 (2.1.1): the weapon, fired by this worm at a direction or at a square within
    2 of it (tried on a copy, every die at its lowest, a dynamite going off at the turn's
    end), lowers a square next to one of the team's worms that is too high for it to
    climb, clears the drum or worm that stops it there, or lets it step at all."""
    spec = ITEMS[weapon]
    acting = replace(state, seat=worm.seat, stage=Stage.ACTING, progress=TurnProgress())
    near = [worm.square, *ring(worm.square), *ring(worm.square, 2)]
    targets = [d.value for d in ORTHOGONAL] + [
        name(s) for s in near if spec.reach is None or distance(worm.square, s) <= spec.reach + 3  # the wind (§8)
    ]
    for target in targets:
        out = _shot(acting, worm, weapon, target)
        if out is not None and _opens(state, out.state, worm.seat):
            return True
    return False


def _opens(before: WormsState, after: WormsState, seat: int) -> bool:
    """A worm of ``seat`` walled in ``before`` can step ``after``, or a square that stopped
    it is lower (too high) or no longer holds the drum or worm that stood there."""
    for worm in before.worms_of(seat):
        now = after.worm(worm.id)
        if now is None:
            continue
        if can_step(after, now.square, seat):
            return True
        if now.square != worm.square:
            continue
        for square in orthogonal_neighbours(worm.square):
            if after.is_water(square):
                continue
            too_high = before.height(square) - before.height(worm.square) > MAX_CLIMB
            if too_high and after.height(square) < before.height(square):
                return True
            if (before.drum_at(square) is not None and after.drum_at(square) is None) or (
                before.worm_at(square) is not None and after.worm_at(square) is None
            ):
                return True
    return False


def _shot(state: WormsState, worm: Worm, weapon: str, target: str) -> Outcome | None:
    """The shot on a copy with every die at its lowest; None if it would be refused."""
    out = Outcome(state, LowestDice())
    try:
        fire(out, Fire(actor=Actor(ActorKind.REFEREE, worm.seat), worm=worm.id, weapon=weapon, target=target))
        if out.state.progress.fuse is not None:
            end_turn(out, "check")  # a dynamite goes off when the turn ends (W-R9)
    except (RuleViolation, DiceError):
        return None
    return out


def _hits(state: WormsState, worm: Worm, weapon: str, target: str, enemies: set[str]) -> bool:
    out = _shot(state, worm, weapon, target)
    return out is not None and any(_hurts(event, enemies) for event in out.events)


def _hurts(event: ev.Event, enemies: set[str]) -> bool:
    if isinstance(event, ev.WormDamaged):
        return event.worm in enemies and event.amount > 0
    if isinstance(event, ev.WormDied | ev.WormPoisoned | ev.WormMoved):
        return event.worm in enemies
    return False

