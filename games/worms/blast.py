"""Resolving a blast (§8, §9) in a fixed, documented order (ruling W-R34):

1. land damage on every affected square at once;
2. damage to the worms hit: one roll per figure (the centre's, each ring's), drawn when
   the first worm it applies to is found; then poison;
3. objects hit: donor cards disintegrate; oil drums and crates are marked to explode
   (a crate is taken off the board at once);
4. pushes: the centre first, then the squares row by row from the north-west; what is
   pushed is what stood there before any push;
5. whatever is still on a square whose land reached the water level drowns or sinks
   (a worm pushed off it escapes);
6. the marked drums and crates explode in that order, each resolved fully (chains);
7. worms at 0 health die and explode (``resolve_deaths``).

A blast with several centres (sheep strike) is one ``Impact`` list resolved the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.worms import events as ev
from games.worms.board import ALL_DIRECTIONS, Direction, Square, away, ring
from games.worms.explosions import OIL_DRUM, Blast, crate_sheep, doubled, resolve_deaths
from games.worms.outcome import Outcome
from games.worms.physics import push_mine, push_worm
from games.worms.state import Stock


@dataclass(frozen=True)
class Impact:
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


def shielded(out: Outcome, square: Square, spec: Blast) -> bool:
    """§5 BUBBLE TROUBLE: the square is "immune to most attacks, pushes and land damage"."""
    return out.state.bubble_at(square) is not None and spec.source not in KNOCK_OUT


def impacts(out: Outcome, center: Square, spec: Blast, direction: Direction | None) -> list[Impact]:
    state = out.state
    h = state.height(center)
    land_to = max(0, h - spec.center_land) if spec.center_land and h > 0 else None
    result = [
        Impact(center, "centre", spec.center_damage, land_to, spec.center_push, direction,
               spec.center_throw, spec.center_poison, True)
    ]
    for r in spec.rings:
        for s in ring(center, r.radius):
            a = state.height(s)
            new: int | None = None
            if r.land and a > 0 and a >= h - r.land:
                new = max(0, a - r.land, h - r.land)
                new = None if new == a else new
            hit = h - r.below <= a <= h + r.above
            result.append(Impact(s, f"ring {r.radius}", r.damage, new, r.push, away(center, s),
                                 r.throw, r.poison, hit))
    return result


def explode(out: Outcome, center: Square, spec: Blast, direction: Direction | None = None) -> None:
    """Explode ``spec`` on ``center``; ``direction`` is the shot's (None: random push)."""
    out.emit(ev.Exploded(center[0], center[1], spec.source))
    resolve(out, impacts(out, center, spec, direction), spec)


def resolve(out: Outcome, hits: list[Impact], spec: Blast) -> None:
    source = spec.source
    hits = [i for i in hits if not shielded(out, i.square, spec)]
    # 1. land (§8)
    changes = [ev.SquareHeight(i.square[0], i.square[1], i.land_to) for i in hits if i.land_to is not None]
    if changes:
        out.emit(ev.LandLowered(tuple(changes)))

    # 2. damage and poison
    rolls: dict[str, int] = {}
    for i in hits:
        worm = out.state.worm_at(i.square)
        if worm is None or not i.hit or i.damage[1] <= 0:
            continue
        if i.group not in rolls:
            low, high = i.damage
            where = "at the centre" if i.group == "centre" else f"around ({i.group})"
            rolls[i.group] = low if low == high else out.dice.roll(f"{source} damage {where}", low, high)
        amount = rolls[i.group] * spec.power
        out.emit(ev.WormDamaged(worm.id, amount, worm.health - amount, source))
    for i in hits:
        worm = out.state.worm_at(i.square)
        # §5 "Worms inside bubbles cannot be poisoned."
        if worm is not None and i.hit and i.poison and out.state.bubble_at(i.square) is None:
            out.emit(ev.WormPoisoned(worm.id, worm.poison + i.poison))

    # 3. objects hit
    chained: list[tuple[Square, tuple[Stock, ...]]] = []
    for i in hits:
        if not i.hit:
            continue
        s = i.square
        if out.state.drum_at(s) is not None:
            out.emit(ev.DrumExploded(s[0], s[1]))
            chained.append((s, ()))
        crate = out.state.crate_at(s)
        if crate is not None:
            out.emit(ev.CrateDestroyed(s[0], s[1]))
            chained.append((s, crate.contents))
        if out.state.card_at(s) is not None:
            out.emit(ev.CardGone(s[0], s[1], "disintegrated"))

    # 4. pushes, of what stood there before any push
    before = [(i, out.state.worm_at(i.square), out.state.mine_at(i.square)) for i in hits]
    for i, worm, mine in before:
        if not i.hit or i.push <= 0 or (worm is None and mine is None):
            continue
        push_dir = i.direction
        if push_dir is None:
            push_dir = ALL_DIRECTIONS[out.dice.roll(f"{source} push direction", 0, 7)]
        if worm is not None:
            if out.state.worm(worm.id) is not None:
                push_worm(out, worm.id, push_dir, i.push, i.throw, downhill_only=spec.downhill_only)
        elif mine is not None and out.state.mine_at(i.square) == mine:
            push_mine(out, i.square, push_dir, i.push, i.throw, detonate=spec.detonates_mines)

    # 5. what is left on land that reached the water drowns or sinks (§8)
    drown_flooded(out, [i.square for i in hits if i.land_to is not None])

    # 6. chain reactions, 7. deaths
    for square, contents in chained:
        explode(out, square, OIL_DRUM)
        crate_sheep(out, square, contents)
    resolve_deaths(out)


def shot_blast(out: Outcome, center: Square, spec: Blast, direction: Direction | None) -> None:
    """A weapon's blast, doubled when the team has double damage (§5)."""
    explode(out, center, doubled(spec, out.power), direction)


def drown_flooded(out: Outcome, squares: list[Square]) -> None:
    """§8 "Water appears where land reaches the water level": what stands there drowns."""
    for s in squares:
        state = out.state
        if not state.is_water(s):
            continue
        worm = state.worm_at(s)
        if worm is not None:
            out.emit(ev.WormDied(worm.id, "drowned"))
        if state.mine_at(s) is not None:
            out.emit(ev.ObjectSank(s[0], s[1], "mine"))
        if state.drum_at(s) is not None:
            out.emit(ev.ObjectSank(s[0], s[1], "drum"))
        crate = state.crate_at(s)
        if crate is not None:
            out.emit(ev.CrateDestroyed(s[0], s[1]))
        if state.card_at(s) is not None:
            out.emit(ev.CardGone(s[0], s[1], "drowned"))
