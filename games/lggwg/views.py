"""What a viewer may know (§6, rulings L-R11, L-R12, L-R21).

A team sees its own units and mines, and whatever its living units and flags see now;
it is shown the terrain it remembers elsewhere ("?" where it never looked). Everyone
sees the scoreboard (each unit's hit points, scores, kills), the team order, who has sent
orders, and each resolved order's team, unit and kind. Moderators see everything."""

from __future__ import annotations

from typing import Any

from games.base import Event, Viewer, ViewerKind
from games.lggwg import events as ev
from games.lggwg.board import name
from games.lggwg.maps import MAP_NAMES, load_map
from games.lggwg.orders import format_order
from games.lggwg.sight import UNKNOWN, team_sight
from games.lggwg.state import COLOUR_NAMES, LggwgState, StepRecord, Unit
from games.serialization import to_data


def _unit(state: LggwgState, u: Unit, where: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": u.id, "team": u.team, "colour": state.colour(u.team), "type": u.kind,
        "name": u.type.name, "hp": u.hp, "max_hp": u.max_hp,
    }
    if u.kind == "N":
        data["mines"] = u.mines
    if where:
        data.update(square=name(u.square), x=u.x, y=u.y)
    return data


def _step(record: StepRecord, full: bool, state: LggwgState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "step": record.step, "team": record.team, "colour": state.colour(record.team),
        "unit": record.unit, "kind": record.kind,
    }
    if full:
        data.update(target=record.target, executed=record.executed, note=record.note,
                    paths=[list(p) for p in record.paths])
    return data


def view(state: LggwgState, viewer: Viewer) -> dict[str, Any]:
    everything = viewer.kind is ViewerKind.MODERATOR
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    team = state.team(seat) if seat is not None else None
    width, height = state.width, state.height
    if everything:
        sight = frozenset((x, y) for y in range(height) for x in range(width))
        squares = list(state.terrain)
    elif team is not None:
        sight = team_sight(state, team.seat)
        memory = team.memory or tuple(UNKNOWN * width for _ in range(height))
        squares = [
            "".join(state.terrain[y][x] if (x, y) in sight else memory[y][x] for x in range(width))
            for y in range(height)
        ]
    else:
        sight = frozenset()
        published = load_map(state.map).terrain if state.map in MAP_NAMES else ()
        squares = list(published) if published else [UNKNOWN * width for _ in range(height)]
    mine_team = team.seat if team is not None else None
    return {
        "game": "lggwg",
        "map": state.map or "custom",
        "width": width,
        "height": height,
        "phase": state.phase.value,
        "turn": state.turn,
        "max_turns": state.max_turns,
        "end": state.end,
        "flag_game": state.flag_game,
        "you": seat,
        "team_order": [{"seat": s, "colour": state.colour(s)} for s in state.team_order],
        "teams": [
            {"seat": t.seat, "colour": t.colour, "colour_name": COLOUR_NAMES[t.colour], "score": t.score,
             "kills": t.kills, "sheep": t.sheep, "out": t.out, "submitted": t.submitted}
            for t in state.teams
        ],
        "squares": squares,
        "visible": ["".join("1" if (x, y) in sight else "0" for x in range(width)) for y in range(height)],
        # per square: "v" seen now, "m" remembered from earlier, "u" never seen
        "fog": [
            "".join("v" if (x, y) in sight else ("u" if squares[y][x] == UNKNOWN else "m") for x in range(width))
            for y in range(height)
        ],
        "units": [
            _unit(state, u, True) for u in state.units
            if everything or (seat is not None and (u.team == seat or u.square in sight))
        ],
        "roster": [_unit(state, u, False) for u in state.units if u.kind != "W"],
        "mines": [
            {"square": name(m.square), "x": m.x, "y": m.y, "team": m.team, "colour": state.colour(m.team)}
            for m in state.mines if everything or m.team == mine_team or m.square in sight
        ],
        "wear": [
            {"square": name((w.x, w.y)), "damage": w.damage}
            for w in state.wear if everything or (w.x, w.y) in sight
        ],
        "orders": {
            str(t.seat): [format_order(o) for o in t.orders]
            for t in state.teams if t.orders and (everything or t.seat == seat)
        },
        "last_resolution": [
            _step(r, everything or (seat is not None and seat in r.seen_by), state) for r in state.last_steps
        ],
    }


#: The part of an effect a team that did not see it is still told (the scoreboard).
_PUBLIC_PART = {
    ev.UnitDamaged: ("unit", "amount", "hp", "scores"),
    ev.UnitDied: ("unit", "scores"),
    ev.UnitHealed: ("unit", "amount", "hp"),
}


def view_event(event: Event, viewer: Viewer) -> dict[str, Any] | None:
    if not viewer.may_see(event.audience()):
        return None
    data = to_data(event)
    if viewer.kind is ViewerKind.MODERATOR:
        return data
    if isinstance(event, ev.OrderResolved):
        full = viewer.seat is not None and viewer.seat in event.record.seen_by
        record = {k: v for k, v in data["record"].items() if k != "seen_by"}
        if not full:
            record = {k: record[k] for k in ("step", "team", "unit", "kind")}
        return {"record": record}
    seen = getattr(event, "seen_by", None)
    if seen is None:
        return data
    data.pop("seen_by")
    if viewer.seat is not None and viewer.seat in seen:
        return data
    keep = _PUBLIC_PART.get(type(event))
    return None if keep is None else {k: data[k] for k in keep}
