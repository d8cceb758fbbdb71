"""A plain bot (the ``bot`` deadline policy, the fuzz tests, an HTTP bot client): a legal
order list for one team from what that team sees, with dice for its random choices.

``bot_orders(state, seat, dice)`` reads the position; ``bot_orders_from_view(view, dice)``
reads the JSON a seat is shown (``RULESET.view(state, Viewer.for_seat(seat))``), so a
client playing over HTTP writes the same list. Both see exactly the same things."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.dice import Dice
from games.lggwg.board import DIRECTION_NAMES, DIRECTIONS, Square, distance, line_squares, name
from games.lggwg.sight import team_sight
from games.lggwg.state import LggwgState, Order
from games.lggwg.units import UNITS


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


def plan(own: Iterable[Known], enemies: Iterable[Known], dice: Dice) -> tuple[Order, ...]:
    """Each soldier (in id order): fire at the nearest enemy in sight when it is in range and
    no unit of ours is in the way, then step toward it; else step toward it (or a random
    way) with an opportunity move. The Executive stays put (shooting or on opportunity
    fire); Miners step or stab, and mine."""
    own = sorted((u for u in own if UNITS[u.kind].soldier), key=lambda u: u.id)
    enemies = sorted(enemies, key=lambda u: u.id)
    ours = {u.square for u in own}
    orders: list[Order] = []
    for unit in own:
        kind = UNITS[unit.kind]
        near = min(enemies, key=lambda e: (distance(unit.square, e.square), e.id), default=None)
        clear = near is not None and not any(sq in ours for sq in line_squares(unit.square, near.square)[:-1])

        def way(unit: Known = unit, near: Known | None = near) -> str:
            if near is not None and near.square != unit.square:
                return _toward(unit.square, near.square)
            return DIRECTION_NAMES[dice.roll(f"bot {unit.id} direction", 0, 7)]

        in_range = near is not None and distance(unit.square, near.square) <= kind.range
        if unit.kind == "N":
            orders.append(Order("fire", unit.id, name(near.square)) if in_range else Order("move", unit.id, way()))
            if unit.mines:
                orders.append(Order("mine", unit.id))
        elif in_range and clear:
            orders.append(Order("fire", unit.id, name(near.square)))
            if unit.kind != "E":
                orders.append(Order("move", unit.id, way()))
        elif unit.kind == "E":
            orders.append(Order("opp", unit.id))
        else:
            orders.append(Order("oppmove", unit.id, way()))
    return tuple(orders) or (Order("hold"),)


def bot_orders(state: LggwgState, seat: int, dice: Dice) -> tuple[Order, ...]:
    team = state.team(seat)
    if team is None or team.out:
        return ()
    sight = team_sight(state, seat)
    own = [Known(u.id, u.kind, u.square, u.mines) for u in state.units_of(seat)]
    enemies = [
        Known(u.id, u.kind, u.square) for u in state.units
        if u.team and u.team != seat and u.type.soldier and u.square in sight
    ]
    return plan(own, enemies, dice)


def bot_orders_from_view(view: Mapping[str, Any], dice: Dice) -> list[dict[str, str]]:
    """The same list from a seat's view, as the JSON body of ``SubmitOrders``."""
    you = view["you"]
    known = [
        (u["team"], Known(u["id"], u["type"], (u["x"], u["y"]), u.get("mines", 0))) for u in view["units"]
    ]
    own = [k for team, k in known if team == you]
    enemies = [k for team, k in known if team not in (you, 0) and UNITS[k.kind].soldier]
    return [{"kind": o.kind, "unit": o.unit, "target": o.target} for o in plan(own, enemies, dice)]
