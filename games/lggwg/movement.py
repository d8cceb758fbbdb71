"""Steps: where a unit may walk, and what happens where it arrives (§2 move, §4 mines,
§5 health packs; L-R9, L-R10)."""

from __future__ import annotations

from games.lggwg import events as ev
from games.lggwg.board import WALKABLE, Square, Terrain, name
from games.lggwg.damage import hurt, settle
from games.lggwg.outcome import Outcome
from games.lggwg.sight import seen_by
from games.lggwg.state import LggwgState
from games.lggwg.units import HEALTH_PACK, MINE_DAMAGE


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
