"""Blasts (§8 land damage, §9 mines, drums, dying worms). One module the arsenal issue
extends: a weapon is a ``Blast`` spec plus where it lands.

A blast centred on a square of height ``h`` lowers that square by ``center_land`` and each
of the 8 around it by ``ring_land``, never below ``h - ring_land`` (§8's cliff example);
things on a surrounding square are hit only if its height is within ``h ± reach``.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.worms import events as ev
from games.worms import inventory
from games.worms.board import ALL_DIRECTIONS, Direction, Square, away, ring
from games.worms.outcome import Outcome
from games.worms.physics import push_mine, push_worm
from games.worms.state import Card, Mine, MineType


@dataclass(frozen=True)
class Blast:
    source: str
    center_damage: tuple[int, int] = (0, 0)
    ring_damage: tuple[int, int] = (0, 0)
    center_land: int = 0
    ring_land: int = 0
    #: push on the centre square; None direction = random (§5 "in a random direction")
    center_push: int = 0
    ring_push: int = 0
    #: how high things are thrown (§8: the LND stat, unless the weapon says otherwise)
    center_throw: int = 0
    ring_throw: int = 0
    #: whether the 8 surrounding squares are affected at all
    has_ring: bool = True
    reach: int = 1
    poison: bool = False
    poison_below: int = 1
    poison_above: int = 4


DYNAMITE = Blast(
    "dynamite", (60, 75), (35, 35), center_land=2, ring_land=1, center_push=2, ring_push=1,
    center_throw=2, ring_throw=1,
)
#: §9: a worm that runs out of health explodes like a dynamite on its own square.
DYING_WORM = Blast(
    "dying worm", (60, 75), (35, 35), center_land=2, ring_land=1, center_push=2, ring_push=1,
    center_throw=2, ring_throw=1,
)
#: §9: an oil drum (or a shot crate) applies the full 60-75 to the 8 surrounding squares.
OIL_DRUM = Blast(
    "oil drum", (60, 75), (60, 75), center_land=2, ring_land=1, center_push=2, ring_push=1,
    center_throw=2, ring_throw=1,
)
MINES: dict[MineType, Blast] = {
    MineType.DAMAGE: Blast(
        "damage mine", (40, 50), center_land=1, center_push=1, center_throw=1, has_ring=False
    ),
    MineType.SHOCKWAVE: Blast(
        "shockwave mine", center_push=4, ring_push=2, center_throw=4, ring_throw=2, reach=2
    ),
    MineType.POISON: Blast("poison mine", poison=True),
}


def _damage(out: Outcome, low_high: tuple[int, int], purpose: str) -> int:
    low, high = low_high
    if high <= 0:
        return 0
    if low == high:
        return low
    return out.dice.roll(purpose, low, high)


def blast(
    out: Outcome, center: Square, spec: Blast, direction: Direction | None = None
) -> None:
    """Explode ``spec`` on ``center``; ``direction`` is the shot's (None: random push)."""
    state = out.state
    out.emit(ev.Exploded(center[0], center[1], spec.source))
    h = state.height(center)
    around = [s for s in ring(center) if spec.has_ring]
    hit = [s for s in around if h - spec.reach <= state.height(s) <= h + spec.reach]

    # land (§8)
    changes: list[ev.SquareHeight] = []
    if spec.center_land and h > 0:
        changes.append(ev.SquareHeight(center[0], center[1], max(0, h - spec.center_land)))
    if spec.ring_land:
        for s in around:
            a = state.height(s)
            if a >= h - spec.ring_land and a > 0:
                new = max(0, max(a - spec.ring_land, h - spec.ring_land))
                if new != a:
                    changes.append(ev.SquareHeight(s[0], s[1], new))
    if changes:
        out.emit(ev.LandLowered(tuple(changes)))

    # damage and poison
    victim = out.state.worm_at(center)
    if victim is not None and spec.center_damage[1]:
        amount = _damage(out, spec.center_damage, f"{spec.source} damage at the centre")
        out.emit(ev.WormDamaged(victim.id, amount, victim.health - amount, spec.source))
    ring_worms = [w for s in hit if (w := out.state.worm_at(s)) is not None]
    if ring_worms and spec.ring_damage[1]:
        amount = _damage(out, spec.ring_damage, f"{spec.source} damage around")
        for worm in ring_worms:
            out.emit(ev.WormDamaged(worm.id, amount, worm.health - amount, spec.source))
    if spec.poison:
        for s in [center, *around]:
            worm = out.state.worm_at(s)
            if worm is not None and h - spec.poison_below <= out.state.height(s) <= h + spec.poison_above:
                out.emit(ev.WormPoisoned(worm.id, worm.poison + 1))

    # things that blow up in turn, cards that disintegrate
    chained: list[tuple[Square, Blast]] = []
    for s in [center, *hit]:
        if out.state.drum_at(s) is not None and s != center:
            out.emit(ev.DrumExploded(s[0], s[1]))
            chained.append((s, OIL_DRUM))
        crate = out.state.crate_at(s)
        if crate is not None:
            out.emit(ev.CrateDestroyed(s[0], s[1]))
            chained.append((s, OIL_DRUM))
        card = out.state.card_at(s)
        if card is not None:
            out.emit(ev.CardGone(s[0], s[1], "disintegrated"))

    # pushes: the centre first, then the surrounding squares clockwise from the north
    if spec.center_push:
        push_dir = direction
        if push_dir is None and (out.state.worm_at(center) or out.state.mine_at(center)):
            push_dir = ALL_DIRECTIONS[out.dice.roll(f"{spec.source} push direction", 0, 7)]
        if push_dir is not None:
            _push_square(out, center, push_dir, spec.center_push, spec.center_throw)
    if spec.ring_push:
        for s in hit:
            push_dir = away(center, s)
            if push_dir is not None:
                _push_square(out, s, push_dir, spec.ring_push, spec.ring_throw)

    for square, chained_spec in chained:
        blast(out, square, chained_spec)
    resolve_deaths(out)


