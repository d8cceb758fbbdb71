"""How much one seat may add to the log in a round with orders the rules let it repeat
(version 2, ruling WL-R18).

§5 lets a colour move its headquarters "at any time" and §7.1 lets teammates talk "as much
as they wish"; each accepted order is a record and its event in the append-only log, so
without a bound one seat could add records as fast as it can send them. From version 2 a
colour may place or lift its headquarters ``HQ_MOVES_PER_ROUND`` times in a round, and a
seat may speak ``SAYS_PER_ROUND`` times; the next is refused (and changes nothing) until the
next round starts. The counts are bookkeeping, not the position the notation shows: they
live in a subclass of it, so version 1 games keep their unbounded rules and their plain
position, and replay and verify as they were played."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TypeVar

from games.base import Event, RuleViolation
from games.wormlord import events as ev
from games.wormlord.board import Colour
from games.wormlord.state import WormlordState

#: one move every six seconds of the suggested three-minute round (§7.2), all round long
HQ_MOVES_PER_ROUND = 30
#: a message every two seconds of a three-minute round, break included
SAYS_PER_ROUND = 100

K = TypeVar("K", Colour, int)


@dataclass(frozen=True, repr=False)
class CountedState(WormlordState):
    """Version 2's position: the plain one, plus the repeatable orders given this round."""

    #: (colour, headquarters placed or lifted this round), by colour
    hq_moves: tuple[tuple[Colour, int], ...] = ()
    #: (seat, times it spoke since the round started), by seat
    said: tuple[tuple[int, int], ...] = ()


def counted(state: WormlordState) -> CountedState:
    """The position as version 2 keeps it (a plain one, from set-up or the notation, counts
    nothing yet)."""
    if isinstance(state, CountedState):
        return state
    return CountedState(**{f.name: getattr(state, f.name) for f in fields(WormlordState)})


def count(state: WormlordState, event: Event) -> CountedState:
    """``state`` after ``event`` was applied, with the round's repeatable orders counted."""
    state = counted(state)
    match event:
        case ev.RoundStarted():
            return replace(state, hq_moves=(), said=())
        case ev.HeadquartersPlaced() | ev.HeadquartersLifted():
            return replace(state, hq_moves=_plus_one(state.hq_moves, event.colour))
        case ev.TeamSpoke():
            return replace(state, said=_plus_one(state.said, event.seat))
    return state


def hq_moves_left(state: WormlordState, colour: Colour) -> int:
    return HQ_MOVES_PER_ROUND - dict(counted(state).hq_moves).get(colour, 0)


def check_headquarters(state: WormlordState, colour: Colour) -> None:
    if hq_moves_left(state, colour) <= 0:
        raise RuleViolation(
            "WL-R18", f"{colour.capitalize()} has placed or lifted its headquarters {HQ_MOVES_PER_ROUND} times in "
                      f"round {state.round}, the most a colour may in one round; it stays as it is until the "
                      f"next round starts.",
        )


def check_say(state: WormlordState, seat: int) -> None:
    given = dict(counted(state).said).get(seat, 0)
    if given >= SAYS_PER_ROUND:
        since = f"since round {state.round} started" if state.round else "before the first round"
        raise RuleViolation(
            "WL-R18", f"You have spoken {given} times {since}, the most a seat may in one round; "
                      f"you can talk again when the next round starts.",
        )


def _plus_one(given: tuple[tuple[K, int], ...], key: K) -> tuple[tuple[K, int], ...]:
    counts = dict(given)
    counts[key] = counts.get(key, 0) + 1
    return tuple(sorted(counts.items()))
