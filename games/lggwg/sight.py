"""Line of sight and fog (§6, rulings L-R11/L-R12).

A square is seen from a unit when it lies within the unit's sight (king moves) and no square
the line crosses before it is opaque (walls, closed doors, locked doors; at a corner only
if both squares beside it are). A team sees what its living units and living flags see;
it remembers the terrain of every square it has ever seen (``Team.memory``)."""

from __future__ import annotations

from functools import cache, lru_cache

from games.lggwg.board import OPAQUE, Square, Terrain, distance, line
from games.lggwg.state import LggwgState, Unit

UNKNOWN = "?"


def _opaque(state: LggwgState, square: Square) -> bool:
    return Terrain(state.terrain[square[1]][square[0]]) in OPAQUE


def clear_line(state: LggwgState, a: Square, b: Square, blocks=_opaque) -> bool:  # noqa: ANN001
    """No square before ``b`` on the line blocks (``b`` itself may: you see the wall)."""
    crossings = line(a, b)
    for sq, sides in crossings[:-1]:
        if blocks(state, sq):
            return False
        if sides and all(blocks(state, s) for s in sides):
            return False
    return not (crossings and crossings[-1][1] and all(blocks(state, s) for s in crossings[-1][1]))


@cache
def _disc(width: int, height: int, x: int, y: int, radius: int) -> tuple[Square, ...]:
    return tuple(
        (i, j) for j in range(max(0, y - radius), min(height, y + radius + 1))
        for i in range(max(0, x - radius), min(width, x + radius + 1))
    )


_OPAQUE_CHARS = "".join(t.value for t in OPAQUE)


@lru_cache(maxsize=2048)
def _sight_from(terrain: tuple[str, ...], x: int, y: int, radius: int) -> frozenset[Square]:
    """Sight depends only on the terrain and where the eye is: cached (positions repeat)."""
    def blocks(sq: Square) -> bool:
        return terrain[sq[1]][sq[0]] in _OPAQUE_CHARS

    seen = set()
    for sq in _disc(len(terrain[0]), len(terrain), x, y, radius):
        crossings = line((x, y), sq)
        ok = True
        for i, (c, sides) in enumerate(crossings):
            if sides and blocks(sides[0]) and blocks(sides[1]):
                ok = False
                break
            if i < len(crossings) - 1 and blocks(c):
                ok = False
                break
        if ok:
            seen.add(sq)
    return frozenset(seen)


def unit_sight(state: LggwgState, unit: Unit) -> frozenset[Square]:
    return _sight_from(state.terrain, unit.x, unit.y, unit.type.sight)


def lookouts(state: LggwgState, seat: int) -> tuple[Unit, ...]:
    """The team's eyes: living units and living flags (sheep see for nobody)."""
    team = state.team(seat)
    if team is None or team.out:
        return ()
    return tuple(u for u in state.units if u.team == seat and u.kind != "W")


def team_sight(state: LggwgState, seat: int) -> frozenset[Square]:
    seen: set[Square] = set()
    for unit in lookouts(state, seat):
        seen |= unit_sight(state, unit)
    return frozenset(seen)


def sees(state: LggwgState, seat: int, squares: tuple[Square, ...]) -> bool:
    sight = team_sight(state, seat)
    return any(sq in sight for sq in squares)


def seen_by(state: LggwgState, squares: tuple[Square, ...], also: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The seats that see any of ``squares`` now, plus ``also`` (sorted)."""
    out = set(s for s in also if s)
    for team in state.teams:
        if team.seat not in out and sees(state, team.seat, squares):
            out.add(team.seat)
    return tuple(sorted(out))


def remember(state: LggwgState, seat: int, memory: tuple[str, ...]) -> tuple[str, ...]:
    """``memory`` with every square the team sees now set to its terrain now."""
    rows = [list(r) for r in (memory or tuple(UNKNOWN * state.width for _ in range(state.height)))]
    for x, y in team_sight(state, seat):
        rows[y][x] = state.terrain[y][x]
    return tuple("".join(r) for r in rows)


def refresh_memory(state: LggwgState) -> LggwgState:
    for team in state.teams:
        if not team.out:
            state = state.with_team(team.seat, memory=remember(state, team.seat, team.memory))
    return state


def mine_obscured(state: LggwgState, a: Square, b: Square) -> bool:
    """§2 footnote: the target is seen only across a mine (a mine lies on the line)."""
    return any(state.mine_at(sq) is not None for sq, _ in line(a, b)[:-1]) if distance(a, b) > 1 else False
