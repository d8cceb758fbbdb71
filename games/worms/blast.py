"""The one module that resolves blasts and what they set off (§8, §9): explosions, the
pushes they cause, where pushed things come down (water, mines, crates) and the deaths
that follow, which blast again. These call each other (a blast pushes a worm onto a mine,
which blasts), so they live together; what a blast is comes from
``games.worms.blast_specs`` and the weapons' entries in ``games.worms.items``.

A blast resolves in a fixed, documented order (ruling W-R34):

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

from dataclasses import replace

from games.worms import events as ev
from games.worms.blast_specs import (
    CRATE_SHEEP,
    DYING_WORM,
    MINES,
    OIL_DRUM,
    SHEEP_CONTENTS,
    Blast,
    Impact,
    doubled,
    impacts,
    shielded,
)
from games.worms.board import ALL_DIRECTIONS, Direction, Square, away, on_board, ring, step
from games.worms.crates import collected, mine_onto_crate, spies, take
from games.worms.inventory import draw_units
from games.worms.outcome import Outcome
from games.worms.physics import FALL_SAFE, drift, fall_damage, thrown_to
from games.worms.state import Card, Mine, MineType, Stock, Worm
from games.worms.water import drown_flooded

# --- a blast ----------------------------------------------------------------------------


def explode(out: Outcome, center: Square, spec: Blast, direction: Direction | None = None) -> None:
    """Explode ``spec`` on ``center``; ``direction`` is the shot's (None: random push)."""
    out.emit(ev.Exploded(center[0], center[1], spec.source))
    resolve(out, impacts(out.state, center, spec, direction), spec)


def shot_blast(out: Outcome, center: Square, spec: Blast, direction: Direction | None) -> None:
    """A weapon's blast, doubled when the team has double damage (§5)."""
    explode(out, center, doubled(spec, out.power), direction)


def resolve(out: Outcome, hits: list[Impact], spec: Blast) -> None:
    hits = [i for i in hits if not shielded(out.state, i.square, spec)]
    _lower_land(out, hits)
    _damage(out, hits, spec)
    _poison(out, hits)
    chained = _objects(out, hits)
    _pushes(out, hits, spec)
    drown_flooded(out, [i.square for i in hits if i.land_to is not None])
    for square, contents in chained:
        explode(out, square, OIL_DRUM)
        crate_sheep(out, square, contents)
    resolve_deaths(out)


def _lower_land(out: Outcome, hits: list[Impact]) -> None:
    """1. §8: every square the blast lowers, at once."""
    changes = [ev.SquareHeight(i.square[0], i.square[1], i.land_to) for i in hits if i.land_to is not None]
    if changes:
        out.emit(ev.LandLowered(tuple(changes)))


def _damage(out: Outcome, hits: list[Impact], spec: Blast) -> None:
    """2. One roll per figure and blast, drawn when the first worm it applies to is found."""
    rolls: dict[str, int] = {}
    for i in hits:
        worm = out.state.worm_at(i.square)
        if worm is None or not i.hit or i.damage[1] <= 0:
            continue
        if i.group not in rolls:
            low, high = i.damage
            where = "at the centre" if i.group == "centre" else f"around ({i.group})"
            rolls[i.group] = low if low == high else out.dice.roll(f"{spec.source} damage {where}", low, high)
        amount = rolls[i.group] * spec.power
        out.emit(ev.WormDamaged(worm.id, amount, worm.health - amount, spec.source))


def _poison(out: Outcome, hits: list[Impact]) -> None:
    for i in hits:
        worm = out.state.worm_at(i.square)
        # §5 "Worms inside bubbles cannot be poisoned."
        if worm is not None and i.hit and i.poison and out.state.bubble_at(i.square) is None:
            out.emit(ev.WormPoisoned(worm.id, worm.poison + i.poison))


def _objects(out: Outcome, hits: list[Impact]) -> list[tuple[Square, tuple[Stock, ...]]]:
    """3. Cards disintegrate; drums and crates are marked to explode, in this order."""
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
    return chained


