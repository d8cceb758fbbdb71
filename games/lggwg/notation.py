"""Positions as one line of text (docs/notation-lggwg.md): ``repr(state)`` prints it,
``parse`` reads it back with precise errors, ``validate`` lists what is wrong with a
position that parses (invalid positions may be set up on purpose)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from games.base import RuleViolation
from games.lggwg.board import TERRAIN_CHARS, WALKABLE, Terrain, name, parse_square, unrle
from games.lggwg.notation_write import format_position
from games.lggwg.orders import check_orders, parse_orders
from games.lggwg.state import COLOURS, LggwgState, Mine, Phase, Team, Unit, Wear
from games.lggwg.units import UNITS

__all__ = ["FIELDS", "NotationError", "format_position", "parse", "validate"]

T = TypeVar("T")

FIELDS = ("map", "terrain", "phase", "flags", "order", "teams", "units", "mines", "wear", "orders", "memory")


class NotationError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def parse(text: str) -> LggwgState:
    parts = text.split()
    if len(parts) != len(FIELDS):
        raise NotationError("position", f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(parts)}")
    f = dict(zip(FIELDS, parts, strict=True))
    terrain = _terrain(f["terrain"])
    m = re.match(r"^(setup|orders|over):(\d+)/(\d+)(?::(\w+))?$", f["phase"])
    if not m:
        raise NotationError("phase", f"expected e.g. orders:3/30 or over:12/30:executive, got {f['phase']!r}")
    if f["flags"] not in ("flags", "noflags"):
        raise NotationError("flags", f"expected flags or noflags, got {f['flags']!r}")
    teams = _teams(f["teams"])
    seat_of = {t.colour: t.seat for t in teams}
    order = () if f["order"] == "-" else tuple(_seat(seat_of, c, "order") for c in f["order"].split(","))
    units = _units(f["units"], seat_of)
    mines = _mines(f["mines"], seat_of)
    wear = _wear(f["wear"])
    colours = {t.colour for t in teams}
    orders = _per_team(f["orders"], "orders", colours, parse_orders)
    memory = _per_team(f["memory"], "memory", colours, _memory)
    teams = tuple(
        replace(t, orders=orders.get(t.colour, t.orders), memory=memory.get(t.colour, t.memory)) for t in teams
    )
    return LggwgState(
        phase=Phase(m.group(1)), map="" if f["map"] == "custom" else f["map"], terrain=terrain,
        turn=int(m.group(2)), max_turns=int(m.group(3)), flag_game=f["flags"] == "flags",
        team_order=order, teams=teams, units=units, mines=mines, wear=wear, end=m.group(4) or "",
    )


def _terrain(text: str) -> tuple[str, ...]:
    if text == "-":
        return ()
    rows = []
    for i, row in enumerate(text.split("/"), start=1):
        try:
            decoded = unrle(row)
        except ValueError as exc:
            raise NotationError("terrain", f"row {i}: {exc}") from None
        bad = set(decoded) - TERRAIN_CHARS
        if bad:
            raise NotationError("terrain", f"row {i}: unknown terrain {''.join(sorted(bad))!r}")
        rows.append(decoded)
    if len({len(r) for r in rows}) != 1:
        raise NotationError("terrain", f"rows differ in length: {[len(r) for r in rows]}")
    return tuple(rows)


def _seat(seat_of: dict[str, int], colour: str, field: str) -> int:
    if colour == "X":
        return 0
    if colour not in seat_of:
        raise NotationError(field, f"no team {colour!r} (teams: {', '.join(seat_of) or 'none'})")
    return seat_of[colour]


_TEAM = re.compile(r"^([RBYG])=(\d+):(-?\d+):(\d+):(\d+):([a-z]+|-):([yn])$")


def _teams(text: str) -> tuple[Team, ...]:
    if text == "-":
        return ()
    teams = []
    for item in text.split(","):
        m = _TEAM.match(item)
        if not m:
            raise NotationError("teams", f"expected colour=seat:score:kills:sheep:out:submitted (R=1:0:0:0:-:n), got {item!r}")
        teams.append(Team(
            seat=int(m.group(2)), colour=m.group(1), score=int(m.group(3)), kills=int(m.group(4)),
            sheep=int(m.group(5)), out="" if m.group(6) == "-" else m.group(6), submitted=m.group(7) == "y",
        ))
    return tuple(teams)


_UNIT = re.compile(r"^(([RBYGX])\d+)=([A-Z])@([a-z]\d+):(\d+)/(\d+)(?:m(\d+))?$")


def _units(text: str, seat_of: dict[str, int]) -> tuple[Unit, ...]:
    if text == "-":
        return ()
    units = []
    for item in text.split(","):
        m = _UNIT.match(item)
        if not m:
            raise NotationError("units", f"expected id=type@square:hp/max (R1=E@c3:15/15, miners add m3), got {item!r}")
        if m.group(3) not in UNITS:
            raise NotationError("units", f"{item!r}: unknown unit type {m.group(3)!r} (types: {''.join(UNITS)})")
        x, y = parse_square(m.group(4))
        units.append(Unit(
            id=m.group(1), team=_seat(seat_of, m.group(2), "units"), kind=m.group(3), x=x, y=y,
            hp=int(m.group(5)), max_hp=int(m.group(6)), mines=int(m.group(7) or 0),
        ))
    return tuple(units)


def _mines(text: str, seat_of: dict[str, int]) -> tuple[Mine, ...]:
    if text == "-":
        return ()
    mines = []
    for item in text.split(","):
        m = re.match(r"^([a-z]\d+)([RBYG])$", item)
        if not m:
            raise NotationError("mines", f"expected a square and a team colour (c4R), got {item!r}")
        x, y = parse_square(m.group(1))
        mines.append(Mine(x, y, _seat(seat_of, m.group(2), "mines")))
    return tuple(mines)


def _wear(text: str) -> tuple[Wear, ...]:
    if text == "-":
        return ()
    wear = []
    for item in text.split(","):
        m = re.match(r"^([a-z]\d+):(\d+)$", item)
        if not m:
            raise NotationError("wear", f"expected square:damage (e5:2), got {item!r}")
        x, y = parse_square(m.group(1))
        wear.append(Wear(x, y, int(m.group(2))))
    return tuple(wear)


def _per_team(text: str, field: str, colours: set[str], read: Callable[[str], T]) -> dict[str, T]:
    """``colour:body;colour:body`` (or "-") read into each team's value, by colour."""
    if text == "-":
        return {}
    found: dict[str, T] = {}
    for item in text.split(";"):
        colour, _, body = item.partition(":")
        if colour not in colours:
            raise NotationError(field, f"no team {colour!r}")
        try:
            found[colour] = read(body)
        except ValueError as exc:
            raise NotationError(field, f"team {colour}: {exc}") from None
    return found


