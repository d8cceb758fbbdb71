"""Shots, damage, deaths and blasts (§2 fire, §4 units, §5 terrain; scoring §7, L-R20).

Armour is taken off direct hits only (bullets, lasers, bites, knives, a shell where it
lands), which still do at least 1; a wall beside the target on the shooter's side halves
a direct hit (rounded down) except the Executive's laser (he is a keen shot). Splash,
fire, blasts and mines ignore armour and cover (L-R8)."""

from __future__ import annotations

from games.lggwg import events as ev
from games.lggwg.board import (
    DIRECTION_NAMES,
    HARD,
    OPAQUE,
    SOLID,
    WALKABLE,
    Square,
    Terrain,
    distance,
    line,
    name,
    neighbours,
    step,
)
from games.lggwg.outcome import Outcome
from games.lggwg.sight import clear_line, seen_by
from games.lggwg.state import LggwgState, Unit
from games.lggwg.units import (
    CRATE_BLAST,
    FIRE_RADIUS,
    HARDENED_HP,
    HEALTH_PACK,
    KILL_BONUS,
    MINE_DAMAGE,
    NUCLEAR_BLAST,
    SHELLS,
    SPLASH,
)

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


def in_range_aim(shooter: Square, target: Square, reach: int) -> Square:
    """§3: out of range, the nearest square in range along the line to the target."""
    if distance(shooter, target) <= reach:
        return target
    last = shooter
    for sq, _ in line(shooter, target):
        if distance(shooter, sq) > reach:
            break
        last = sq
    return last


def _solid(state: LggwgState, square: Square) -> bool:
    return not state.on_map(square) or state.unit_at(square) is not None or state.at(square) in SOLID


def bullet_path(state: LggwgState, a: Square, b: Square) -> tuple[tuple[Square, ...], Square]:
    """The squares a bullet flies over and the square it hits: the first with a unit or
    solid terrain, else ``b``. Between two blocking squares meeting at a corner it hits
    the first (the one across the vertical side)."""
    path: list[Square] = []
    for sq, sides in line(a, b):
        if sides and all(_solid(state, s) for s in sides):
            path.append(sides[0])
            return tuple(path), sides[0]
        path.append(sq)
        if _solid(state, sq):
            return tuple(path), sq
    return tuple(path), b


def fire(o: Outcome, unit: Unit, aim: Square) -> None:
    weapon = unit.type.weapon
    if weapon == "shells":
        _shells(o, unit, aim)
    elif weapon == "fireball":
        _fireball(o, unit, aim)
    else:
        path, hit = bullet_path(o.state, unit.square, aim)
        o.emit(ev.ShotFired(unit.id, weapon, aim, path, seen_by(o.state, (unit.square, *path), (unit.team,))))
        if hittable(o.state, hit):
            hit_square(o, hit, o.roll(f"{unit.id} {weapon} damage", *unit.type.damage), "shot", unit.team, unit)
    settle(o)


def _shells(o: Outcome, unit: Unit, aim: Square) -> None:
    """Three shells: the first where aimed, the others each on the aimed square or one of
    the 8 around it (d9; off the map means on the aimed square) (L-R5)."""
    for shell in range(SHELLS):
        landing = aim
        if shell:
            pick = o.dice.roll(f"{unit.id} shell {shell + 1} scatter", 0, 8)
            if pick:
                landing = step(aim, DIRECTION_NAMES[pick - 1])
                if not o.state.on_map(landing):
                    landing = aim
        if landing == unit.square:
            landing = aim
        path, hit = bullet_path(o.state, unit.square, landing)
        o.emit(ev.ShotFired(unit.id, "shell", landing, path, seen_by(o.state, (unit.square, *path), (unit.team,))))
        if hittable(o.state, hit):
            damage = o.roll(f"{unit.id} shell {shell + 1} damage", *unit.type.damage)
            hit_square(o, hit, damage, "shot", unit.team, unit)
        for sq in neighbours(hit):
            hit_square(o, sq, SPLASH, "splash", unit.team)


def _fireball(o: Outcome, unit: Unit, aim: Square) -> None:
    """Through soft things (units, doors, crates, health packs), stopped by hard ones
    (walls, locked doors, nuclear crates: L-R7), then a flood of FIRE_RADIUS king moves."""
    state = o.state
    path: list[Square] = []
    end = unit.square
    stopped: Square | None = None
    for sq, sides in line(unit.square, aim):
        if sides and all(state.on_map(s) and state.at(s) in HARD for s in sides):
            stopped = sides[0]
            break
        if not state.on_map(sq) or state.at(sq) in HARD:
            stopped = sq
            break
        path.append(sq)
        end = sq
    burn = [*path]
    if end != unit.square:
        frontier, seen = [end], {end, *path}
        for _ in range(FIRE_RADIUS):
            nxt = []
            for sq in frontier:
                for n in neighbours(sq):
                    if n in seen or not state.on_map(n) or state.at(n) in OPAQUE | HARD | {Terrain.WINDOW}:
                        continue
                    seen.add(n)
                    nxt.append(n)
            burn += sorted(nxt, key=lambda s: (s[1], s[0]))
            frontier = nxt
    shown = tuple(path) + ((stopped,) if stopped else ())
    o.emit(ev.ShotFired(unit.id, "fireball", aim, shown, seen_by(o.state, (unit.square, *burn), (unit.team,))))
    targets = [sq for sq in ((stopped,) if stopped else ()) + tuple(burn) if hittable(o.state, sq, unit)]
    if not targets:
        return
    damage = o.roll(f"{unit.id} fireball damage", *unit.type.damage)
    if stopped is not None:
        hit_square(o, stopped, damage, "fire", unit.team, unit)
    for sq in burn:
        hit_square(o, sq, damage, "fire", unit.team, unit)


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


def walkable(state: LggwgState, frm: Square, to: Square) -> bool:
    """A step onto free walkable ground; a diagonal step may not squeeze between two
    squares that cannot be walked (L-R10)."""
    if not state.on_map(to) or state.at(to) not in WALKABLE or state.unit_at(to) is not None:
        return False
    if frm[0] != to[0] and frm[1] != to[1]:
        side_a, side_b = (to[0], frm[1]), (frm[0], to[1])
        if state.at(side_a) not in WALKABLE and state.at(side_b) not in WALKABLE:
            return False
    return True


def arrive(o: Outcome, unit_id: str) -> None:
    """After a step: a mine goes off, then a health pack is picked up (§4, §5)."""
    unit = o.state.unit(unit_id)
    if unit is None:
        return
    mine = o.state.mine_at(unit.square)
    if mine is not None and not (unit.kind == "N" and mine.team == unit.team):
        o.emit(ev.MineExploded(unit.square, mine.team, seen_by(o.state, (unit.square,), (mine.team, unit.team))))
        hurt(o, unit, o.roll(f"mine at {name(unit.square)} damage", *MINE_DAMAGE), "mine", mine.team)
        settle(o)
    unit = o.state.unit(unit_id)
    if unit is not None and o.state.at(unit.square) is Terrain.HEALTH_PACK:
        gain = min(HEALTH_PACK, unit.max_hp - unit.hp)
        seen = seen_by(o.state, (unit.square,), (unit.team,))
        o.emit(ev.UnitHealed(unit.id, gain, unit.hp + gain, seen))
        o.emit(ev.TerrainChanged(unit.square, Terrain.FLOOR.value, 0, seen))

