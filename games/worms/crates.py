"""Crates and donor cards (§9): what falls at a turn's start and what a worm collects."""

from __future__ import annotations

from games.worms import events as ev
from games.worms.board import all_squares, name
from games.worms.items import ITEMS, Category, crate_pool
from games.worms.outcome import Outcome
from games.worms.state import CrateKind, Stock, Worm

HEALTH_CRATE = 30


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
    state = out.state
    free = [s for s in all_squares() if not state.is_water(s) and state.empty(s)]
    if not free:
        return
    x, y = out.dice.choice("crate square", free)
    out.emit(ev.CrateDropped(x, y, kind))
    contents = crate_contents(out, kind)
    if contents:
        out.emit(ev.CrateFilled(x, y, contents))


def crate_contents(out: Outcome, kind: CrateKind) -> tuple[Stock, ...]:
    if kind is CrateKind.HEALTH:
        return ()
    if kind is CrateKind.UTILITY:
        item = out.dice.choice("utility crate item", crate_pool(Category.UTILITY))
    else:
        roll = out.dice.roll("weapon crate (1-80 normal, 81-95 team, 96-100 super)", 1, 100)
        category = Category.STANDARD if roll <= 80 else Category.TEAM if roll <= 95 else Category.SUPER
        item = out.dice.choice(f"{category.value} weapon in crate", crate_pool(category))
    return (Stock(item, ITEMS[item].crate_ammo),)


def collect(out: Outcome, worm: Worm) -> bool:
    """The worm stands on a crate or card: take it. Returns True if a booby trap went off."""
    from games.worms.explosions import crate_sheep, mine_explodes

    state = out.state
    crate = state.crate_at(worm.square)
    if crate is not None:
        if crate.booby_trapped:
            out.emit(ev.CrateDestroyed(crate.x, crate.y))
            mine_explodes(out, worm.square, None, source="booby-trapped crate")
            crate_sheep(out, crate.square, crate.contents)
            return True
        out.emit(ev.CrateCollected(crate.x, crate.y, worm.id))
        if crate.kind is CrateKind.HEALTH:
            health = worm.health + HEALTH_CRATE
            out.emit(ev.WormHealed(worm.id, HEALTH_CRATE, health), ev.PoisonCured(worm.seat))
        elif crate.contents:
            out.emit(ev.ItemsGained(worm.seat, crate.contents, f"crate at {name(crate.square)}"))
    card = state.card_at(worm.square)
    if card is not None:
        out.emit(ev.CardGone(card.x, card.y, "collected", worm.id))
        if card.contents:
            out.emit(ev.ItemsGained(worm.seat, card.contents, f"donor card at {name(card.square)}"))
    return False
