"""Version 1's deadline bot, kept as it was so that games of ruleset version 1 verify: it
does not look whether a shot could hurt its own team (``bot`` is the current one).

Only its plan is its own: the unit it knows and the step toward a square are ``bot``'s."""

from __future__ import annotations

from collections.abc import Iterable

from games.dice import Dice
from games.lggwg.board import DIRECTION_NAMES, distance, line_squares, name
from games.lggwg.bot import Known, _toward, sighted
from games.lggwg.state import LggwgState, Order
from games.lggwg.units import UNITS


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
    known = sighted(state, seat)
    return plan(known.own, known.enemies, dice)
