"""``evolve(state, event)``: apply one event. Never checks, raises or rolls.

The handlers of sign-up, a turn's start and end, and the worms are here; those of the
objects, inventories and utilities are in ``games.worms.evolve_objects``."""

from __future__ import annotations

from dataclasses import replace

from games.base import Event
from games.worms import events as ev
from games.worms import inventory
from games.worms.evolve_objects import evolve, inventory_of, teams_changed, worms_changed
from games.worms.state import (
    Crate,
    Phase,
    ShoppingList,
    Stage,
    TurnProgress,
    Wind,
    Worm,
    WormProgress,
    WormsState,
)


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
    state = replace(state, worms=worms_changed(state, event.worm, x=event.x, y=event.y))
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
    return replace(state, worms=worms_changed(state, event.worm, health=event.health))


@evolve.register
def _(event: ev.WormHealed, state: WormsState) -> WormsState:
    return replace(state, worms=worms_changed(state, event.worm, health=event.health))


@evolve.register
def _(event: ev.WormPoisoned, state: WormsState) -> WormsState:
    return replace(state, worms=worms_changed(state, event.worm, poison=event.poison))


@evolve.register
def _(event: ev.PoisonCured, state: WormsState) -> WormsState:
    worms = tuple(replace(w, poison=0) if w.seat == event.seat else w for w in state.worms)
    return replace(state, worms=worms)


@evolve.register
def _(event: ev.ParachuteOpened, state: WormsState) -> WormsState:
    taken = inventory.take(inventory_of(state, event.seat), "parachute")
    return replace(state, teams=teams_changed(state, event.seat, inventory=taken))


@evolve.register
def _(event: ev.WormDied, state: WormsState) -> WormsState:
    return replace(state, worms=tuple(w for w in state.worms if w.id != event.worm))


@evolve.register
def _(event: ev.WormRestored, state: WormsState) -> WormsState:
    worm = Worm(event.worm, event.seat, event.x, event.y, health=event.health)
    return replace(state, worms=(*state.worms, worm), teams=teams_changed(state, event.seat, out=False))



@evolve.register
def _(event: ev.WeaponFired, state: WormsState) -> WormsState:
    worm = state.worm(event.worm)
    teams = state.teams
    if worm is not None and event.spent:
        held = inventory.take(inventory_of(state, worm.seat), event.weapon, event.spent)
        teams = teams_changed(state, worm.seat, inventory=held)
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
    return replace(state, teams=teams_changed(state, event.seat, out=True))


@evolve.register
def _(event: ev.TeamSurrendered, state: WormsState) -> WormsState:
    return replace(state, teams=teams_changed(state, event.seat, surrendered=True))


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