def _memory(body: str) -> tuple[str, ...]:
    return tuple(unrle(r) for r in body.split("/"))


def validate(state: LggwgState) -> list[str]:
    """What is wrong with a position (empty when it could arise in play)."""
    problems = []
    seats = [t.seat for t in state.teams]
    if len(set(seats)) != len(seats) or len({t.colour for t in state.teams}) != len(state.teams):
        problems.append("two teams share a seat or a colour")
    if any(t.colour not in COLOURS for t in state.teams):
        problems.append("team colours are R, B, Y and G")
    squares = set()
    for u in state.units:
        if not state.on_map(u.square):
            problems.append(f"{u.id} is off the map")
            continue
        if state.at(u.square) not in WALKABLE:
            problems.append(f"{u.id} stands on {state.at(u.square).name.lower()}")
        if u.square in squares:
            problems.append(f"two units on {name(u.square)}")
        squares.add(u.square)
        if not 1 <= u.hp <= u.max_hp:
            problems.append(f"{u.id} has {u.hp} of {u.max_hp} hit points")
        if u.kind != "G" and u.max_hp != UNITS[u.kind].hp:
            problems.append(f"{u.id}: a {UNITS[u.kind].name} has {UNITS[u.kind].hp} hit points at most")
        if (u.team == 0 and u.kind not in "GW") or (u.kind == "W" and u.team) or (u.team == 0) != u.id.startswith("X"):
            problems.append(f"{u.id}: only flags and sheep are neutral, and their ids begin with X")
        team = state.team(u.team)
        if u.team and (team is None or not u.id.startswith(team.colour)):
            problems.append(f"{u.id} does not belong to a team of that colour")
        if u.team and team is not None and team.out and u.kind != "G":
            problems.append(f"{u.id} belongs to a team that is out")
    if len({u.id for u in state.units}) != len(state.units):
        problems.append("two units share an id")
    for m in state.mines:
        if not state.on_map(m.square) or state.at(m.square) not in WALKABLE:
            problems.append(f"a mine at {name(m.square)} is not on walkable ground")
        if state.team(m.team) is None:
            problems.append(f"the mine at {name(m.square)} belongs to no team")
    if len({m.square for m in state.mines}) != len(state.mines):
        problems.append("two mines on one square")
    for w in state.wear:
        if not state.on_map((w.x, w.y)) or state.at((w.x, w.y)) not in (Terrain.LOCKED_DOOR, Terrain.NUCLEAR_CRATE):
            problems.append(f"wear at {name((w.x, w.y))} is not on a locked door or nuclear crate")
        elif not 0 < w.damage < 5:
            problems.append(f"wear at {name((w.x, w.y))} must be 1 to 4")
    if state.phase is Phase.ORDERS:
        living = sorted(t.seat for t in state.teams if not t.out)
        if sorted(state.team_order) != living:
            problems.append("the team order must list each team still in, once")
        for t in state.teams:
            if not t.out and not any(u.kind == "E" for u in state.units_of(t.seat)):
                problems.append(f"team {t.colour} is in without an Executive")
    if state.turn > state.max_turns:
        problems.append(f"turn {state.turn} is past the last turn {state.max_turns}")
    for t in state.teams:
        if t.memory and (len(t.memory) != state.height or any(len(r) != state.width for r in t.memory)):
            problems.append(f"the memory of team {t.colour} is not the size of the map")
        if t.orders and not t.submitted:
            problems.append(f"team {t.colour} has orders but has not submitted")
        if state.phase is Phase.ORDERS and t.submitted and not t.out:
            try:
                check_orders(state, t.seat, t.orders)
            except RuleViolation as exc:
                problems.append(f"the list of team {t.colour} is refused: {exc.message}")
    return problems
