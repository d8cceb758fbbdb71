"""Closing a tick: reveal the moves, move, settle meetings, then end the game or open the
next tick (its start time is the time of the order that closed this one)."""

from __future__ import annotations

from collections.abc import Iterable

from games.base import Event
from games.dice import Dice
from games.parties.encounters import encounter_events
from games.parties.events import GameEnded, TickClosed, TickStarted
from games.parties.evolve import evolve
from games.parties.movement import movement_events
from games.parties.state import PartiesState

UNITED = "united"
TICK_CAP = "tick cap"


def close_tick(state: PartiesState, at_ms: int, by: str, dice: Dice) -> list[Event]:
    moves = {seat: state.pending_move(seat) or "stay" for seat in sorted(state.movers())}
    events: list[Event] = [TickClosed(state.tick, tuple(sorted(moves.items())), by)]
    moved = movement_events(state, moves)
    events += moved
    state = _fold(evolve(state, events[0]), moved)
    state, met = encounter_events(state, dice)
    events += met
    if len(state.groups()) == 1:
        events.append(GameEnded(UNITED, ranking(state)))
    elif state.tick >= state.max_ticks:
        events.append(GameEnded(TICK_CAP, ranking(state)))
    else:
        events.append(TickStarted(state.tick + 1, at_ms, at_ms + state.tick_ms))
    return events


def _fold(state: PartiesState, events: Iterable[Event]) -> PartiesState:
    for event in events:
        state = evolve(state, event)
    return state


def ranking(state: PartiesState) -> tuple[tuple[int, ...], ...]:
    """Places by score, strength breaking ties (Game Conclusion); bots equal in both share
    a place (P-R18)."""
    places: dict[tuple[int, int], list[int]] = {}
    for bot in state.bots:
        places.setdefault((-bot.score, -bot.strength), []).append(bot.seat)
    return tuple(tuple(places[key]) for key in sorted(places))
