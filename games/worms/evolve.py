"""``evolve(state, event)``: apply one event. Never checks, raises or rolls."""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch

from games.base import Event
from games.worms import events as ev
from games.worms import inventory
from games.worms.board import index
from games.worms.state import (
    Bubble,
    Crate,
    Drum,
    Mine,
    Phase,
    ShoppingList,
    Stage,
    Team,
    TurnProgress,
    Wind,
    Worm,
    WormProgress,
    WormsState,
)


def _worms(state: WormsState, worm_id: str, **changes: object) -> tuple[Worm, ...]:
    return tuple(replace(w, **changes) if w.id == worm_id else w for w in state.worms)  # type: ignore[arg-type]


def _teams(state: WormsState, seat: int, **changes: object) -> tuple[Team, ...]:
    return tuple(replace(t, **changes) if t.seat == seat else t for t in state.teams)  # type: ignore[arg-type]


def _inventory(state: WormsState, seat: int) -> tuple:
    team = state.team(seat)
    return team.inventory if team else ()


@singledispatch
def evolve(event: Event, state: WormsState) -> WormsState:
    return state


@evolve.register
def _(event: ev.GameCreated, state: WormsState) -> WormsState:
    return replace(
        state,
        phase=Phase.SIGNUP,
        settings=event.settings,
        teams=event.teams,
        points=event.points,
        sudden_death_after=event.settings.sudden_death_after,
    )


@evolve.register
def _(event: ev.ShoppingListAccepted, state: WormsState) -> WormsState:
    lists = tuple(s for s in state.shopping if s.seat != event.seat)
    return replace(state, shopping=(*lists, ShoppingList(event.seat, event.inventory)))


@evolve.register
def _(event: ev.MapGenerated, state: WormsState) -> WormsState:
    teams = tuple(
        replace(t, inventory=next((s.inventory for s in state.shopping if s.seat == t.seat), ()))
        for t in state.teams
    )
    return replace(state, heights=event.heights, teams=teams, shopping=())


@evolve.register
def _(event: ev.ObjectsPlaced, state: WormsState) -> WormsState:
    return replace(state, worms=event.worms, mines=event.mines, drums=event.drums)


@evolve.register
def _(event: ev.TurnOrderDrawn, state: WormsState) -> WormsState:
    return replace(state, order=event.order)


@evolve.register
def _(event: ev.GameStarted, state: WormsState) -> WormsState:
    return replace(
        state,
        phase=Phase.PLAYING,
        sudden_death_after=event.sudden_death_after,
        round=1,
        turn=1,
        seat=state.order[0] if state.order else None,
        stage=Stage.STARTING,
        round_opening=True,
    )


@evolve.register
def _(event: ev.RoundBegan, state: WormsState) -> WormsState:
    return replace(state, round=event.round)


@evolve.register
def _(event: ev.WaterRose, state: WormsState) -> WormsState:
    return replace(state, water=event.level)


@evolve.register
def _(event: ev.SuddenDeathBegan, state: WormsState) -> WormsState:
    return replace(state, sudden_death=True)


@evolve.register
def _(event: ev.StalemateDeclared, state: WormsState) -> WormsState:
    return replace(state, stalemate=True)


@evolve.register
def _(event: ev.WindChanged, state: WormsState) -> WormsState:
    return replace(state, wind=Wind(event.direction, event.strength))


@evolve.register
def _(event: ev.CrateDropped, state: WormsState) -> WormsState:
    return replace(state, crates=(*state.crates, Crate(event.x, event.y, event.kind)))


@evolve.register
def _(event: ev.CrateFilled, state: WormsState) -> WormsState:
    crates = tuple(
        replace(c, contents=event.contents) if c.square == (event.x, event.y) else c
        for c in state.crates
    )
    return replace(state, crates=crates)


@evolve.register
def _(event: ev.TurnStarted, state: WormsState) -> WormsState:
    worms = tuple(
        replace(w, invisible_rounds=max(0, w.invisible_rounds - 1)) if w.seat == event.seat else w
        for w in state.worms
    )
    bubbles = tuple(
        replace(b, rounds=b.rounds - 1) if b.seat == event.seat else b for b in state.bubbles
    )
    return replace(
        state,
        worms=worms,
        bubbles=tuple(b for b in bubbles if b.rounds > 0),
        turn=event.turn,
        seat=event.seat,
        stage=Stage.ACTING,
        round_opening=False,
        progress=TurnProgress(),
    )


@evolve.register
def _(event: ev.WormMoved, state: WormsState) -> WormsState:
    state = replace(state, worms=_worms(state, event.worm, x=event.x, y=event.y))
    if event.cost:
        progress = state.progress
        current = progress.of(event.worm) or WormProgress(event.worm)
        moved = replace(current, moved=current.moved + event.cost)
        others = tuple(p for p in progress.worms if p.worm != event.worm)
        if progress.of(event.worm) is None:
            worms = (*others, moved)
        else:
            worms = tuple(moved if p.worm == event.worm else p for p in progress.worms)
        state = replace(state, progress=replace(progress, worms=worms))
    return state


@evolve.register
def _(event: ev.WormDamaged, state: WormsState) -> WormsState:
    return replace(state, worms=_worms(state, event.worm, health=event.health))


@evolve.register
def _(event: ev.WormHealed, state: WormsState) -> WormsState:
    return replace(state, worms=_worms(state, event.worm, health=event.health))


@evolve.register
def _(event: ev.WormPoisoned, state: WormsState) -> WormsState:
    return replace(state, worms=_worms(state, event.worm, poison=event.poison))


@evolve.register
def _(event: ev.PoisonCured, state: WormsState) -> WormsState:
    worms = tuple(replace(w, poison=0) if w.seat == event.seat else w for w in state.worms)
    return replace(state, worms=worms)


