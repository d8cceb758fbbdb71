"""Damage, deaths, blasts and what is scored for them (§4 units, §5 terrain, §7 scoring).

Armour is taken off direct hits only (bullets, lasers, bites, knives, a shell where it
stops), which still do at least 1; a wall beside the target on the shooter's side halves
a direct hit (rounded down) except the Executive's laser (he is a keen shot). Splash,
fire, blasts and mines ignore armour and cover (L-R8). Scoring: L-R20."""

from __future__ import annotations

from games.lggwg import events as ev
from games.lggwg.board import HARD, OPAQUE, Square, Terrain, neighbours
from games.lggwg.outcome import Outcome
from games.lggwg.sight import clear_line, seen_by
from games.lggwg.state import LggwgState, Unit
from games.lggwg.units import CRATE_BLAST, HARDENED_HP, KILL_BONUS, NUCLEAR_BLAST

DAMAGEABLE = frozenset({Terrain.DOOR, Terrain.LOCKED_DOOR, Terrain.CRATE, Terrain.NUCLEAR_CRATE, Terrain.HEALTH_PACK})



def scores_for(target: Unit, lost: int, source: int) -> tuple[tuple[int, int], ...]:
    """Damage scores for its dealer; damage to your own units is penalty damage (L-R20)."""
    if not source or not lost or target.kind == "W":
        return ()
    return ((source, -lost if target.team == source else lost),)



def hurt(o: Outcome, unit: Unit, amount: int, cause: str, source: int) -> None:
    lost = min(max(amount, 0), unit.hp)
    seen = seen_by(o.state, (unit.square,), (unit.team, source))
    o.emit(ev.UnitDamaged(unit.id, lost, unit.hp - lost, cause, scores_for(unit, lost, source), seen))
    if unit.hp - lost == 0:
        kill(o, unit, cause, source)



def kill(o: Outcome, unit: Unit, cause: str, source: int) -> None:
    enemy = source and source != unit.team and unit.type.soldier
    scores = ((source, KILL_BONUS),) if enemy else ()
    seen = seen_by(o.state, (unit.square,), (unit.team, source))
    o.emit(ev.UnitDied(unit.id, cause, source, scores, seen))
    if unit.type.explodes:
        o.blasts.append((unit.square, 1, unit.type.explodes, f"{unit.id} exploded", unit.team))
    if unit.kind == "E" and unit.team not in o.forfeiting:
        o.fallen.append((unit.team, source))



def hit_square(o: Outcome, square: Square, amount: int, cause: str, source: int,
               shooter: Unit | None = None) -> None:
    """Whatever is on ``square`` takes the hit: the unit there, then the terrain (§5)."""
    state = o.state
    if not state.on_map(square):
        return
    target = state.unit_at(square)
    if target is not None and not (shooter is not None and cause == "fire" and target.id == shooter.id):
        dealt = amount
        if shooter is not None and cause == "shot":
            dealt = max(1, amount - target.type.armour)
            if shooter.kind != "E" and covered(state, target.square, shooter.square):
                dealt //= 2
        hurt(o, target, dealt, f"{cause} by {shooter.id}" if shooter else cause, source)
    terrain = o.state.at(square)
    seen = seen_by(o.state, (square,), (source,))
    if terrain is Terrain.DOOR:
        o.emit(ev.TerrainChanged(square, Terrain.OPEN_DOOR.value, 0, seen))
    elif terrain is Terrain.HEALTH_PACK:
        o.emit(ev.TerrainChanged(square, Terrain.FLOOR.value, 0, seen))
    elif terrain is Terrain.CRATE:
        o.emit(ev.TerrainChanged(square, Terrain.FLOOR.value, 0, seen))
        o.blasts.append((square, CRATE_BLAST[0], CRATE_BLAST[1], "crate", source))
    elif terrain in (Terrain.LOCKED_DOOR, Terrain.NUCLEAR_CRATE) and amount > 0:
        wear = o.state.wear_at(square) + amount
        if wear < HARDENED_HP:
            o.emit(ev.TerrainChanged(square, terrain.value, wear, seen))
        elif terrain is Terrain.LOCKED_DOOR:
            o.emit(ev.TerrainChanged(square, Terrain.OPEN_DOOR.value, 0, seen))
        else:
            o.emit(ev.TerrainChanged(square, Terrain.FLOOR.value, 0, seen))
            o.blasts.append((square, NUCLEAR_BLAST[0], NUCLEAR_BLAST[1], "nuclear crate", source))



def hittable(state: LggwgState, square: Square, shooter: Unit | None = None) -> bool:
    """Something there can take damage (no roll is made for a shot into empty floor or a
    wall: L-R6)."""
    if not state.on_map(square):
        return False
    unit = state.unit_at(square)
    if unit is not None and (shooter is None or unit.id != shooter.id):
        return True
    return state.at(square) in DAMAGEABLE



def covered(state: LggwgState, target: Square, shooter: Square) -> bool:
    """A wall orthogonally beside the target, on the shooter's side (L-R8)."""
    tx, ty = target
    vx, vy = shooter[0] - tx, shooter[1] - ty
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        wall = (tx + dx, ty + dy)
        if state.on_map(wall) and state.at(wall) is Terrain.WALL and dx * vx + dy * vy > 0:
            return True
    return False



def _blast_blocks(state: LggwgState, square: Square) -> bool:
    return state.at(square) in OPAQUE | HARD



def settle(o: Outcome) -> None:
    """Blasts in the order they were set off, then teams whose Executive died (L-R17)."""
    while o.blasts or o.fallen:
        if o.blasts:
            centre, radius, damage, cause, source = o.blasts.pop(0)
            squares = (centre, *(
                sq for sq in neighbours(centre, radius)
                if o.state.on_map(sq) and clear_line(o.state, centre, sq, _blast_blocks)
            ))
            o.emit(ev.Exploded(centre, radius, damage, cause, seen_by(o.state, squares, (source,))))
            for sq in squares:
                hit_square(o, sq, damage, "blast", source)
            continue
        seat, killer = o.fallen.pop(0)
        eliminate(o, seat, killer, "executive")



def eliminate(o: Outcome, seat: int, killer: int, reason: str) -> None:
    """§4 Executive: his team loses; whoever killed him scores his whole team: each unit's
    hit points and the kill bonus (L-R18). Those units surrender (they do not explode)."""
    team = o.state.team(seat)
    if team is None or team.out:
        return
    for unit in o.state.units_of(seat):
        if not unit.type.soldier:
            continue
        scores = ((killer, unit.hp + KILL_BONUS),) if killer and killer != seat else ()
        o.emit(ev.UnitDied(unit.id, "surrendered", killer if killer != seat else 0, scores,
                           seen_by(o.state, (unit.square,), (seat,))))
    o.emit(ev.TeamOut(seat, reason, ()))



def forfeit(o: Outcome, seat: int) -> None:
    """§2 Forfeit: every unit commits suicide (penalty damage, none in flag games: L-R19);
    Firebots and the Executive explode as usual."""
    o.forfeiting.add(seat)
    for unit in o.state.units_of(seat):
        if not unit.type.soldier:
            continue
        penalty = () if o.state.flag_game else ((seat, -unit.hp),)
        o.emit(ev.UnitDied(unit.id, "forfeit", 0, penalty, seen_by(o.state, (unit.square,), (seat,))))
        if unit.type.explodes:
            o.blasts.append((unit.square, 1, unit.type.explodes, f"{unit.id} exploded", seat))
    settle(o)
    o.emit(ev.TeamOut(seat, "forfeit", ()))
