"""``evolve``: apply one event. Never checks, raises or rolls (replay is a fold)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from games.base import Event
from games.wormlord import events as ev
from games.wormlord.board import Colour
from games.wormlord.state import STRINGS, Knot, Phase, Side, WormlordState


def apply(state: WormlordState, event: Event) -> WormlordState:
    match event:
        case ev.GameSetUp():
            sides = tuple(Side(s.colour, s.seats, s.base) for s in event.sides)
            return WormlordState(
                phase=Phase.WAITING, map_id=event.map_id, grid=event.grid, sides=sides, timing=event.timing
            )
        case ev.RoundStarted():
            sides = tuple(
                replace(s, supply=STRINGS, hq=None, next_at_ms=event.first_knot_at_ms) for s in state.sides
            )
            return replace(
                state, phase=Phase.RUNNING, round=event.round, sides=sides, knots=(),
                starts_at_ms=event.starts_at_ms, ends_at_ms=event.ends_at_ms, ended_at_ms=None,
            )
        case ev.KnotLiberated():
            knots = tuple(k for k in state.knots if k.square != event.square)
            return _side(replace(state, knots=knots), event.owner, lambda s: replace(s, supply=s.supply + 1))
        case ev.KnotPlaced():
            knot = Knot(event.square, event.colour, event.seat, event.at_ms)
            knots = tuple(sorted((*state.knots, knot), key=lambda k: _order(k.square)))
            return _side(
                replace(state, knots=knots), event.colour,
                lambda s: replace(s, supply=s.supply - 1, next_at_ms=event.next_at_ms),
            )
        case ev.HeadquartersPlaced():
            return _side(state, event.colour, lambda s: replace(s, hq=event.square))
        case ev.HeadquartersLifted():
            return _side(state, event.colour, lambda s: replace(s, hq=None))
        case ev.RoundWon():
            state = _side(state, event.colour, lambda s: replace(s, wins=s.wins + 1))
            return replace(state, phase=Phase.BREAK, ended_at_ms=event.at_ms)
        case ev.RoundTied():
            return replace(state, phase=Phase.BREAK, ended_at_ms=event.at_ms)
        case ev.GameWon():
            return replace(state, phase=Phase.OVER)
    return state  # TeamSpoke: talk leaves no trace on the board


def _side(state: WormlordState, colour: Colour, change: Callable[[Side], Side]) -> WormlordState:
    return replace(state, sides=tuple(change(s) if s.colour is colour else s for s in state.sides))


def _order(square: str) -> tuple[int, str]:
    """Knots are kept sorted row by row (as the notation lists them)."""
    return int(square[1:]), square[0]
