"""Every weapon and utility of §5 with the numbers of §6 and §9, keyed by name: one
entry per item with its price, crate ammo, reach (RNG, HGT), how it is delivered and
its blast. An inventory is a tuple of ``Stock(item, count)`` where ``count`` None means
unlimited.

How each delivery is resolved is in ``games.worms.deliveries`` (aimed, thrown, from the
air, placed), ``games.worms.walkers`` and, for the weapons that do something of their
own, ``games.worms.weapons_special``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from games.worms.blast_specs import Blast, Ring, dynamite_like


class Category(enum.StrEnum):
    STANDARD = "standard"
    TEAM = "team"
    SUPER = "super"
    UTILITY = "utility"


class Delivery(enum.StrEnum):
    #: a bullet: hits the target square only, lost in a wall (handgun, shotgun ...)
    AIMED = "aimed"
    #: blasts where it lands, against a wall too (bazooka, grenade ...)
    THROWN = "thrown"
    #: falls from the sky on any square named, pushing in a random direction
    AIR = "air"
    #: set down next to the worm (mine, dynamite)
    PLACED = "placed"
    #: travels square by square (kamikaze, sheep, mad cow, old woman)
    WALKER = "walker"
    #: does something of its own (prod, fire punch, the super weapons)
    SPECIAL = "special"


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
    #: how the weapon gets to where it acts (None: a utility)
    delivery: Delivery | None = None
    #: what it does there (§5 DMG, PSH, LND)
    blast: Blast | None = None
    #: the kamikaze's blast on the squares it flew over
    path_blast: Blast | None = None
    #: squares named at once (§5 AIR STRIKE: 5 in a row)
    squares: int = 1


def _w(name: str, title: str, category: Category, **kw: object) -> ItemSpec:
    return ItemSpec(name=name, title=title, category=category, **kw)  # type: ignore[arg-type]


S, T, X, U = Category.STANDARD, Category.TEAM, Category.SUPER, Category.UTILITY
AIMED, THROWN, AIR, PLACED, WALKER, SPECIAL = (
    Delivery.AIMED, Delivery.THROWN, Delivery.AIR, Delivery.PLACED, Delivery.WALKER, Delivery.SPECIAL
)

ITEMS: dict[str, ItemSpec] = {
    spec.name: spec
    for spec in (
        _w("prod", "Prod", S, reach=1, height_up=0, height_down=1, straight_only=True, free=True,
           delivery=SPECIAL),
        _w("handgun", "Handgun", S, reach=8, height_up=3, height_down=3, straight_only=True, free=True,
           delivery=AIMED, blast=Blast("handgun", (20, 20))),
        _w("bazooka", "Bazooka", S, price=3, crate_ammo=3, reach=3, height_up=4,
           delivery=THROWN, blast=Blast("bazooka", (40, 50), center_land=1, center_push=1, center_throw=1)),
        _w("grenade", "Grenade", S, price=4, crate_ammo=3, reach=3, height_up=4,
           delivery=THROWN, blast=Blast("grenade", (40, 50), center_land=1, center_push=1, center_throw=1)),
        _w("shotgun", "Shotgun", S, price=4, reach=8, height_up=3, height_down=3, straight_only=True, shots=2,
           delivery=AIMED, blast=Blast("shotgun", (25, 25))),
        # LND 0: a longbow arrow throws nobody into the air; it pushes downhill or across only
        _w("longbow", "Longbow", S, price=6, reach=8, height_up=3, height_down=3, straight_only=True, shots=2,
           delivery=AIMED, blast=Blast("longbow", (15, 15), center_push=2, downhill_only=True)),
        _w("fire_punch", "Fire Punch", S, price=3, crate_ammo=2, reach=1, height_up=5, height_down=0,
           delivery=SPECIAL, blast=Blast("fire punch", (30, 30), center_push=3, center_throw=3)),
        _w("kamikaze", "Kamikaze", S, price=7, reach=7, height_up=3, height_down=3, straight_only=True,
           delivery=WALKER,
           blast=Blast("kamikaze", (40, 50), center_land=1, center_push=3, center_throw=3, detonates_mines=True),
           path_blast=Blast("kamikaze", (30, 30), center_push=3, center_throw=3, detonates_mines=True)),
        _w("mine", "Mine", S, price=4, crate_ammo=2, reach=1, height_up=0, retreat=2, delivery=PLACED),
        _w("dynamite", "Dynamite", S, price=10, reach=1, height_up=0, retreat=2,
           delivery=PLACED, blast=dynamite_like("dynamite")),
        _w("sheep", "Sheep", S, price=12, reach=15, straight_only=True,
           delivery=WALKER, blast=dynamite_like("sheep")),
        _w("air_strike", "Air Strike", S, price=10, squares=5,
           delivery=AIR, blast=Blast("air strike", (35, 35), center_land=1, center_push=1, center_throw=1)),
        _w("homing_missile", "Homing Missile", S, price=8,
           delivery=AIR, blast=Blast("homing missile", (40, 50), center_land=1, center_push=1, center_throw=1)),
        _w("gas_grenade", "Gas Grenade", S, price=6, crate_ammo=2, reach=3, height_up=4,
           delivery=THROWN, blast=Blast("gas grenade", center_poison=1, rings=(Ring(1, poison=1, below=1, above=4),))),
        _w("super_sheep", "Super Sheep", T, delivery=AIR, blast=dynamite_like("super sheep")),
        _w("mad_cow", "Mad Cow", T, crate_ammo=2, reach=15, height_up=0, straight_only=True, shots=4,
           delivery=WALKER, blast=dynamite_like("mad cow", (48, 60), (20, 20))),
        _w("old_woman", "Old Woman", T, reach=7, height_up=0, straight_only=True,
           delivery=WALKER, blast=dynamite_like("old woman")),
        # LND 0: no land damage, nobody thrown up; pushes downhill or across only
        _w("minigun", "Minigun", T, reach=3, height_up=2, height_down=2, straight_only=True,
           delivery=AIMED, blast=Blast("minigun", (125, 125), center_push=2, downhill_only=True)),
        # 25 squares: the centre, the 8 (reached within ±2, the LND there) and the 16 (±1)
        _w("holy_hand_grenade", "Holy Hand-Grenade", T, reach=4, height_up=4,
           delivery=THROWN, blast=Blast(
               "holy hand-grenade", (70, 100), center_land=3, center_push=3, center_throw=3,
               rings=(
                   Ring(1, (35, 50), land=2, push=2, throw=2, below=2, above=2),
                   Ring(2, (15, 15), land=1, push=1, throw=1, below=1, above=1),
               ),
           )),
        _w("nuclear_bomb", "Nuclear Bomb", X, delivery=SPECIAL),
        _w("armageddon", "Armageddon", X, delivery=SPECIAL, blast=dynamite_like("meteorite")),
        _w("concrete_donkey", "Concrete Donkey", X, delivery=SPECIAL),
        _w("super_banana_bomb", "Super Banana Bomb", X, reach=4, height_up=4,
           delivery=SPECIAL, blast=dynamite_like("super banana bomb")),
        _w("sheep_strike", "Sheep Strike", X, delivery=SPECIAL, blast=dynamite_like("sheep strike")),
        _w("scales_of_justice", "Scales of Justice", X, delivery=SPECIAL),
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


def blast_of(name: str) -> Blast:
    """The weapon's blast (§5); every weapon that blasts has one in its entry."""
    blast = ITEMS[name].blast
    assert blast is not None, name
    return blast


def is_known(name: str) -> bool:
    return name in ITEMS


def title(name: str) -> str:
    spec = ITEMS.get(name)
    return spec.title if spec else name