def _push_square(out: Outcome, square: Square, direction: Direction, distance: int, thrown: int) -> None:
    worm = out.state.worm_at(square)
    if worm is not None:
        push_worm(out, worm.id, direction, distance, thrown)
    elif out.state.mine_at(square) is not None:
        push_mine(out, square, direction, distance, thrown, detonate=False)


def mine_explodes(out: Outcome, square: Square, mine: Mine | None, source: str = "") -> None:
    """§9: a worm tried to occupy the mine's square (or a prod set it off). A booby-trapped
    crate (``mine`` None) explodes like a damage mine."""
    kind = mine.type if mine is not None else MineType.DAMAGE
    if mine is not None:
        out.emit(ev.MineExploded(square[0], square[1], kind))
    spec = MINES[kind]
    if source:
        spec = Blast(**{**spec.__dict__, "source": source})
    blast(out, square, spec)


def drum_explodes(out: Outcome, square: Square) -> None:
    out.emit(ev.DrumExploded(square[0], square[1]))
    blast(out, square, OIL_DRUM)


def resolve_deaths(out: Outcome) -> None:
    """§7, §9: a worm at 0 health dies, drops a donor card with 2 random ammo units of its
    team and explodes like a dynamite; the card drowns if the blast opened water."""
    while True:
        dying = next((w for w in out.state.worms if w.health <= 0), None)
        if dying is None:
            return
        square = dying.square
        out.emit(ev.WormDied(dying.id, "health"))
        team = out.state.team(dying.seat)
        units = list(inventory.units(team.inventory if team else ()))
        taken: list[str] = []
        for _ in range(2):
            if not units:
                break
            i = out.dice.roll(f"donor card of {dying.id}: which ammo unit", 0, len(units) - 1)
            taken.append(units.pop(i))
        contents = inventory.bundle(tuple(taken))
        if contents:
            out.emit(ev.ItemsLost(dying.seat, contents, f"donor card of {dying.id}"))
        blast(out, square, DYING_WORM)
        out.emit(ev.CardDropped(Card(square[0], square[1], contents)), ev.CardSeen(square[0], square[1]))
        if out.state.is_water(square):
            out.emit(ev.CardGone(square[0], square[1], "drowned"))
