"""Weapons that travel square by square (§5): kamikaze, sheep, mad cow, old woman.

Each sets off N, E, S or W from the firer's square. Rulings W-R28, W-R29: turning round
uses one square of range; a walker that collects a booby-trapped crate sets it off and
explodes there with it; the board's edge is a wall (§8).
"""

from __future__ import annotations

from games.worms import events as ev
from games.worms.aim import straight_direction
from games.worms.arsenal import weapon
from games.worms.blast import Impact, resolve, shot_blast
from games.worms.board import Direction, Square, name, on_board, step
from games.worms.commands import Fire
from games.worms.crates import HEALTH_CRATE
from games.worms.explosions import Blast, Ring, crate_sheep, doubled, draw_units, mine_explodes
from games.worms.items import ITEMS
from games.worms.outcome import Outcome
from games.worms.state import CrateKind, Worm

KAMIKAZE_PATH = Blast("kamikaze", (30, 30), center_push=3, center_throw=3, detonates_mines=True)
KAMIKAZE_END = Blast("kamikaze", (40, 50), center_land=1, center_push=3, center_throw=3, detonates_mines=True)
SHEEP = Blast(
    "sheep", (60, 75), center_land=2, center_push=2, center_throw=2,
    rings=(Ring(1, (35, 35), land=1, push=1, throw=1),),
)
MAD_COW = Blast(
    "mad cow", (48, 60), center_land=2, center_push=2, center_throw=2,
    rings=(Ring(1, (20, 20), land=1, push=1, throw=1),),
)
OLD_WOMAN = Blast(
    "old woman", (60, 75), center_land=2, center_push=2, center_throw=2,
    rings=(Ring(1, (35, 35), land=1, push=1, throw=1),),
)
BACK = {Direction.N: Direction.S, Direction.S: Direction.N, Direction.E: Direction.W, Direction.W: Direction.E}


def collect_crate(out: Outcome, seat: int, worm_id: str, square: Square) -> bool:
    """A walker collects the crate on ``square`` for its team (§5). Returns True if it was
    booby-trapped (it went off). A health crate heals the firing worm if it still lives
    and cures the team's poison (ruling W-R29)."""
    crate = out.state.crate_at(square)
    if crate is None:
        return False
    if crate.booby_trapped:
        out.emit(ev.CrateDestroyed(crate.x, crate.y))
        mine_explodes(out, square, None, source="booby-trapped crate")
        crate_sheep(out, square, crate.contents)
        return True
    out.emit(ev.CrateCollected(crate.x, crate.y, worm_id))
    if crate.kind is CrateKind.HEALTH:
        firer = out.state.worm(worm_id)
        if firer is not None:
            out.emit(ev.WormHealed(firer.id, HEALTH_CRATE, firer.health + HEALTH_CRATE))
        out.emit(ev.PoisonCured(seat))
    elif crate.contents:
        from games.worms.utilities import collected

        collected(out, seat, crate.contents, f"crate at {name(square)}")
    return False


@weapon("kamikaze")
def kamikaze(out: Outcome, worm: Worm, command: Fire) -> None:
    """RNG 7 straight, HGT ±3: the worm flies until the next square is 3 or more higher (or
    the edge) or 7 squares are done, and dies without a donor card. Crates on the way are
    collected; then one blast (ruling W-R28): worms on the squares passed take 30, the last
    square takes 40-50 and LND 1, all within ±3 of the firer's land are pushed 3 the way
    it flew and knocked 3 high (the farthest first); mines there are set off."""
    direction = straight_direction(worm, command.target, "kamikaze")
    base = out.state.height(worm.square)
    out.emit(ev.WormDied(worm.id, "kamikaze"))
    square = worm.square
    path: list[Square] = []
    for _ in range(ITEMS["kamikaze"].reach or 7):
        nxt = step(square, direction)
        if not on_board(nxt) or out.state.height(nxt) - out.state.height(square) >= 3:
            break
        square = nxt
        path.append(nxt)
    final = path[-1] if path else worm.square
    for s in path or [final]:
        collect_crate(out, worm.seat, worm.id, s)
    spec = doubled(KAMIKAZE_END, out.power)
    flung = doubled(KAMIKAZE_PATH, out.power)
    out.emit(ev.Exploded(final[0], final[1], spec.source))
    state = out.state
    h = state.height(final)
    hits = [Impact(final, "centre", spec.center_damage, max(0, h - spec.center_land) if h > 0 else None,
                   spec.center_push, direction, spec.center_throw, 0, base - 3 <= h <= base + 3)]
    for s in reversed(path[:-1]):
        hits.append(Impact(s, "path", flung.center_damage, None, flung.center_push, direction,
                           flung.center_throw, 0, base - 3 <= state.height(s) <= base + 3))
    resolve(out, hits, spec)


def _turn(direction: Direction) -> Direction:
    return BACK[direction]