@evolve.register
def _(event: ev.ParachuteOpened, state: WormsState) -> WormsState:
    taken = inventory.take(_inventory(state, event.seat), "parachute")
    return replace(state, teams=_teams(state, event.seat, inventory=taken))


@evolve.register
def _(event: ev.WormDied, state: WormsState) -> WormsState:
    return replace(state, worms=tuple(w for w in state.worms if w.id != event.worm))


@evolve.register
def _(event: ev.WormRestored, state: WormsState) -> WormsState:
    worm = Worm(event.worm, event.seat, event.x, event.y, health=event.health)
    return replace(state, worms=(*state.worms, worm), teams=_teams(state, event.seat, out=False))


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
    gained = inventory.add(_inventory(state, event.seat), event.items)
    return replace(state, teams=_teams(state, event.seat, inventory=gained))


@evolve.register
def _(event: ev.ItemsLost, state: WormsState) -> WormsState:
    held = _inventory(state, event.seat)
    for stock in event.items:
        held = inventory.take(held, stock.item, stock.count or 0)
    return replace(state, teams=_teams(state, event.seat, inventory=held))


@evolve.register
def _(event: ev.WeaponFired, state: WormsState) -> WormsState:
    worm = state.worm(event.worm)
    teams = state.teams
    if worm is not None and event.spent:
        held = inventory.take(_inventory(state, worm.seat), event.weapon, event.spent)
        teams = _teams(state, worm.seat, inventory=held)
    progress = state.progress
    current = progress.of(event.worm) or WormProgress(event.worm)
    current = replace(current, allowance=event.allowance)
    if progress.of(event.worm) is None:
        worms = (*progress.worms, current)
    else:
        worms = tuple(current if p.worm == event.worm else p for p in progress.worms)
    progress = replace(
        progress, worms=worms, weapon=event.weapon, shooter=event.worm, shots_left=event.shots_left,
        double=progress.double or event.double,
    )
    return replace(state, teams=teams, progress=progress)


@evolve.register
def _(event: ev.TurnEnded, state: WormsState) -> WormsState:
    if event.next_seat is None:
        return replace(state, progress=TurnProgress(), stage=Stage.STARTING)
    return replace(
        state,
        seat=event.next_seat,
        turn=state.turn + 1,
        stage=Stage.STARTING,
        round_opening=event.round_over,
        progress=TurnProgress(),
    )


@evolve.register
def _(event: ev.TeamEliminated, state: WormsState) -> WormsState:
    return replace(state, teams=_teams(state, event.seat, out=True))


@evolve.register
def _(event: ev.TeamSurrendered, state: WormsState) -> WormsState:
    return replace(state, teams=_teams(state, event.seat, surrendered=True))


@evolve.register
def _(event: ev.GameWon, state: WormsState) -> WormsState:
    return replace(state, phase=Phase.FINISHED, winner=event.seat, stage=Stage.STARTING)


@evolve.register
def _(event: ev.GameDrawn, state: WormsState) -> WormsState:
    return replace(state, phase=Phase.FINISHED, draw=True, winner=None, stage=Stage.STARTING)


def apply(state: WormsState, event: Event) -> WormsState:
    return evolve(event, state)


#: events that only tell someone something: the position they speak of is made by others
INERT: dict[type[Event], str] = {
    ev.CardSeen: "the public's notice of a donor card; CardDropped (moderators) puts it down",
    ev.CrateShowerFell: "announces the shower; the CrateDropped events that follow place the crates",
    ev.TurnBriefing: "a PM of what the team holds and where its invisible worms are (§7)",
    ev.CrateSpyReport: "a PM of crate and card contents the position already holds (§5 CRATE SPY)",
}


def _unchanged(event: Event, state: WormsState) -> WormsState:
    return state


for _inert in INERT:
    evolve.register(_inert, _unchanged)


__all__ = ["INERT", "apply", "evolve"]


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
    held = inventory.take(_inventory(state, event.seat), event.utility)
    state = replace(state, teams=_teams(state, event.seat, inventory=held))
    current = state.progress.of(event.worm) or WormProgress(event.worm)
    if event.utility == "ninja_rope":
        return _progress_of(state, event.worm, rope=True)
    if event.utility == "fast_walk" and not current.fast:
        return _progress_of(state, event.worm, fast=True, allowance=current.allowance * 2)
    return _progress_of(state, event.worm)


@evolve.register
def _(event: ev.Teleported, state: WormsState) -> WormsState:
    return replace(state, worms=_worms(state, event.worm, x=event.x, y=event.y))


@evolve.register
def _(event: ev.BubbleCreated, state: WormsState) -> WormsState:
    others = tuple(b for b in state.bubbles if b.square != (event.x, event.y))
    return replace(state, bubbles=(*others, Bubble(event.x, event.y, event.seat, event.rounds)))


@evolve.register
def _(event: ev.BubbleGone, state: WormsState) -> WormsState:
    return replace(state, bubbles=tuple(b for b in state.bubbles if b.square != (event.x, event.y)))


@evolve.register
def _(event: ev.WormVanished, state: WormsState) -> WormsState:
    return replace(state, worms=_worms(state, event.worm, invisible_rounds=event.rounds))


@evolve.register
def _(event: ev.WormRevealed, state: WormsState) -> WormsState:
    return replace(state, worms=_worms(state, event.worm, invisible_rounds=0))


@evolve.register
def _(event: ev.InvisibleWormMet, state: WormsState) -> WormsState:
    current = state.progress.of(event.walker) or WormProgress(event.walker)
    return _progress_of(state, event.walker, lost=current.lost + event.lost)
