"""Weapons that travel square by square (§5): kamikaze, sheep, mad cow, old woman.

Each sets off N, E, S or W from the firer's square and goes one square at a time; one
loop (``walk``) moves them all and each weapon's policy (``Policy``) says what it does
when the next square is higher, water, a worm or an oil drum. Rulings W-R28, W-R29:
turning round uses one square of range; a walker that collects a booby-trapped crate
sets it off and explodes there with it (the kamikaze flies on); the board's edge is a
wall (§8).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from games.worms import events as ev
from games.worms.aim import straight_direction
from games.worms.blast import Impact, resolve, shot_blast, spring_trap
from games.worms.blast_specs import center_land, doubled
from games.worms.board import Direction, Square, name, on_board, step
from games.worms.commands import Fire
from games.worms.crates import HEALTH_CRATE, collected
from games.worms.inventory import draw_units
from games.worms.items import ITEMS, blast_of
from games.worms.outcome import Outcome
from games.worms.state import CrateKind, Worm

BACK = {Direction.N: Direction.S, Direction.S: Direction.N, Direction.E: Direction.W, Direction.W: Direction.E}


class Next(enum.Enum):
    """What a walker does about the next square."""

    MOVE = "move"
    #: turn round where it is (one square of range)
    TURN = "turn"
    #: jump the next square, landing on the one after (the sheep)
    JUMP = "jump"
    #: go onto the next square and explode there (a worm or drum it runs into)
    ENTER = "enter"
    #: explode where it is
    STOP = "stop"
    #: fall into the water: no blast
    DROWN = "drown"


Policy = Callable[[Outcome, Square, Direction], Next]


@dataclass
class Walk:
    square: Square
    direction: Direction
    #: the squares it went onto, in order
    path: list[Square] = field(default_factory=list)
    #: it stopped on a worm or drum (``Next.ENTER``)
    entered: bool = False
    drowned: bool = False


def walk(out: Outcome, worm: Worm, direction: Direction, reach: int, policy: Policy, *, collects: bool = True) -> Walk:
    """Move the walker until the policy stops it or its range is used up; with
    ``collects`` it takes each crate it walks onto (and stops if it was booby-trapped)."""
    here = Walk(worm.square, direction)
    left = reach
    while left > 0:
        action = policy(out, here.square, here.direction)
        if action is Next.STOP:
            break
        if action is Next.DROWN:
            here.drowned = True
            break
        if action is Next.TURN:
            here.direction, left = BACK[here.direction], left - 1
            continue
        if action is Next.ENTER:
            here.square, here.entered = step(here.square, here.direction), True
            here.path.append(here.square)
            break
        landing = step(here.square, here.direction, 2 if action is Next.JUMP else 1)
        if action is Next.JUMP:
            jumped = _jump(out, here.square, landing)
            if jumped is not Next.MOVE:
                here.drowned = jumped is Next.DROWN
                if here.drowned:
                    break
                here.direction, left = BACK[here.direction], left - 1
                continue
        here.square, left = landing, left - 1
        here.path.append(landing)
        if action is Next.JUMP and (out.state.worm_at(landing) or out.state.drum_at(landing)):
            break  # landing on a worm or drum after a jump: explodes there
        if collects and collect_crate(out, worm.seat, worm.id, landing):
            break
    return here


def _jump(out: Outcome, square: Square, landing: Square) -> Next:
    """A sheep jumps the next square: it turns round if the square after is off the board
    or 3 or more higher, drowns if it is water, else lands there."""
    state = out.state
    if not on_board(landing) or state.height(landing) - state.height(square) >= 3:
        return Next.TURN
    if state.is_water(landing):
        return Next.DROWN
    return Next.MOVE


def collect_crate(out: Outcome, seat: int, worm_id: str, square: Square) -> bool:
    """A walker collects the crate on ``square`` for its team (§5). Returns True if it was
    booby-trapped (it went off). A health crate heals the firing worm if it still lives
    and cures the team's poison (ruling W-R29)."""
    crate = out.state.crate_at(square)
    if crate is None:
        return False
    if crate.booby_trapped:
        spring_trap(out, square, crate.contents)
        return True
    out.emit(ev.CrateCollected(crate.x, crate.y, worm_id))
    if crate.kind is CrateKind.HEALTH:
        firer = out.state.worm(worm_id)
        if firer is not None:
            out.emit(ev.WormHealed(firer.id, HEALTH_CRATE, firer.health + HEALTH_CRATE))
        out.emit(ev.PoisonCured(seat))
    elif crate.contents:
        collected(out, seat, crate.contents, f"crate at {name(square)}")
    return False


def _reach(weapon: str) -> int:
    reach = ITEMS[weapon].reach
    assert reach is not None, weapon
    return reach


def _start(worm: Worm, command: Fire, title: str) -> Direction:
    return straight_direction(worm, command.target, title)


# --- the policies ------------------------------------------------------------------------


def _rise(out: Outcome, square: Square, direction: Direction) -> int | None:
    """How much higher the next square is (None: off the board, a wall)."""
    nxt = step(square, direction)
    return out.state.height(nxt) - out.state.height(square) if on_board(nxt) else None


def kamikaze_policy(out: Outcome, square: Square, direction: Direction) -> Next:
    """He flies over worms, water and drums until the next square is 3 or more higher."""
    rise = _rise(out, square, direction)
    return Next.STOP if rise is None or rise >= 3 else Next.MOVE


