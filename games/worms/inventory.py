"""Inventories as tuples of ``Stock``: adding, taking and counting ammo units."""

from __future__ import annotations

from games.dice import Dice
from games.worms.items import ITEMS
from games.worms.state import Stock


def add(inventory: tuple[Stock, ...], items: tuple[Stock, ...]) -> tuple[Stock, ...]:
    out = list(inventory)
    for gained in items:
        for i, held in enumerate(out):
            if held.item == gained.item:
                if held.count is not None:
                    count = None if gained.count is None else held.count + gained.count
                    out[i] = Stock(held.item, count)
                break
        else:
            out.append(gained)
    return tuple(out)


def take(inventory: tuple[Stock, ...], item: str, units: int = 1) -> tuple[Stock, ...]:
    out: list[Stock] = []
    for held in inventory:
        if held.item == item and held.count is not None:
            left = held.count - units
            if left > 0:
                out.append(Stock(item, left))
        else:
            out.append(held)
    return tuple(out)


def units(inventory: tuple[Stock, ...]) -> tuple[str, ...]:
    """Every ammo unit that can be lost to a donor card (§9): not prods or handguns,
    nothing unlimited, in inventory order."""
    out: list[str] = []
    for held in inventory:
        spec = ITEMS.get(held.item)
        if held.count is None or (spec is not None and spec.free):
            continue
        out.extend([held.item] * held.count)
    return tuple(out)


def bundle(items: tuple[str, ...]) -> tuple[Stock, ...]:
    """Units -> stocks, keeping first-seen order."""
    out: tuple[Stock, ...] = ()
    for item in items:
        out = add(out, (Stock(item, 1),))
    return out


def draw_units(dice: Dice, inventory: tuple[Stock, ...], count: int, purpose: str) -> tuple[Stock, ...]:
    """§9: ``count`` ammo units of the inventory, each unit equally likely, without
    replacement (W-R16): a donor card's two, the old woman's three."""
    pool = list(units(inventory))
    taken: list[str] = []
    for _ in range(count):
        if not pool:
            break
        taken.append(pool.pop(dice.roll(purpose, 0, len(pool) - 1)))
    return bundle(tuple(taken))
