"""Order lists: the text form (notation and the case catalogue) and the checks a list must
pass when it is sent (§2).

Text form, one order per item, items separated by commas (docs/notation-lggwg.md):
``R1>N`` move north, ``R1*e7`` fire at e7, ``R1*`` opportunity fire, ``R1*>N`` opportunity
move north, ``R1+`` place a mine, ``-`` or ``R1-`` hold, ``!`` forfeit."""

from __future__ import annotations

import re
from collections import Counter

from games.base import RuleViolation
from games.lggwg.board import DIRECTIONS, parse_square
from games.lggwg.notation_write import format_order, format_orders
from games.lggwg.state import LggwgState, Order
from games.lggwg.units import MAX_ORDERS

__all__ = ["KINDS", "check_orders", "format_order", "format_orders", "parse_order", "parse_orders"]

KINDS = ("move", "fire", "opp", "oppmove", "hold", "mine", "forfeit")
_ITEM = re.compile(r"^(?:(?P<unit>[A-Z]\d+))?(?P<rest>.*)$")


def parse_order(text: str) -> Order:
    text = text.strip()
    m = _ITEM.match(text)
    unit, rest = (m.group("unit") or ""), m.group("rest") if m else text
    if rest == "!" and not unit:
        return Order("forfeit")
    if rest == "-":
        return Order("hold", unit)
    if unit and rest == "+":
        return Order("mine", unit)
    if unit and rest == "*":
        return Order("opp", unit)
    if unit and rest.startswith("*>"):
        return Order("oppmove", unit, rest[2:])
    if unit and rest.startswith(">"):
        return Order("move", unit, rest[1:])
    if unit and rest.startswith("*"):
        return Order("fire", unit, rest[1:])
    raise ValueError(
        f"{text!r} is not an order (R1>N move, R1*e7 fire, R1* opportunity fire, R1*>N opportunity "
        "move, R1+ mine, - hold, ! forfeit)"
    )


def parse_orders(text: str) -> tuple[Order, ...]:
    return tuple(parse_order(item) for item in text.split(",")) if text.strip() else ()


def check_orders(state: LggwgState, seat: int, orders: tuple[Order, ...]) -> None:
    """Everything that can be known when the list is sent (L-R13). Whether a move is
    blocked or a unit is dead is only known at resolution: then the order is a hold."""
    if len(orders) > MAX_ORDERS:
        raise RuleViolation("§2", f"A list may hold at most {MAX_ORDERS} orders; this one has {len(orders)}.")
    moves: Counter[str] = Counter()
    shots: Counter[str] = Counter()
    mines: Counter[str] = Counter()
    for i, order in enumerate(orders, start=1):
        where = f"Order {i}"
        if order.kind not in KINDS:
            raise RuleViolation("§2", f"{where}: {order.kind!r} is not an order (orders: {', '.join(KINDS)}).")
        if order.kind == "forfeit":
            if order.unit or order.target:
                raise RuleViolation("§2", f"{where}: a forfeit is given by the team, not a unit.")
            if i != len(orders):
                raise RuleViolation("§2", f"{where}: a forfeit must be the last order of the list.")
            continue
        if order.kind == "hold" and not order.unit:
            if order.target:
                raise RuleViolation("§2", f"{where}: a hold has no target.")
            continue
        unit = state.unit(order.unit)
        if unit is None or unit.team != seat or not unit.type.soldier:
            raise RuleViolation("§2", f"{where}: {order.unit or 'no unit'} is not a living unit of your team.")
        name = unit.type.name
        if order.kind in ("move", "oppmove") and order.target not in DIRECTIONS:
            raise RuleViolation("§2", f"{where}: a move goes one step N, NE, E, SE, S, SW, W or NW, not {order.target!r}.")
        if order.kind == "fire":
            try:
                square = parse_square(order.target)
            except ValueError as exc:
                raise RuleViolation("§2", f"{where}: {exc}.") from None
            if not state.on_map(square):
                raise RuleViolation("§2", f"{where}: {order.target} is not on the map.")
        if order.kind in ("opp", "hold", "mine") and order.target:
            raise RuleViolation("§2", f"{where}: this order has no target.")
        if order.kind in ("opp", "oppmove") and unit.kind == "N":
            raise RuleViolation("§4", f"{where}: Miners may not use opportunity fire.")
        if order.kind == "mine":
            if unit.kind != "N":
                raise RuleViolation("§4", f"{where}: only Miners place mines; {order.unit} is a {name}.")
            mines[unit.id] += 1
            if mines[unit.id] > min(1, unit.mines):
                raise RuleViolation("§4", f"{where}: {unit.id} can place {min(1, unit.mines)} mine this turn.")
        if order.kind in ("move", "oppmove"):
            moves[unit.id] += 1
            if moves[unit.id] > unit.type.speed:
                raise RuleViolation("§4", f"{where}: a {name} moves at most {unit.type.speed} times a turn.")
        if order.kind in ("fire", "opp", "oppmove"):
            shots[unit.id] += 1
            if shots[unit.id] > 1:
                raise RuleViolation("§4", f"{where}: {unit.id} fires once a turn.")
