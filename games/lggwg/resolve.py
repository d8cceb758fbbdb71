"""§3 resolution: sheep first, then the first order of each team in team order, then the
second of each, and so on; an order that cannot be executed becomes a hold."""

from __future__ import annotations

from games.lggwg import events as ev
from games.lggwg.board import DIRECTION_NAMES, Square, name, parse_square, step
from games.lggwg.combat import fire, in_range_aim
from games.lggwg.damage import forfeit, settle
from games.lggwg.movement import arrive, walkable
from games.lggwg.outcome import Outcome
from games.lggwg.sight import mine_obscured, seen_by, unit_sight
from games.lggwg.state import Order, StepRecord, Unit


def resolve(o: Outcome) -> None:
    _sheep(o)
    lists = {t.seat: t.orders for t in o.state.teams if not t.out}
    next_of = dict.fromkeys(lists, 0)
    number = 0
    while True:
        acted = False
        for seat in o.state.team_order:
            team = o.state.team(seat)
            if team is None or team.out or seat not in lists:
                continue
            while next_of[seat] < len(lists[seat]):
                order = lists[seat][next_of[seat]]
                next_of[seat] += 1
                number += 1
                acted = True
                if not execute(o, seat, order, number):
                    break
                team = o.state.team(seat)
                if team is None or team.out:
                    break
        if not acted:
            return


def _sheep(o: Outcome) -> None:
    """§4 Sheep: before any team moves, each sheep (in id order) draws one of 8 directions
    and steps there if it can (L-R9)."""
    for sheep in sorted((u for u in o.state.units if u.kind == "W"), key=lambda u: u.id):
        here = o.state.unit(sheep.id)
        if here is None:
            continue
        to = step(here.square, DIRECTION_NAMES[o.dice.roll(f"sheep {here.id} direction", 0, 7)])
        if not walkable(o.state, here.square, to):
            continue
        before = seen_by(o.state, (here.square,))
        o.emit(ev.SheepStepped(here.id, to, tuple(sorted(set(before) | set(seen_by(_moved(o, here, to), (to,)))))))
        arrive(o, here.id)


def _moved(o: Outcome, unit: Unit, to: Square):  # noqa: ANN202
    return o.state.with_unit(unit.id, x=to[0], y=to[1])


def execute(o: Outcome, seat: int, order: Order, number: int) -> bool:
    """Run one order; True when it was an opportunity fire with no target, which §2 says
    to ignore and do the next order instead (L-R15)."""
    start = len(o.events)
    unit = o.state.unit(order.unit) if order.unit else None
    executed, note, skipped = True, "", False
    if not _well_formed(order):  # only a position loaded on purpose can hold such an order
        executed, note = False, "not an order: hold"
    elif order.kind == "hold":
        note = "hold"
    elif order.kind == "forfeit":
        forfeit(o, seat)
        note = "forfeit"
    elif unit is None or unit.team != seat:
        executed, note = False, "the unit is dead: hold"
    elif order.kind == "move":
        executed = _move(o, unit, order.target)
        note = "" if executed else "blocked: hold"
    elif order.kind == "fire":
        aim = in_range_aim(unit.square, parse_square(order.target), unit.type.range)
        if aim == unit.square:
            executed, note = False, "no line to fire along: hold"
        else:
            if aim != parse_square(order.target):
                note = f"out of range: fired at {name(aim)}"
            fire(o, unit, aim)
    elif order.kind == "opp":
        target = pick_target(o, unit)
        if target is None:
            executed, note, skipped = False, "no target: next order", True
        else:
            note = f"fired at {target.id}"
            fire(o, unit, target.square)
    elif order.kind == "oppmove":
        target = pick_target(o, unit)
        if target is not None:
            fire(o, unit, target.square)
        mover = o.state.unit(unit.id)
        moved = mover is not None and _move(o, mover, order.target)
        executed = target is not None or moved
        note = (f"fired at {target.id}" if target else "no target") + ("" if moved else "; blocked")
    elif order.kind == "mine":
        if o.state.mine_at(unit.square) is not None or unit.mines < 1:
            executed, note = False, "cannot place a mine here: hold"
        else:
            seen = seen_by(o.state, (unit.square,), (seat,))
            o.emit(ev.MinePlaced(unit.id, unit.square, seat, seen))
    settle(o)
    _record(o, start, seat, order, number, executed, note)
    return skipped


def _well_formed(order: Order) -> bool:
    if order.kind in ("move", "oppmove"):
        return order.target in DIRECTION_NAMES
    if order.kind == "fire":
        try:
            parse_square(order.target)
        except ValueError:
            return False
    return order.kind in ("fire", "opp", "hold", "mine", "forfeit")


def _move(o: Outcome, unit: Unit, direction: str) -> bool:
    to = step(unit.square, direction)
    if not walkable(o.state, unit.square, to):
        return False
    before = seen_by(o.state, (unit.square,), (unit.team,))
    after = seen_by(_moved(o, unit, to), (to,))
    o.emit(ev.UnitMoved(unit.id, to, tuple(sorted(set(before) | set(after)))))
    arrive(o, unit.id)
    return True


def pick_target(o: Outcome, unit: Unit) -> Unit | None:
    """§2 Opportunity fire: an enemy soldier this unit sees and can reach; an Executive
    before anyone else, then those not seen across a mine (footnote); random among the
    first group that is not empty (L-R16)."""
    sight = unit_sight(o.state, unit)
    enemies = [
        u for u in o.state.units
        if u.team and u.team != unit.team and u.type.soldier and u.square in sight
        and max(abs(u.x - unit.x), abs(u.y - unit.y)) <= unit.type.range
    ]
    tiers = (
        [u for u in enemies if u.kind == "E" and not mine_obscured(o.state, unit.square, u.square)],
        [u for u in enemies if u.kind == "E"],
        [u for u in enemies if not mine_obscured(o.state, unit.square, u.square)],
        enemies,
    )
    for tier in tiers:
        if tier:
            tier = sorted(tier, key=lambda u: u.id)
            if len(tier) == 1:
                return tier[0]
            return tier[o.dice.roll(f"{unit.id} opportunity target", 0, len(tier) - 1)]
    return None


def _record(o: Outcome, start: int, seat: int, order: Order, number: int, executed: bool, note: str) -> None:
    seen = {seat}
    paths = []
    for event in o.events[start:]:
        seen |= set(getattr(event, "seen_by", ()))
        if isinstance(event, ev.ShotFired):
            paths.append(tuple(name(sq) for sq in event.path))
    record = StepRecord(
        step=number, team=seat, unit=order.unit, kind=order.kind, target=order.target,
        executed=executed, note=note, paths=tuple(paths), seen_by=tuple(sorted(seen)),
    )
    o.emit(ev.OrderResolved(record))