@weapon("sheep")
def sheep(out: Outcome, worm: Worm, command: Fire) -> None:
    """§5 SHEEP, walked square by square (ruling W-R28): +1 climbs, +2 climbs 80% (else
    turns round), +3 or the edge turns it round; water is jumped (the square after must be
    land, or it drowns); a worm: 80% explode on it, else jump it; a drum: 80% jump it, else
    explode on it; crates are collected; out of range (15) it explodes where it is."""
    direction = straight_direction(worm, command.target, "sheep")
    square, left = worm.square, ITEMS["sheep"].reach or 15
    while left > 0:
        nxt = step(square, direction)
        state = out.state
        if not on_board(nxt) or state.height(nxt) - state.height(square) >= 3:
            direction, left = _turn(direction), left - 1
            continue
        if state.worm_at(nxt) is not None or state.drum_at(nxt) is not None:
            is_worm = state.worm_at(nxt) is not None
            roll = out.dice.chance(
                "sheep touches a worm: explodes (1-80) or jumps it" if is_worm
                else "sheep meets an oil drum: jumps it (1-80) or explodes", 80,
            )
            if roll != is_worm:
                nxt_jump = _jump(out, square, direction)
                if nxt_jump == "drown":
                    return
                if nxt_jump == "turn":
                    direction, left = _turn(direction), left - 1
                    continue
                square, left = nxt_jump, left - 1
                if out.state.worm_at(square) or out.state.drum_at(square):
                    break  # landing on a worm or drum after a jump: explodes there
                if collect_crate(out, worm.seat, worm.id, square):
                    break
                continue
            square = nxt
            break
        if state.is_water(nxt):
            landing = _jump(out, square, direction)
            if landing == "drown":
                return
            if landing == "turn":
                direction, left = _turn(direction), left - 1
                continue
            square, left = landing, left - 1
            if out.state.worm_at(square) or out.state.drum_at(square):
                break
            if collect_crate(out, worm.seat, worm.id, square):
                break
            continue
        if state.height(nxt) - state.height(square) == 2 and not out.dice.chance(
            "sheep climbs 2 (1-80) or turns round", 80
        ):
            direction, left = _turn(direction), left - 1
            continue
        square, left = nxt, left - 1
        if collect_crate(out, worm.seat, worm.id, square):
            break
    shot_blast(out, square, SHEEP, direction)


def _jump(out: Outcome, square: Square, direction: Direction) -> Square | str:
    """A sheep jumps the next square: it lands on the one after ("turn" if that is off the
    board or 3 or more higher; "drown" if it is water)."""
    landing = step(square, direction, 2)
    state = out.state
    if not on_board(landing) or state.height(landing) - state.height(square) >= 3:
        return "turn"
    if state.is_water(landing):
        return "drown"
    return landing


@weapon("mad_cow")
def mad_cow(out: Outcome, worm: Worm, command: Fire) -> None:
    """§5 MAD COW: runs straight up to 15; explodes on the first worm or oil drum it meets
    (on its square), at the foot of any uphill square or the edge (where it is), or when out
    of range; collects crates; drowns without exploding in water."""
    direction = straight_direction(worm, command.target, "mad cow")
    square, left = worm.square, ITEMS["mad_cow"].reach or 15
    while left > 0:
        nxt = step(square, direction)
        state = out.state
        if not on_board(nxt) or state.height(nxt) > state.height(square):
            break
        if state.worm_at(nxt) is not None or state.drum_at(nxt) is not None:
            square = nxt
            break
        if state.is_water(nxt):
            return
        square, left = nxt, left - 1
        if collect_crate(out, worm.seat, worm.id, square):
            break
    shot_blast(out, square, MAD_COW, direction)


@weapon("old_woman")
def old_woman(out: Outcome, worm: Worm, command: Fire) -> None:
    """§5 OLD WOMAN: walks straight up to 7; turns round at uphill land, oil drums and the
    edge; drowns in water; collects crates; on touching a worm she explodes on it and steals
    3 ammo units of that worm's team (for hers, or lost for ever if it is her own team);
    out of range she explodes where she is."""
    direction = straight_direction(worm, command.target, "old woman")
    square, left = worm.square, ITEMS["old_woman"].reach or 7
    victim: Worm | None = None
    while left > 0:
        nxt = step(square, direction)
        state = out.state
        if not on_board(nxt) or state.height(nxt) > state.height(square) or state.drum_at(nxt):
            direction, left = _turn(direction), left - 1
            continue
        victim = state.worm_at(nxt)
        if victim is not None:
            square = nxt
            break
        if state.is_water(nxt):
            return
        square, left = nxt, left - 1
        if collect_crate(out, worm.seat, worm.id, square):
            break
    if victim is not None:
        stolen = draw_units(out, victim.seat, 3, f"old woman robs team of {victim.id}: which ammo unit")
        if stolen:
            out.emit(ev.ItemsLost(victim.seat, stolen, "robbed by an old woman"))
            if victim.seat != worm.seat:
                out.emit(ev.ItemsGained(worm.seat, stolen, "stolen by the old woman"))
    shot_blast(out, square, OLD_WOMAN, direction)
