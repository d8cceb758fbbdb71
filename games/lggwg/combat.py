"""Shots: range, the bullet's path, the rifle, laser, bite and knife, Max's shells and
the Firebot's fireball (§2 fire, §3 out of range, §4 units; L-R4 to L-R7)."""

from __future__ import annotations

from games.lggwg import events as ev
from games.lggwg.board import (
    DIRECTION_NAMES,
    HARD,
    OPAQUE,
    SOLID,
    Square,
    Terrain,
    distance,
    line,
    neighbours,
    step,
)
from games.lggwg.damage import hit_square, hittable, settle
from games.lggwg.outcome import Outcome
from games.lggwg.sight import seen_by
from games.lggwg.state import LggwgState, Unit
from games.lggwg.units import FIRE_RADIUS, SHELLS, SPLASH


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
