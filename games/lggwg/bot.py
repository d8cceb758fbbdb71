"""A plain bot (the ``bot`` deadline policy, the fuzz tests, an HTTP bot client): a legal
order list for one team from what that team sees, with dice for its random choices."""

from __future__ import annotations

from games.dice import Dice
from games.lggwg.board import DIRECTION_NAMES, DIRECTIONS, distance, line_squares, name
from games.lggwg.sight import team_sight
from games.lggwg.state import LggwgState, Order, Unit


def _toward(unit: Unit, target: tuple[int, int]) -> str:
    dx = (target[0] > unit.x) - (target[0] < unit.x)
    dy = (target[1] > unit.y) - (target[1] < unit.y)
    return next(d for d, v in DIRECTIONS.items() if v == (dx, dy))


def bot_orders(state: LggwgState, seat: int, dice: Dice) -> tuple[Order, ...]:
    """Each soldier (in id order): fire at the nearest enemy the team sees when it is in
    range and no unit of ours is in the way, then step toward it; else step toward it (or a
    random way) with an opportunity move. The Executive stays put (shooting or on
    opportunity fire); Miners step or stab, and mine."""
    team = state.team(seat)
    if team is None or team.out:
        return ()
    sight = team_sight(state, seat)
    enemies = [u for u in state.units if u.team and u.team != seat and u.type.soldier and u.square in sight]
    own = {u.square for u in state.units_of(seat)}

    def clear(unit: Unit, target: Unit) -> bool:
        """No unit of ours stands on the line (what the bot may know: its own units)."""
        return not any(sq in own for sq in line_squares(unit.square, target.square)[:-1])

    orders: list[Order] = []
    for unit in sorted(state.units_of(seat), key=lambda u: u.id):
        if not unit.type.soldier:
            continue
        near = min(enemies, key=lambda e: (distance(unit.square, e.square), e.id), default=None)

        def way(unit: Unit = unit, near: Unit | None = near) -> str:
            if near is not None and near.square != unit.square:
                return _toward(unit, near.square)
            return DIRECTION_NAMES[dice.roll(f"bot {unit.id} direction", 0, 7)]

        if unit.kind == "N":
            if near is not None and distance(unit.square, near.square) <= 1:
                orders.append(Order("fire", unit.id, name(near.square)))
            else:
                orders.append(Order("move", unit.id, way()))
            if unit.mines:
                orders.append(Order("mine", unit.id))
        elif near is not None and distance(unit.square, near.square) <= unit.type.range and clear(unit, near):
            orders.append(Order("fire", unit.id, name(near.square)))
            if unit.kind != "E":
                orders.append(Order("move", unit.id, way()))
        elif unit.kind == "E":
            orders.append(Order("opp", unit.id))
        else:
            orders.append(Order("oppmove", unit.id, way()))
    return tuple(orders) or (Order("hold"),)