def _pushes(out: Outcome, hits: list[Impact], spec: Blast) -> None:
    """4. Pushes of what stood there before any push, in the order of ``hits``."""
    before = [(i, out.state.worm_at(i.square), out.state.mine_at(i.square)) for i in hits]
    for i, worm, mine in before:
        if not i.hit or i.push <= 0 or (worm is None and mine is None):
            continue
        push_dir = i.direction
        if push_dir is None:
            push_dir = ALL_DIRECTIONS[out.dice.roll(f"{spec.source} push direction", 0, 7)]
        if worm is not None:
            if out.state.worm(worm.id) is not None:
                push_worm(out, worm.id, push_dir, i.push, i.throw, downhill_only=spec.downhill_only)
        elif mine is not None and out.state.mine_at(i.square) == mine:
            push_mine(out, i.square, push_dir, i.push, i.throw, detonate=spec.detonates_mines)


def set_off(out: Outcome, square: Square) -> None:
    """§9: the oil drum or crate on ``square`` explodes like an oil drum (a crate holding a
    sheep throws one, W-R33)."""
    if out.state.drum_at(square) is not None:
        out.emit(ev.DrumExploded(square[0], square[1]))
        explode(out, square, OIL_DRUM)
    crate = out.state.crate_at(square)
    if crate is not None:
        out.emit(ev.CrateDestroyed(square[0], square[1]))
        explode(out, square, OIL_DRUM)
        crate_sheep(out, square, crate.contents)


# --- what sets things off -----------------------------------------------------------------


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
    explode(out, square, spec)


def crate_sheep(out: Outcome, square: Square, contents: tuple[Stock, ...]) -> None:
    """§9: a shot (or booby-trapped) crate holding a sheep, super sheep or sheep strike
    throws a sheep onto one of the 8 squares around it, where it blasts like one super
    banana bomb cluster, pushing away from the crate (ruling W-R33)."""
    if not any(stock.item in SHEEP_CONTENTS for stock in contents):
        return
    landing = out.dice.choice("sheep out of a crate: which of the 8 squares", list(ring(square)))
    explode(out, landing, CRATE_SHEEP, away(square, landing))


def collect(out: Outcome, worm: Worm) -> bool:
    """The worm stands on a crate or card: take it. Returns True if a booby trap went off."""
    crate = out.state.crate_at(worm.square)
    if crate is not None and crate.booby_trapped:
        spring_trap(out, crate.square, crate.contents)
        return True
    take(out, worm)
    return False


def spring_trap(out: Outcome, square: Square, contents: tuple[Stock, ...]) -> None:
    """§9: a booby-trapped crate explodes like a mine when a worm tries to collect it,
    gives nothing, and throws a sheep if it held one (W-R33)."""
    out.emit(ev.CrateDestroyed(square[0], square[1]))
    mine_explodes(out, square, None, source="booby-trapped crate")
    crate_sheep(out, square, contents)


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
        purpose = f"donor card of {dying.id}: which ammo unit"
        contents = draw_units(out.dice, team.inventory if team else (), 2, purpose)
        if contents:
            out.emit(ev.ItemsLost(dying.seat, contents, f"donor card of {dying.id}"))
        explode(out, square, DYING_WORM)
        _clear_for_card(out, square)
        _drop_card(out, Card(square[0], square[1], contents), dying.id)


def _drop_card(out: Outcome, card: Card, dead: str) -> None:
    square = card.square
    out.emit(ev.CardDropped(card), ev.CardSeen(square[0], square[1]))
    for seat in spies(out):
        out.emit(ev.CrateSpyReport(seat, (), (card,)))
    if out.state.is_water(square):
        out.emit(ev.CardGone(square[0], square[1], "drowned"))
    elif (finder := out.state.worm_at(square)) is not None:
        # the blast threw another worm onto the square: it collects the card (§8)
        out.emit(ev.CardGone(square[0], square[1], "collected", finder.id))
        if card.contents:
            collected(out, finder.seat, card.contents, f"donor card of {dead}")


