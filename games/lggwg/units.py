"""THE unit table (§4; every figure and its source is in docs/rulings/lggwg.md, L-R3..L-R9).

Stated by the rulebook: Puffer bites for 4; the Executive's laser does 2-4; Max fires
three shells, each with 1 point of splash; a mine does 1-5; a health pack gives up to 5;
nuclear crates and locked doors give way after 5 damage; sheep have 1 hit point; flags
carry their hit points on them (the map says how many). Everything else is our choice,
ordered as the text's words order them ("lightly / medium / heavily armoured", "slow",
"fast", "long / good range")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UnitType:
    code: str
    name: str
    hp: int
    armour: int  # taken off every direct hit, which still does at least 1
    speed: int  # move orders per turn
    range: int  # king moves; 1 is hand-to-hand
    damage: tuple[int, int]  # one roll per shot (per shell for Max)
    sight: int  # king moves
    weapon: str  # rifle, shells, bite, laser, fireball, knife, none
    explodes: int = 0  # blast damage to the 8 squares around when it dies (§4)
    mines: int = 0  # mines a Miner carries at the start
    soldier: bool = True  # gives orders, can be targeted by opportunity fire


UNITS: dict[str, UnitType] = {
    "S": UnitType("S", "Snipey", hp=10, armour=0, speed=3, range=10, damage=(1, 8), sight=8, weapon="rifle"),
    "M": UnitType("M", "Max", hp=14, armour=1, speed=2, range=6, damage=(1, 2), sight=7, weapon="shells"),
    "P": UnitType("P", "Puffer", hp=8, armour=0, speed=5, range=1, damage=(4, 4), sight=6, weapon="bite"),
    "E": UnitType("E", "Executive", hp=15, armour=1, speed=3, range=8, damage=(2, 4), sight=8,
                  weapon="laser", explodes=3),
    "B": UnitType("B", "Firebot", hp=16, armour=2, speed=2, range=6, damage=(2, 5), sight=6,
                  weapon="fireball", explodes=4),
    "N": UnitType("N", "Miner", hp=9, armour=0, speed=3, range=1, damage=(1, 2), sight=7,
                  weapon="knife", mines=3),
    "G": UnitType("G", "Flag", hp=0, armour=0, speed=0, range=0, damage=(0, 0), sight=5,
                  weapon="none", soldier=False),
    "W": UnitType("W", "Sheep", hp=1, armour=0, speed=1, range=0, damage=(0, 0), sight=0,
                  weapon="none", soldier=False),
}

#: Max's three shells, each doing ``damage`` where it lands and this much to the 8 around.
SHELLS = 3
SPLASH = 1
#: A fireball floods this many king moves from where it ends, stopped by walls, closed and
#: hardened doors and nuclear crates (L-R7).
FIRE_RADIUS = 2
MINE_DAMAGE = (1, 5)
HEALTH_PACK = 5
HARDENED_HP = 5  # locked doors and nuclear crates
CRATE_BLAST = (1, 3)  # radius, damage
NUCLEAR_BLAST = (2, 5)
KILL_BONUS = 5
MAX_ORDERS = 30


def unit_type(code: str) -> UnitType:
    return UNITS[code]
