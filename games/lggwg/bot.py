"""A plain bot (the ``bot`` deadline policy, the fuzz tests, an HTTP bot client): a legal
order list for one team from what that team sees, with dice for its random choices.

``bot_orders(state, seat, dice)`` reads the position; ``bot_orders_from_view(view, dice)``
reads the JSON a seat is shown (``RULESET.view(state, Viewer.for_seat(seat))``), so a
client playing over HTTP writes the same list. Both see exactly the same things: the units
in sight and the terrain as the team knows it.

It never aims where its own team could be hit (L-R14): a shot is left out when one of its
units could stand, at the moment the shot resolves, on the bullet's line, where a shell may
land or splash, or where a fireball flies or floods. Its Max and Firebot do not take
opportunity fire (they cannot choose where it goes). It steps around the mines it knows
of. Games of version 1 keep the first bot, which did not look (``bot_v1``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.dice import Dice
from games.lggwg.board import (
    DIRECTION_NAMES,
    DIRECTIONS,
    HARD,
    SOLID,
    Square,
    Terrain,
    distance,
    line,
    name,
    neighbours,
    step,
)
from games.lggwg.sight import UNKNOWN, remember, team_sight
from games.lggwg.state import LggwgState, Order
from games.lggwg.units import FIRE_RADIUS, UNITS

AREA_WEAPONS = ("shells", "fireball")


@dataclass(frozen=True)
class Known:
    """A unit as the bot knows it."""

    id: str
    kind: str
    square: Square
    mines: int = 0


def _toward(frm: Square, to: Square) -> str:
    dx = (to[0] > frm[0]) - (to[0] < frm[0])
    dy = (to[1] > frm[1]) - (to[1] < frm[1])
    return next(d for d, v in DIRECTIONS.items() if v == (dx, dy))


class KnownTerrain:
    """The terrain as the team knows it: ``rows`` of terrain characters, ``?`` where it
    never looked (which might be anything)."""

    def __init__(self, rows: Sequence[str]) -> None:
        self.rows = rows

    def _at(self, square: Square) -> str | None:
        x, y = square
        if 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]):
            return self.rows[y][x]
        return None  # off the map

    def stops_bullet(self, square: Square) -> bool:
        char = self._at(square)
        return char is None or char == UNKNOWN or Terrain(char) in SOLID

    def stops_fire(self, square: Square) -> bool:
        char = self._at(square)
        return char is None or char == UNKNOWN or Terrain(char) in HARD


def _line(frm: Square, to: Square, units: set[Square], terrain: KnownTerrain) -> tuple[set[Square], list[Square]]:
    """The squares a bullet or shell from ``frm`` to ``to`` may touch, and where it may stop:
    at ``to``, or sooner at a unit or at terrain that stops bullets (as ``combat.bullet_path``).
    Taken whole, as if every stop could give way (a unit steps aside, a crate is shot away)."""
    touched: set[Square] = set()
    stops = [to]
    for sq, sides in line(frm, to):
        touched |= {sq, *sides}
        if sides and all(s in units or terrain.stops_bullet(s) for s in sides):
            stops.append(sides[0])
        if sq in units or terrain.stops_bullet(sq):
            stops.append(sq)
    return touched, stops


def danger(weapon: str, frm: Square, aim: Square, units: set[Square], terrain: KnownTerrain) -> set[Square]:
    """The squares a shot of ``weapon`` from ``frm`` at ``aim`` may hurt (``units``: where
    units stand now, which stop bullets and shells)."""
    if weapon == "shells":  # three shells, on the aim or one of the 8 around, each splashing the 8 around
        hurt: set[Square] = set()
        for landing in (aim, *neighbours(aim)):
            touched, stops = _line(frm, aim if landing == frm else landing, units, terrain)
            hurt |= touched
            for stop in stops:
                hurt |= {stop, *neighbours(stop)}
        return hurt
    if weapon == "fireball":  # through units, stopped by hard things, then a flood from where it stopped
        hurt = set()
        before, ends = frm, [aim]
        for sq, sides in line(frm, aim):
            hurt |= {sq, *sides}
            if (sides and all(terrain.stops_fire(s) for s in sides)) or terrain.stops_fire(sq):
                ends.append(before)
            before = sq
        for end in ends:
            if end != frm:
                hurt |= {end, *neighbours(end, FIRE_RADIUS)}
        return hurt
    return _line(frm, aim, units, terrain)[0]


def _clear_way(unit: Known, way: str, mines: Mapping[Square, bool]) -> str | None:
    """``way``, or the direction on either side of it, whichever first leads onto no mine
    the team knows of (a Miner walks over its own team's); None if all three are mined."""
    if not way:
        return None
    turn = DIRECTION_NAMES.index(way)
    for direction in (way, DIRECTION_NAMES[(turn - 1) % 8], DIRECTION_NAMES[(turn + 1) % 8]):
        ours = mines.get(step(unit.square, direction))
        if ours is None or (ours and unit.kind == "N"):
            return direction
    return None


def plan(own: Iterable[Known], enemies: Iterable[Known], dice: Dice, rows: Sequence[str] = (),
         others: Iterable[Known] = (), mines: Iterable[tuple[Square, bool]] = ()) -> tuple[Order, ...]:
    """Each soldier (in id order): fire at the nearest enemy in sight when it is in range and
    the shot cannot hurt a unit of ours, then step toward it; else step toward it (or a
    random way), with an opportunity move where its weapon only hits what it aims at. The
    Executive stays put (shooting or on opportunity fire); Miners step or stab, and mine.

    The orders resolve in list order (other teams' between them), so when a soldier's shot
    resolves, the soldiers before it in the list may already have stepped and those after
    it have not: each shot is checked against both squares of the first, the current square
    of the others (and of the shooter, for a shell) and the team's flags. ``others`` are the
    flags and sheep in sight: they stop shells too, and a sheep steps before anyone (L-R9).

    No soldier steps onto a mine the team knows of (``mines``: its own team's, ``True``,
    and those it sees): it steps to one side of it, or stays."""
    team = list(own)
    flags = {u.square for u in team if not UNITS[u.kind].soldier}  # ours too, and they stay put
    own = sorted((u for u in team if UNITS[u.kind].soldier), key=lambda u: u.id)
    enemies = sorted(enemies, key=lambda u: u.id)
    terrain = KnownTerrain(rows)
    mined = dict(mines)
    standing = {u.square for u in own} | {e.square for e in enemies}
    for other in others:
        standing |= {other.square, *(neighbours(other.square) if other.kind == "W" else ())}
    stepped: set[Square] = set()  # squares our soldiers earlier in the list may have stepped to
    orders: list[Order] = []
    for i, unit in enumerate(own):
        kind = UNITS[unit.kind]
        near = min(enemies, key=lambda e: (distance(unit.square, e.square), e.id), default=None)
        if near is not None and near.square != unit.square:
            way = _toward(unit.square, near.square)
        else:
            way = DIRECTION_NAMES[dice.roll(f"bot {unit.id} direction", 0, 7)] if unit.kind != "E" else ""
        way = _clear_way(unit, way, mined) or ""
        ours = flags | stepped | {u.square for u in own[i + 1:]} | {u.square for u in own[:i]}
        if kind.weapon == "shells":
            ours.add(unit.square)  # a shell's splash hits its Max too; a Firebot does not burn itself (L-R7)
        # The nearest enemy in range whose shot cannot hurt us (the nearest is chased either way).
        target = next((e for e in sorted(enemies, key=lambda e: (distance(unit.square, e.square), e.id))
                       if distance(unit.square, e.square) <= kind.range
                       and not danger(kind.weapon, unit.square, e.square, standing, terrain) & ours), None)
        # Opportunity fire picks its target when it resolves: any enemy it sees in range then.
        # Only where no enemy in sight within a step of its range could draw a shot that hurts us.
        watchful = kind.weapon not in AREA_WEAPONS and not any(
            danger(kind.weapon, unit.square, e.square, standing, terrain) & ours
            for e in enemies if distance(unit.square, e.square) <= kind.range + 1)
        first = len(orders)  # this soldier's orders start here
        if unit.kind == "N":
            if target is not None:
                orders.append(Order("fire", unit.id, name(target.square)))
            elif way:
                orders.append(Order("move", unit.id, way))
            if unit.mines:
                orders.append(Order("mine", unit.id))
        elif target is not None:
            orders.append(Order("fire", unit.id, name(target.square)))
            if unit.kind != "E" and way:
                orders.append(Order("move", unit.id, way))
        elif unit.kind == "E" or not way:
            orders.append(Order("opp", unit.id) if watchful else Order("hold", unit.id))
        else:
            orders.append(Order("oppmove" if watchful else "move", unit.id, way))
        stepped |= {step(unit.square, o.target) for o in orders[first:] if o.kind in ("move", "oppmove")}
    return tuple(orders) or (Order("hold"),)


@dataclass(frozen=True)
class Sighted:
    """What a team knows of the units: its own, the enemy soldiers it sees, and the flags and
    sheep it sees (or owns)."""

    own: list[Known]
    enemies: list[Known]
    others: list[Known]
    sight: frozenset[Square]


def sighted(state: LggwgState, seat: int) -> Sighted:
    sight = team_sight(state, seat)
    return Sighted(
        own=[Known(u.id, u.kind, u.square, u.mines) for u in state.units_of(seat)],
        enemies=[Known(u.id, u.kind, u.square) for u in state.units
                 if u.team and u.team != seat and u.type.soldier and u.square in sight],
        others=[Known(u.id, u.kind, u.square) for u in state.units
                if not u.type.soldier and (u.team == seat or u.square in sight)],
        sight=sight,
    )


def bot_orders(state: LggwgState, seat: int, dice: Dice) -> tuple[Order, ...]:
    team = state.team(seat)
    if team is None or team.out:
        return ()
    known = sighted(state, seat)
    mines = [(m.square, m.team == seat) for m in state.mines if m.team == seat or m.square in known.sight]
    return plan(known.own, known.enemies, dice, remember(state, seat, team.memory), known.others, mines)


def bot_orders_from_view(view: Mapping[str, Any], dice: Dice) -> list[dict[str, str]]:
    """The same list from a seat's view, as the JSON body of ``SubmitOrders``."""
    you = view["you"]
    known = [
        (u["team"], Known(u["id"], u["type"], (u["x"], u["y"]), u.get("mines", 0))) for u in view["units"]
    ]
    own = [k for team, k in known if team == you]
    enemies = [k for team, k in known if team not in (you, 0) and UNITS[k.kind].soldier]
    others = [k for _, k in known if not UNITS[k.kind].soldier]
    mines = [((m["x"], m["y"]), m["team"] == you) for m in view.get("mines") or ()]
    orders = plan(own, enemies, dice, view.get("squares") or (), others, mines)
    return [{"kind": o.kind, "unit": o.unit, "target": o.target} for o in orders]