def _clear_for_card(out: Outcome, square: Square) -> None:
    """§9 "A mine cannot occupy the same square as a donor card": a mine the dying worm's
    own blast bounced back onto its square moves one random square at a time until free,
    as in a landing (§8); if it cannot (16 tries), it is lost (ruling W-R34)."""
    if out.state.mine_at(square) is None:
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
                mine_onto_crate(out, target)
            return
    out.emit(ev.ObjectSank(square[0], square[1], "mine"))


# --- pushes and landings ------------------------------------------------------------------


def push_worm(
    out: Outcome, worm_id: str, direction: Direction, distance: int, thrown: int, *, downhill_only: bool = False
) -> None:
    worm = out.state.worm(worm_id)
    if worm is None:
        return
    air = out.state.height(worm.square) + thrown
    square = thrown_to(out, worm.square, direction, distance, thrown, downhill_only=downhill_only)
    if square != worm.square:
        out.emit(ev.WormMoved(worm_id, square[0], square[1], cost=0, cause="push"))
    arrive(out, worm_id, air, walking=False)


def push_mine(
    out: Outcome, square: Square, direction: Direction, distance: int, thrown: int, *, detonate: bool
) -> None:
    """§9: a mine is knocked like a worm; only a prod or kamikaze sets it off (on landing)."""
    if out.state.mine_at(square) is None:
        return
    target = thrown_to(out, square, direction, distance, thrown, mine=True)
    if target != square:
        out.emit(ev.MineMoved(square[0], square[1], target[0], target[1]))
    if out.state.is_water(target):
        out.emit(ev.ObjectSank(target[0], target[1], "mine"))
        return
    if detonate or out.state.worm_at(target) is not None:
        mine_explodes(out, target, out.state.mine_at(target))
        return
    mine_onto_crate(out, target)


def push_drum(out: Outcome, square: Square, direction: Direction, distance: int, thrown: int) -> None:
    target = thrown_to(out, square, direction, distance, thrown)
    if target != square:
        out.emit(ev.DrumMoved(square[0], square[1], target[0], target[1]))
    if out.state.is_water(target):
        out.emit(ev.ObjectSank(target[0], target[1], "drum"))


def arrive(out: Outcome, worm_id: str, from_height: int, *, walking: bool) -> None:
    """The worm is now on its square, coming from ``from_height`` (its land, or the land
    plus how high it was thrown). Applies parachute, water, fall, mine, crate, card: a
    worm that comes down in water drowns and takes no fall damage (W-R54).
    Ends the turn (``out.turn_over``) when the rules say a walker's turn ends."""
    worm = out.state.worm(worm_id)
    if worm is None:
        return
    if from_height - out.state.height(worm.square) > FALL_SAFE and _falls(out, worm, from_height, walking):
        return
    worm = out.state.worm(worm_id)
    if worm is None:
        return
    if out.state.is_water(worm.square):
        out.emit(ev.WormDied(worm.id, "drowned"))
        if walking:
            out.end_turn("drowned")
        return
    if out.state.mine_at(worm.square) is not None:
        mine_explodes(out, worm.square, out.state.mine_at(worm.square))
        if walking:
            out.end_turn("mine")
        return
    if collect(out, worm) and walking:
        out.end_turn("booby-trapped crate")


def _falls(out: Outcome, worm: Worm, from_height: int, walking: bool) -> bool:
    """§8: a fall of more than 2 opens a parachute (§5) or costs fall damage, but not into
    water (§7, §9 "Drowning worms will not remove weapons or create a donor card").
    Returns True if the worm died of it."""
    if out.state.stock(worm.seat, "parachute") != 0:
        out.emit(ev.ParachuteOpened(worm.id, worm.seat))
        drift(out, worm.id, from_height)
        return False
    if out.state.is_water(worm.square):
        return False
    damage = fall_damage(from_height - out.state.height(worm.square))
    out.emit(ev.WormDamaged(worm.id, damage, worm.health - damage, "fall"))
    if walking:
        out.end_turn("fall")
    if worm.health - damage <= 0:
        resolve_deaths(out)
        return True
    return False
