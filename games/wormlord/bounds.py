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

from dataclasses import dataclass, replace

from games.base import Event, RuleViolation
from games.bounds import Counts, lift, plus_one, refuse_at_limit, times
from games.wormlord import events as ev
from games.wormlord.board import Colour
from games.wormlord.state import WormlordState

#: one move every six seconds of the suggested three-minute round (§7.2), all round long
HQ_MOVES_PER_ROUND = 30
#: a message every two seconds of a three-minute round, break included
SAYS_PER_ROUND = 100


@dataclass(frozen=True, repr=False)
class CountedState(WormlordState):
    """Version 2's position: the plain one, plus the repeatable orders given this round."""

    #: (colour, headquarters placed or lifted this round), by colour
    hq_moves: Counts[Colour] = ()
    #: (seat, times it spoke since the round started), by seat
    said: Counts[int] = ()


def counted(state: WormlordState) -> CountedState:
    """The position as version 2 keeps it (a plain one, from set-up or the notation, counts
    nothing yet)."""
    return lift(state, CountedState, WormlordState)


def count(state: WormlordState, event: Event) -> CountedState:
    """``state`` after ``event`` was applied, with the round's repeatable orders counted."""
    state = counted(state)
    match event:
        case ev.RoundStarted():
            return replace(state, hq_moves=(), said=())
        case ev.HeadquartersPlaced() | ev.HeadquartersLifted():
            return replace(state, hq_moves=plus_one(state.hq_moves, event.colour))
        case ev.TeamSpoke():
            return replace(state, said=plus_one(state.said, event.seat))
    return state


def hq_moves_left(state: WormlordState, colour: Colour) -> int:
    return HQ_MOVES_PER_ROUND - times(counted(state).hq_moves, colour)


def check_headquarters(state: WormlordState, colour: Colour) -> None:
    if hq_moves_left(state, colour) <= 0:
        raise RuleViolation(
            "WL-R18", f"{colour.capitalize()} has placed or lifted its headquarters {HQ_MOVES_PER_ROUND} times in "
                      f"round {state.round}, the most a colour may in one round; it stays as it is until the "
                      f"next round starts.",
        )


def check_say(state: WormlordState, seat: int) -> None:
    since = f"since round {state.round} started" if state.round else "before the first round"
    refuse_at_limit(
        counted(state).said, seat, SAYS_PER_ROUND, "WL-R18",
        lambda given: f"You have spoken {given} times {since}, the most a seat may in one round; "
                      f"you can talk again when the next round starts.",
    )
