"""Blasts (§8 land damage, §9 mines, drums, crates, dying worms): a weapon is a ``Blast``
spec plus where it lands; ``games.worms.blast`` resolves it.

A blast centred on a square of height ``h`` lowers that square by ``center_land`` and each
square of a ring by that ring's ``land``, never below ``h - land`` (§8's cliff example);
things on a ring square are hit only if its height is within ``h - below .. h + above``
(the ring's LND figure, ruling W-R30).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.worms import events as ev
from games.worms import inventory
from games.worms.board import Direction, Square
from games.worms.outcome import Outcome
from games.worms.state import Card, Mine, MineType, Stock


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


def _dynamite_like(source: str, center: tuple[int, int] = (60, 75), ring: tuple[int, int] = (35, 35)) -> Blast:
    return Blast(
        source, center, center_land=2, center_push=2, center_throw=2,
        rings=(Ring(1, ring, land=1, push=1, throw=1),),
    )


DYNAMITE = _dynamite_like("dynamite")
#: §9: a worm that runs out of health explodes like a dynamite on its own square.
DYING_WORM = _dynamite_like("dying worm")
#: §9: an oil drum (or a shot crate) applies the full 60-75 to the 8 surrounding squares.
OIL_DRUM = _dynamite_like("oil drum", ring=(60, 75))
SHEEP = _dynamite_like("sheep")
#: §9: a sheep thrown out of a shot crate blasts like one super banana bomb cluster.
CRATE_SHEEP = _dynamite_like("sheep from a crate")
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
SHEEP_CONTENTS = frozenset({"sheep", "super_sheep", "sheep_strike"})


def blast(out: Outcome, center: Square, spec: Blast, direction: Direction | None = None) -> None:
    """Explode ``spec`` on ``center``; ``direction`` is the shot's (None: random push)."""
    from games.worms.blast import explode

    explode(out, center, spec, direction)


def mine_explodes(out: Outcome, square: Square, mine: Mine | None, source: str = "", power: int = 1) -> None:
    """§9: a worm tried to occupy the mine's square (or a prod set it off). A booby-trapped
    crate (``mine`` None) explodes like a damage mine. ``power`` 2: placed on a worm by a
    team with double damage."""
    kind = mine.type if mine is not None else MineType.DAMAGE
    if mine is not None:
        out.emit(ev.MineExploded(square[0], square[1], kind))
    spec = doubled(MINES[kind], power)
    if source:
        spec = replace(spec, source=source)
    blast(out, square, spec)


def drum_explodes(out: Outcome, square: Square) -> None:
    out.emit(ev.DrumExploded(square[0], square[1]))
    blast(out, square, OIL_DRUM)


def crate_sheep(out: Outcome, square: Square, contents: tuple[Stock, ...]) -> None:
    """§9: a shot (or booby-trapped) crate holding a sheep, super sheep or sheep strike
    throws a sheep onto one of the 8 squares around it, where it blasts like one super
    banana bomb cluster, pushing away from the crate (ruling W-R33)."""
    from games.worms.board import away, ring

    if not any(stock.item in SHEEP_CONTENTS for stock in contents):
        return
    squares = list(ring(square))
    landing = out.dice.choice("sheep out of a crate: which of the 8 squares", squares)
    blast(out, landing, CRATE_SHEEP, away(square, landing))


def resolve_deaths(out: Outcome) -> None:
    """§7, §9: a worm at 0 health dies, drops a donor card with 2 random ammo units of its
    team and explodes like a dynamite; the card drowns if the blast opened water."""
    while True:
        dying = next((w for w in out.state.worms if w.health <= 0), None)
        if dying is None:
            return
        square = dying.square
        out.emit(ev.WormDied(dying.id, "health"))
        contents = draw_units(out, dying.seat, 2, f"donor card of {dying.id}: which ammo unit")
        if contents:
            out.emit(ev.ItemsLost(dying.seat, contents, f"donor card of {dying.id}"))
        blast(out, square, DYING_WORM)
        _clear_for_card(out, square)
        card = Card(square[0], square[1], contents)
        out.emit(ev.CardDropped(card), ev.CardSeen(square[0], square[1]))
        from games.worms.utilities import spies

        for seat in spies(out):
            out.emit(ev.CrateSpyReport(seat, (), (card,)))
        if out.state.is_water(square):
            out.emit(ev.CardGone(square[0], square[1], "drowned"))
        elif (finder := out.state.worm_at(square)) is not None:
            # the blast threw another worm onto the square: it collects the card (§8)
            out.emit(ev.CardGone(square[0], square[1], "collected", finder.id))
            if contents:
                from games.worms.utilities import collected

                collected(out, finder.seat, contents, f"donor card of {dying.id}")


def draw_units(out: Outcome, seat: int, count: int, purpose: str) -> tuple[Stock, ...]:
    """§9: ``count`` ammo units of the team, each unit equally likely (W-R16)."""
    team = out.state.team(seat)
    units = list(inventory.units(team.inventory if team else ()))
    taken: list[str] = []
    for _ in range(count):
        if not units:
            break
        i = out.dice.roll(purpose, 0, len(units) - 1)
        taken.append(units.pop(i))
    return inventory.bundle(tuple(taken))


def _clear_for_card(out: Outcome, square: Square) -> None:
    """§9 "A mine cannot occupy the same square as a donor card": a mine the dying worm's
    own blast bounced back onto its square moves one random square at a time until free,
    as in a landing (§8); if it cannot (16 tries), it is lost (ruling W-R34)."""
    from games.worms.board import ALL_DIRECTIONS, on_board, step

    mine = out.state.mine_at(square)
    if mine is None:
        return
    target = square
    for _ in range(16):
        direction = ALL_DIRECTIONS[out.dice.roll("mine on a donor card's square: direction", 0, 7)]
        nxt = step(target, direction)
        if on_board(nxt):
            target = nxt
        state = out.state
        if target != square and not (state.blocked(target) or state.mine_at(target) or state.card_at(target)):
            out.emit(ev.MineMoved(square[0], square[1], target[0], target[1]))
            if state.is_water(target):
                out.emit(ev.ObjectSank(target[0], target[1], "mine"))
            else:
                from games.worms.crates import mine_onto_crate

                mine_onto_crate(out, target)
            return
    out.emit(ev.ObjectSank(square[0], square[1], "mine"))
