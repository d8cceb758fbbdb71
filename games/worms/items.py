"""Every weapon and utility of §5 with the numbers of §6 and §9, keyed by name.

The registry is the one place later issues extend (the full arsenal, utilities); an
inventory is a tuple of ``Stock(item, count)`` where ``count`` None means unlimited.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Category(enum.StrEnum):
    STANDARD = "standard"
    TEAM = "team"
    SUPER = "super"
    UTILITY = "utility"


@dataclass(frozen=True)
class ItemSpec:
    name: str
    title: str
    category: Category
    #: §6 price in points; None if it cannot be bought.
    price: int | None = None
    #: §9 ammo in a crate (1 unless the table says otherwise).
    crate_ammo: int = 1
    #: §5 RNG / HGT (None = ALL).
    reach: int | None = None
    height_up: int | None = None
    height_down: int | None = None
    straight_only: bool = False
    #: shots a team may take with it in one turn (§7: shotgun, longbow, mad cow).
    shots: int = 1
    #: extra retreat squares after using it (§5 mine, dynamite).
    retreat: int = 0
    #: never in crates or donor cards, unlimited for everyone (§5 prod, handgun).
    free: bool = False


def _w(name: str, title: str, category: Category, **kw: object) -> ItemSpec:
    return ItemSpec(name=name, title=title, category=category, **kw)  # type: ignore[arg-type]


S, T, X, U = Category.STANDARD, Category.TEAM, Category.SUPER, Category.UTILITY

ITEMS: dict[str, ItemSpec] = {
    spec.name: spec
    for spec in (
        _w("prod", "Prod", S, reach=1, height_up=0, height_down=1, straight_only=True, free=True),
        _w("handgun", "Handgun", S, reach=8, height_up=3, height_down=3, straight_only=True, free=True),
        _w("bazooka", "Bazooka", S, price=3, crate_ammo=3, reach=3, height_up=4),
        _w("grenade", "Grenade", S, price=4, crate_ammo=3, reach=3, height_up=4),
        _w("shotgun", "Shotgun", S, price=4, reach=8, height_up=3, height_down=3, straight_only=True, shots=2),
        _w("longbow", "Longbow", S, price=6, reach=8, height_up=3, height_down=3, straight_only=True, shots=2),
        _w("fire_punch", "Fire Punch", S, price=3, crate_ammo=2, reach=1, height_up=5, height_down=0),
        _w("kamikaze", "Kamikaze", S, price=7, reach=7, height_up=3, height_down=3, straight_only=True),
        _w("mine", "Mine", S, price=4, crate_ammo=2, reach=1, height_up=0, retreat=2),
        _w("dynamite", "Dynamite", S, price=10, reach=1, height_up=0, retreat=2),
        _w("sheep", "Sheep", S, price=12, reach=15, straight_only=True),
        _w("air_strike", "Air Strike", S, price=10),
        _w("homing_missile", "Homing Missile", S, price=8),
        _w("gas_grenade", "Gas Grenade", S, price=6, crate_ammo=2, reach=3, height_up=4),
        _w("super_sheep", "Super Sheep", T),
        _w("mad_cow", "Mad Cow", T, crate_ammo=2, reach=15, height_up=0, straight_only=True, shots=4),
        _w("old_woman", "Old Woman", T, reach=7, height_up=0, straight_only=True),
        _w("minigun", "Minigun", T, reach=3, height_up=2, height_down=2, straight_only=True),
        _w("holy_hand_grenade", "Holy Hand-Grenade", T, reach=4, height_up=4),
        _w("nuclear_bomb", "Nuclear Bomb", X),
        _w("armageddon", "Armageddon", X),
        _w("concrete_donkey", "Concrete Donkey", X),
        _w("super_banana_bomb", "Super Banana Bomb", X, reach=4, height_up=4),
        _w("sheep_strike", "Sheep Strike", X),
        _w("scales_of_justice", "Scales of Justice", X),
        _w("ninja_rope", "Ninja Rope", U, price=5, crate_ammo=3),
        _w("fast_walk", "Fast Walk", U, price=8),
        _w("teleport", "Teleport", U, price=5),
        _w("bubble_trouble", "Bubble Trouble", U, price=12),
        _w("invisibility", "Invisibility", U, price=8),
        _w("parachute", "Parachute", U, price=2, crate_ammo=3),
        _w("double_damage", "Double Damage", U),
        _w("crate_spy", "Crate Spy", U),
        _w("crate_shower", "Crate Shower", U),
    )
}

#: §6 points to spend by number of players.
POINTS_BY_PLAYERS: dict[int, int] = {2: 180, 3: 175, 4: 165, 5: 150, 6: 140, 7: 135, 8: 120}

#: §6 team weapons chosen for free, with the number of units (Mad Cow x2).
TEAM_WEAPON_UNITS: dict[str, int] = {
    "super_sheep": 1,
    "mad_cow": 2,
    "old_woman": 1,
    "minigun": 1,
    "holy_hand_grenade": 1,
}

FREE_ITEMS: tuple[str, ...] = tuple(name for name, spec in ITEMS.items() if spec.free)


def crate_pool(category: Category) -> tuple[str, ...]:
    """What a crate of this category can hold, in registry order (§9: even chances,
    never prods or handguns)."""
    return tuple(n for n, s in ITEMS.items() if s.category is category and not s.free)


def is_known(name: str) -> bool:
    return name in ITEMS


def title(name: str) -> str:
    spec = ITEMS.get(name)
    return spec.title if spec else name
