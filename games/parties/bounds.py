"""How much one bot may add to the log in a tick (version 2, P-R19).

A bot may change its mind until the tick resolves (P-R6), and its ally policy at any time
(P-R9); each accepted order is a record and its event in the append-only log, so without a
bound one bot could add hundreds of records a tick. From version 2 a seat may choose its
move ``MOVES_PER_TICK`` times and set its ally policy ``POLICIES_PER_TICK`` times in one
tick; the next is refused (and changes nothing) until the next tick starts. Version 1
games keep their unbounded rules and their plain position, so they replay and verify as
they were played."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.base import Event
from games.bounds import Counts, lift, plus_one, refuse_at_limit
from games.parties.events import AllyPolicySet, MoveChosen, TickClosed, TickStarted
from games.parties.state import PartiesState

#: the first choice and two changes of mind
MOVES_PER_TICK = 3
POLICIES_PER_TICK = 3


@dataclass(frozen=True, repr=False)
class CountedState(PartiesState):
    """Version 2's position: the plain one, plus the orders each seat gave this tick."""

    #: (seat, moves chosen this tick), by seat
    moves_given: Counts[int] = ()
    #: (seat, ally policies set this tick), by seat
    policies_given: Counts[int] = ()


def counted(state: PartiesState) -> CountedState:
    """The position as version 2 keeps it (a plain one, from set-up or the notation, counts
    nothing yet)."""
    return lift(state, CountedState, PartiesState)


def count(state: PartiesState, event: Event) -> CountedState:
    """``state`` after ``event`` was applied, with the tick's orders counted."""
    state = counted(state)
    match event:
        case TickStarted() | TickClosed():
            return replace(state, moves_given=(), policies_given=())
        case MoveChosen():
            return replace(state, moves_given=plus_one(state.moves_given, event.seat))
        case AllyPolicySet():
            return replace(state, policies_given=plus_one(state.policies_given, event.seat))
    return state


def check_move(state: PartiesState, seat: int) -> None:
    refuse_at_limit(
        counted(state).moves_given, seat, MOVES_PER_TICK, "P-R19",
        lambda given: f"You have chosen your move {given} times in tick {state.tick}, the most a bot may in one "
                      f"tick; your last choice stands until the tick resolves.",
    )


def check_policy(state: PartiesState, seat: int) -> None:
    refuse_at_limit(
        counted(state).policies_given, seat, POLICIES_PER_TICK, "P-R19",
        lambda given: f"You have set your ally policy {given} times in tick {state.tick}, the most a bot may in "
                      f"one tick; the last one stands, and you may set it again next tick.",
    )