def sheep_policy(out: Outcome, square: Square, direction: Direction) -> Next:
    """+1 walks, +2 an 80% draw to climb (else turns), +3 or the edge turns it round;
    water is jumped; a worm: 80% explode on it, else jump it; a drum: 80% jump it."""
    rise = _rise(out, square, direction)
    if rise is None or rise >= 3:
        return Next.TURN
    nxt = step(square, direction)
    state = out.state
    if state.worm_at(nxt) is not None:
        explodes = out.dice.chance("sheep touches a worm: explodes (1-80) or jumps it", 80)
        return Next.ENTER if explodes else Next.JUMP
    if state.drum_at(nxt) is not None:
        jumps = out.dice.chance("sheep meets an oil drum: jumps it (1-80) or explodes", 80)
        return Next.JUMP if jumps else Next.ENTER
    if state.is_water(nxt):
        return Next.JUMP
    if rise == 2 and not out.dice.chance("sheep climbs 2 (1-80) or turns round", 80):
        return Next.TURN
    return Next.MOVE


def mad_cow_policy(out: Outcome, square: Square, direction: Direction) -> Next:
    """It explodes at the foot of any higher square or the edge, on the first worm or
    drum it meets, and drowns in water."""
    rise = _rise(out, square, direction)
    if rise is None or rise > 0:
        return Next.STOP
    nxt = step(square, direction)
    if out.state.worm_at(nxt) is not None or out.state.drum_at(nxt) is not None:
        return Next.ENTER
    return Next.DROWN if out.state.is_water(nxt) else Next.MOVE


def old_woman_policy(out: Outcome, square: Square, direction: Direction) -> Next:
    """She turns round at higher land, oil drums and the edge, explodes on the first worm
    she touches and drowns in water."""
    rise = _rise(out, square, direction)
    nxt = step(square, direction)
    if rise is None or rise > 0 or out.state.drum_at(nxt) is not None:
        return Next.TURN
    if out.state.worm_at(nxt) is not None:
        return Next.ENTER
    return Next.DROWN if out.state.is_water(nxt) else Next.MOVE


# --- the weapons -------------------------------------------------------------------------


def kamikaze(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 7 straight, HGT ±3: the worm flies until the next square is 3 or more higher (or
    the edge) or 7 squares are done, and dies without a donor card. Crates on the way are
    collected; then one blast (ruling W-R28): worms on the squares passed take 30, the last
    square takes 40-50 and LND 1, all within ±3 of the firer's land are pushed 3 the way
    it flew and knocked 3 high (the farthest first); mines there are set off."""
    direction = _start(worm, command, "kamikaze")
    base = out.state.height(worm.square)
    out.emit(ev.WormDied(worm.id, "kamikaze"))
    path = walk(out, worm, direction, _reach("kamikaze"), kamikaze_policy, collects=False).path
    final = path[-1] if path else worm.square
    for s in path or [final]:
        collect_crate(out, worm.seat, worm.id, s)
    spec = doubled(blast_of("kamikaze"), out.power)
    flung = ITEMS["kamikaze"].path_blast
    assert flung is not None
    flung = doubled(flung, out.power)
    out.emit(ev.Exploded(final[0], final[1], spec.source))
    state = out.state
    h = state.height(final)
    hits = [Impact(final, "centre", spec.center_damage, center_land(h, spec),
                   spec.center_push, direction, spec.center_throw, 0, base - 3 <= h <= base + 3)]
    for s in reversed(path[:-1]):
        hits.append(Impact(s, "path", flung.center_damage, None, flung.center_push, direction,
                           flung.center_throw, 0, base - 3 <= state.height(s) <= base + 3))
    resolve(out, hits, spec)


def sheep(out: Outcome, worm: Worm, command: Fire) -> None:
    """§5 SHEEP, walked square by square (ruling W-R28); out of range (15) it explodes
    where it is; its push is the way it was last walking."""
    here = walk(out, worm, _start(worm, command, "sheep"), _reach("sheep"), sheep_policy)
    if not here.drowned:
        shot_blast(out, here.square, blast_of("sheep"), here.direction)


def mad_cow(out: Outcome, worm: Worm, command: Fire) -> None:
    """§5 MAD COW: runs straight up to 15; collects crates; explodes where it stops."""
    here = walk(out, worm, _start(worm, command, "mad cow"), _reach("mad_cow"), mad_cow_policy)
    if not here.drowned:
        shot_blast(out, here.square, blast_of("mad_cow"), here.direction)


def old_woman(out: Outcome, worm: Worm, command: Fire) -> None:
    """§5 OLD WOMAN: walks straight up to 7; collects crates; on touching a worm she
    explodes on it and steals 3 ammo units of that worm's team (for hers, or lost for ever
    if it is her own team); out of range she explodes where she is."""
    here = walk(out, worm, _start(worm, command, "old woman"), _reach("old_woman"), old_woman_policy)
    if here.drowned:
        return
    victim = out.state.worm_at(here.square) if here.entered else None
    if victim is not None:
        team = out.state.team(victim.seat)
        purpose = f"old woman robs team of {victim.id}: which ammo unit"
        stolen = draw_units(out.dice, team.inventory if team else (), 3, purpose)
        if stolen:
            out.emit(ev.ItemsLost(victim.seat, stolen, "robbed by an old woman"))
            if victim.seat != worm.seat:
                out.emit(ev.ItemsGained(worm.seat, stolen, "stolen by the old woman"))
    shot_blast(out, here.square, blast_of("old_woman"), here.direction)


WALKERS = {"kamikaze": kamikaze, "sheep": sheep, "mad_cow": mad_cow, "old_woman": old_woman}
