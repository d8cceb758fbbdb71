"""The one ``evolve`` dispatcher, the helpers every handler uses, and the handlers of the
map's objects, the inventories, utilities and invisibility (§5, §11). ``games.worms.evolve``
adds the rest and is the module to import ``evolve`` from. Never checks, raises or rolls."""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch

from games.base import Event
from games.worms import events as ev
from games.worms import inventory
from games.worms.board import index
from games.worms.state import (
    Bubble,
    Drum,
    Mine,
    Team,
    Worm,
    WormProgress,
    WormsState,
)


def worms_changed(state: WormsState, worm_id: str, **changes: object) -> tuple[Worm, ...]:
    return tuple(replace(w, **changes) if w.id == worm_id else w for w in state.worms)  # type: ignore[arg-type]


def teams_changed(state: WormsState, seat: int, **changes: object) -> tuple[Team, ...]:
    return tuple(replace(t, **changes) if t.seat == seat else t for t in state.teams)  # type: ignore[arg-type]


def inventory_of(state: WormsState, seat: int) -> tuple:
    team = state.team(seat)
    return team.inventory if team else ()


@singledispatch
def evolve(event: Event, state: WormsState) -> WormsState:
    return state


@evolve.register
def _(event: ev.LandLowered, state: WormsState) -> WormsState:
    heights = list(state.heights)
    for change in event.squares:
        heights[index((change.x, change.y))] = change.height
    return replace(state, heights=tuple(heights))


@evolve.register
def _(event: ev.MineExploded, state: WormsState) -> WormsState:
    return replace(state, mines=tuple(m for m in state.mines if m.square != (event.x, event.y)))


@evolve.register
def _(event: ev.MinePlaced, state: WormsState) -> WormsState:
    return replace(state, mines=(*state.mines, event.mine))


@evolve.register
def _(event: ev.MineMoved, state: WormsState) -> WormsState:
    mines = tuple(
        Mine(event.to_x, event.to_y, m.type) if m.square == (event.x, event.y) else m
        for m in state.mines
    )
    return replace(state, mines=mines)


@evolve.register
def _(event: ev.DrumMoved, state: WormsState) -> WormsState:
    drums = tuple(
        Drum(event.to_x, event.to_y) if d.square == (event.x, event.y) else d for d in state.drums
    )
    return replace(state, drums=drums)


@evolve.register
def _(event: ev.DrumExploded, state: WormsState) -> WormsState:
    return replace(state, drums=tuple(d for d in state.drums if d.square != (event.x, event.y)))


@evolve.register
def _(event: ev.ObjectSank, state: WormsState) -> WormsState:
    square = (event.x, event.y)
    if event.kind == "mine":
        return replace(state, mines=tuple(m for m in state.mines if m.square != square))
    return replace(state, drums=tuple(d for d in state.drums if d.square != square))


@evolve.register
def _(event: ev.DynamitePlaced, state: WormsState) -> WormsState:
    return replace(state, progress=replace(state.progress, fuse=(event.x, event.y)))


def _without_crate(state: WormsState, x: int, y: int) -> WormsState:
    return replace(state, crates=tuple(c for c in state.crates if c.square != (x, y)))


@evolve.register
def _(event: ev.CrateCollected, state: WormsState) -> WormsState:
    return _without_crate(state, event.x, event.y)


@evolve.register
def _(event: ev.CrateDestroyed, state: WormsState) -> WormsState:
    return _without_crate(state, event.x, event.y)


@evolve.register
def _(event: ev.CrateBoobyTrapped, state: WormsState) -> WormsState:
    crates = tuple(
        replace(c, booby_trapped=True) if c.square == (event.x, event.y) else c
        for c in state.crates
    )
    mines = tuple(m for m in state.mines if m.square != (event.x, event.y))
    return replace(state, crates=crates, mines=mines)


@evolve.register
def _(event: ev.MineJoinedCrate, state: WormsState) -> WormsState:
    return replace(state, mines=tuple(m for m in state.mines if m.square != (event.x, event.y)))


@evolve.register
def _(event: ev.CardDropped, state: WormsState) -> WormsState:
    cards = tuple(c for c in state.cards if c.square != event.card.square)
    return replace(state, cards=(*cards, event.card))


@evolve.register
def _(event: ev.CardGone, state: WormsState) -> WormsState:
    return replace(state, cards=tuple(c for c in state.cards if c.square != (event.x, event.y)))


@evolve.register
def _(event: ev.ItemsGained, state: WormsState) -> WormsState:
    gained = inventory.add(inventory_of(state, event.seat), event.items)
    return replace(state, teams=teams_changed(state, event.seat, inventory=gained))


@evolve.register
def _(event: ev.ItemsLost, state: WormsState) -> WormsState:
    held = inventory_of(state, event.seat)
    for stock in event.items:
        held = inventory.take(held, stock.item, stock.count or 0)
    return replace(state, teams=teams_changed(state, event.seat, inventory=held))




@evolve.register
def _(event: ev.Exploded, state: WormsState) -> WormsState:
    if state.progress.fuse == (event.x, event.y):
        return replace(state, progress=replace(state.progress, fuse=None))
    return state



# --- utilities and invisibility (§5, §11) ----------------------------------------------


def _progress_of(state: WormsState, worm_id: str, **changes: object) -> WormsState:
    progress = state.progress
    current = progress.of(worm_id)
    updated = replace(current or WormProgress(worm_id), **changes)  # type: ignore[arg-type]
    if current is None:
        worms = (*progress.worms, updated)
    else:
        worms = tuple(updated if p.worm == worm_id else p for p in progress.worms)
    return replace(state, progress=replace(progress, worms=worms))


@evolve.register
def _(event: ev.UtilityUsed, state: WormsState) -> WormsState:
    held = inventory.take(inventory_of(state, event.seat), event.utility)
    state = replace(state, teams=teams_changed(state, event.seat, inventory=held))
    current = state.progress.of(event.worm) or WormProgress(event.worm)
    if event.utility == "ninja_rope":
        return _progress_of(state, event.worm, rope=True)
    if event.utility == "fast_walk" and not current.fast:
        return _progress_of(state, event.worm, fast=True, allowance=current.allowance * 2)
    return _progress_of(state, event.worm)


@evolve.register
def _(event: ev.Teleported, state: WormsState) -> WormsState:
    return replace(state, worms=worms_changed(state, event.worm, x=event.x, y=event.y))


@evolve.register
def _(event: ev.BubbleCreated, state: WormsState) -> WormsState:
    others = tuple(b for b in state.bubbles if b.square != (event.x, event.y))
    return replace(state, bubbles=(*others, Bubble(event.x, event.y, event.seat, event.rounds)))


@evolve.register
def _(event: ev.BubbleGone, state: WormsState) -> WormsState:
    return replace(state, bubbles=tuple(b for b in state.bubbles if b.square != (event.x, event.y)))


@evolve.register
def _(event: ev.WormVanished, state: WormsState) -> WormsState:
    return replace(state, worms=worms_changed(state, event.worm, invisible_rounds=event.rounds))


@evolve.register
def _(event: ev.WormRevealed, state: WormsState) -> WormsState:
    return replace(state, worms=worms_changed(state, event.worm, invisible_rounds=0))


@evolve.register
def _(event: ev.InvisibleWormMet, state: WormsState) -> WormsState:
    current = state.progress.of(event.walker) or WormProgress(event.walker)
    return _progress_of(state, event.walker, lost=current.lost + event.lost)
