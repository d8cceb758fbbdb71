"""What a blast is (§8 land damage, §9 mines, drums, crates, dying worms): the ``Blast``
and ``Ring`` specs, the squares a blast reaches (``impacts``) and the blasts that are no
weapon's. The weapons' own blasts are in their entries in ``games.worms.items``;
``games.worms.blast`` resolves them all. This module imports no game logic.

A blast centred on a square of height ``h`` lowers that square by ``center_land`` and each
square of a ring by that ring's ``land``, never below ``h - land`` (§8's cliff example);
things on a ring square are hit only if its height is within ``h - below .. h + above``
(the ring's LND figure, ruling W-R30).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from games.worms.board import Direction, Square, away, ring
from games.worms.pieces import MineType

if TYPE_CHECKING:
    from games.worms.state import WormsState


@dataclass(frozen=True)
class Ring:
    """The squares at Chebyshev distance ``radius`` from the centre (8, then 16)."""

    radius: int = 1
    damage: tuple[int, int] = (0, 0)
    land: int = 0
    push: int = 0
    throw: int = 0
    #: things on the ring are hit when their land is within centre -below .. +above
    below: int = 1
    above: int = 1
    poison: int = 0


@dataclass(frozen=True)
class Blast:
    source: str
    center_damage: tuple[int, int] = (0, 0)
    center_land: int = 0
    #: push on the centre: in the shot's direction, or random when the blast has none
    center_push: int = 0
    #: how high things are thrown (§8: the LND stat, unless the weapon says otherwise)
    center_throw: int = 0
    center_poison: int = 0
    rings: tuple[Ring, ...] = ()
    #: longbow and minigun: pushes only downhill or across flat land
    downhill_only: bool = False
    #: a prod or kamikaze sets off the mines it pushes (§9)
    detonates_mines: bool = False
    #: double damage (§5): the damage rolled is multiplied by this
    power: int = 1


def doubled(spec: Blast, power: int) -> Blast:
    """§5 DOUBLE DAMAGE: damage (the roll times ``power``), push, throw height, land
    damage and poison times ``power``; the area and the heights reached stay (W-R36)."""
    if power == 1:
        return spec
    rings = tuple(
        replace(r, land=r.land * power, push=r.push * power, throw=r.throw * power, poison=r.poison * power)
        for r in spec.rings
    )
    return replace(
        spec, center_land=spec.center_land * power, center_push=spec.center_push * power,
        center_throw=spec.center_throw * power, center_poison=spec.center_poison * power,
        rings=rings, power=spec.power * power,
    )


def dynamite_like(source: str, center: tuple[int, int] = (60, 75), ring_damage: tuple[int, int] = (35, 35)) -> Blast:
    """§5 DYNAMITE's shape, which the sheep, old woman, super sheep, banana, meteorites and
    §9's dying worm, oil drum and crate sheep share: LND 2 and push 2 on the square, LND 1,
    push 1 and ``ring_damage`` on the 8 around."""
    return Blast(
        source, center, center_land=2, center_push=2, center_throw=2,
        rings=(Ring(1, ring_damage, land=1, push=1, throw=1),),
    )


#: §9: a worm that runs out of health explodes like a dynamite on its own square.
DYING_WORM = dynamite_like("dying worm")
#: §9: an oil drum (or a shot crate) applies the full 60-75 to the 8 surrounding squares.
OIL_DRUM = dynamite_like("oil drum", ring_damage=(60, 75))
#: §9: a sheep thrown out of a shot crate blasts like one super banana bomb cluster.
CRATE_SHEEP = dynamite_like("sheep from a crate")
#: §5 MINE, v2.1's three types.
MINES: dict[MineType, Blast] = {
    MineType.DAMAGE: Blast("damage mine", (40, 50), center_land=1, center_push=1, center_throw=1),
    MineType.SHOCKWAVE: Blast(
        "shockwave mine", center_push=4, center_throw=4,
        rings=(Ring(1, push=2, throw=2, below=2, above=2),),
    ),
    MineType.POISON: Blast(
        "poison mine", center_poison=1, rings=(Ring(1, poison=1, below=1, above=4),)
    ),
}
#: §9: a shot crate holding one of these throws a sheep.
SHEEP_CONTENTS = frozenset({"sheep", "super_sheep", "sheep_strike"})


@dataclass(frozen=True)
class Impact:
    """What a blast does to one square."""

    square: Square
    #: which damage roll applies ("centre", "ring 1" ...); one roll per group and blast
    group: str
    damage: tuple[int, int]
    #: the square's new height, if the blast lowers it
    land_to: int | None
    push: int
    #: None with a push: a random direction (rolled only if something is there)
    direction: Direction | None
    throw: int
    poison: int
    #: things on the square are reached by the blast (the height window)
    hit: bool
    #: a push of 0 because the worm sits between two sheep (§5 SHEEP STRIKE)
    held: bool = False


#: §5 BUBBLE TROUBLE "The prod, firepunch, mine and dynamite will be able to knock the user
#: outside of the bubble": these blasts reach a bubble's square (ruling W-R44).
KNOCK_OUT = frozenset(
    {"fire punch", "dynamite", "damage mine", "shockwave mine", "poison mine", "booby-trapped crate"}
)


def shielded(state: WormsState, square: Square, spec: Blast) -> bool:
    """§5 BUBBLE TROUBLE: the square is "immune to most attacks, pushes and land damage"."""
    return state.bubble_at(square) is not None and spec.source not in KNOCK_OUT


def center_land(height: int, spec: Blast) -> int | None:
    """The centre's new height (None: unchanged; water stays water)."""
    return max(0, height - spec.center_land) if spec.center_land and height > 0 else None


def ring_land(center_height: int, height: int, ring_: Ring) -> int | None:
    """§8: a ring square drops by the ring's LND, never below the centre's height minus it,
    and not at all if it is already lower (None: unchanged)."""
    if not ring_.land or height <= 0 or height < center_height - ring_.land:
        return None
    new = max(0, height - ring_.land, center_height - ring_.land)
    return None if new == height else new


def impacts(state: WormsState, center: Square, spec: Blast, direction: Direction | None) -> list[Impact]:
    h = state.height(center)
    result = [
        Impact(center, "centre", spec.center_damage, center_land(h, spec), spec.center_push, direction,
               spec.center_throw, spec.center_poison, True)
    ]
    for r in spec.rings:
        for s in ring(center, r.radius):
            a = state.height(s)
            hit = h - r.below <= a <= h + r.above
            result.append(Impact(s, f"ring {r.radius}", r.damage, ring_land(h, a, r), r.push, away(center, s),
                                 r.throw, r.poison, hit))
    return result
