"""Crates and donor cards (§9): what falls at a turn's start, what a worm collects, and
the instant utilities that act on collection (§5 CRATE SHOWER, CRATE SPY)."""

from __future__ import annotations

from dataclasses import replace

from games.worms import events as ev
from games.worms.board import Square, all_squares, name
from games.worms.items import ITEMS, Category, crate_pool
from games.worms.outcome import Outcome
from games.worms.state import Crate, CrateKind, Stock, Worm, WormsState

HEALTH_CRATE = 30
#: §5 CRATE SHOWER "5 crates will instantly fall"
SHOWER_CRATES = 5


def drop_crate(out: Outcome) -> None:
    """§9 at the start of a turn: weapon 50%, health 20%, utility 20%, none 10%; in sudden
    death (§10) the health share becomes weapon or utility, 50% each."""
    roll = out.dice.roll("crate drop (1-50 weapon, 51-70 health, 71-90 utility, 91-100 none)", 1, 100)
    if roll > 90:
        return
    kind = CrateKind.WEAPON if roll <= 50 else CrateKind.HEALTH if roll <= 70 else CrateKind.UTILITY
    if kind is CrateKind.HEALTH and out.state.sudden_death:
        kind = (
            CrateKind.WEAPON
            if out.dice.chance("sudden death: health crate becomes weapon (else utility)", 50)
            else CrateKind.UTILITY
        )
    place_crate(out, kind)


def place_crate(out: Outcome, kind: CrateKind, *, shower: bool = False) -> None:
    """A crate of ``kind`` falls on a random empty square that is not water (if any); its
    contents are for the moderators, and for each team with a crate spy (§5)."""
    state = out.state
    free = [s for s in all_squares() if not state.is_water(s) and _looks_empty(state, s)]
    if not free:
        return
    x, y = out.dice.choice("crate square", free)
    out.emit(ev.CrateDropped(x, y, kind))
    contents = crate_contents(out, kind, shower=shower)
    if contents:
        out.emit(ev.CrateFilled(x, y, contents))
        for seat in spies(out):
            out.emit(ev.CrateSpyReport(seat, (Crate(x, y, kind, contents),)))
    hidden = out.state.worm_at((x, y))
    if hidden is not None:  # §8 "If a worm lands on a crate, then that worm will collect it"
        take(out, hidden)


def _looks_empty(state: WormsState, square: Square) -> bool:
    """Empty as everyone sees it: an invisible worm does not keep a crate off its square
    (or the squares crates fall on would tell where it is); it collects the crate at once
    (§11, ruling W-R50)."""
    worm = state.worm_at(square)
    if worm is not None and not worm.visible:
        return not (state.drum_at(square) or state.mine_at(square) or state.crate_at(square) or state.card_at(square))
    return state.empty(square)


def drop_shower(out: Outcome, count: int) -> None:
    """§5 CRATE SHOWER: ``count`` crates fall at once, each drawn as at a turn's start
    without the "no crate" share (weapon 50, health 20, utility 20 of 90; in sudden death
    health becomes weapon or utility), and none holds another crate shower (W-R46)."""
    for n in range(1, count + 1):
        roll = out.dice.roll(f"crate shower {n}: kind (1-50 weapon, 51-70 health, 71-90 utility)", 1, 90)
        kind = CrateKind.WEAPON if roll <= 50 else CrateKind.HEALTH if roll <= 70 else CrateKind.UTILITY
        if kind is CrateKind.HEALTH and out.state.sudden_death:
            kind = (
                CrateKind.WEAPON
                if out.dice.chance("sudden death: health crate becomes weapon (else utility)", 50)
                else CrateKind.UTILITY
            )
        place_crate(out, kind, shower=True)


def crate_contents(out: Outcome, kind: CrateKind, *, shower: bool = False) -> tuple[Stock, ...]:
    if kind is CrateKind.HEALTH:
        return ()
    if kind is CrateKind.UTILITY:
        pool = tuple(i for i in crate_pool(Category.UTILITY) if not (shower and i == "crate_shower"))
        item = out.dice.choice("utility crate item", pool)
    else:
        roll = out.dice.roll("weapon crate (1-80 normal, 81-95 team, 96-100 super)", 1, 100)
        category = Category.STANDARD if roll <= 80 else Category.TEAM if roll <= 95 else Category.SUPER
        item = out.dice.choice(f"{category.value} weapon in crate", crate_pool(category))
    return (Stock(item, ITEMS[item].crate_ammo),)


def mine_onto_crate(out: Outcome, square: Square) -> None:
    """§9 "If a mine is placed or lands on a crate, then the crate will become booby
    trapped ... Players will only be notified that it is booby trapped when it first
    becomes booby trapped. After that they will not be told." (ruling W-R53)."""
    crate = out.state.crate_at(square)
    if crate is None:
        return
    if crate.booby_trapped:
        out.emit(ev.MineJoinedCrate(square[0], square[1]))
    else:
        out.emit(ev.CrateBoobyTrapped(square[0], square[1]))


def take(out: Outcome, worm: Worm) -> None:
    """The worm collects the crate and the card on its square (§8, §9). A booby-trapped
    crate is ``games.worms.blast.collect``'s; a crate that has just fallen never is."""
    state = out.state
    crate = state.crate_at(worm.square)
    if crate is not None:
        out.emit(ev.CrateCollected(crate.x, crate.y, worm.id))
        if crate.kind is CrateKind.HEALTH:
            health = worm.health + HEALTH_CRATE
            out.emit(ev.WormHealed(worm.id, HEALTH_CRATE, health), ev.PoisonCured(worm.seat))
        elif crate.contents:
            collected(out, worm.seat, crate.contents, f"crate at {name(crate.square)}")
    card = state.card_at(worm.square)
    if card is not None:
        out.emit(ev.CardGone(card.x, card.y, "collected", worm.id))
        if card.contents:
            collected(out, worm.seat, card.contents, f"donor card at {name(card.square)}")


def collected(out: Outcome, seat: int, items: tuple[Stock, ...], source: str) -> None:
    """A team gains ``items`` from a crate or card: a crate shower falls at once (it is not
    kept); crate spy reports every crate and card now (§5)."""
    shower = any(s.item == "crate_shower" for s in items)
    kept = tuple(s for s in items if s.item != "crate_shower")
    if kept:
        out.emit(ev.ItemsGained(seat, kept, source))
    if shower:
        out.emit(ev.CrateShowerFell(seat))
        drop_shower(out, SHOWER_CRATES)
    if any(s.item == "crate_spy" for s in kept):
        spy_report(out, seat)


def spies(out: Outcome) -> tuple[int, ...]:
    """The teams with a crate spy (§5), told of every crate and card."""
    return tuple(t.seat for t in out.state.teams if not t.out and out.state.stock(t.seat, "crate_spy") != 0)


def spy_report(out: Outcome, seat: int) -> None:
    """§5 CRATE SPY, §7: the contents of every weapon and utility crate and donor card."""
    state = out.state
    crates = tuple(replace(c, booby_trapped=False) for c in state.crates if c.contents)
    out.emit(ev.CrateSpyReport(seat, crates, state.cards))
