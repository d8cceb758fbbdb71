"""How often a team may send its list in one turn (version 3, L-R29).

A team may send a new list until the last team's list is in (L-R13), and every list it
sends is a record and its event in the append-only log, so without a bound one team could
add records without limit while it waits for the others. From version 3 a team may send
``LISTS_PER_TURN`` lists in one turn; the next is refused (and changes nothing) until the
next turn starts. The deadline's lists (L-R14) are the referee's, given only to teams
that sent none, and are never refused. Version 1 and 2 games keep their unbounded rules
and their plain position, so they replay and verify as they were played, and the
snapshots they wrote still load."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.base import Event
from games.bounds import Counts, lift, plus_one, refuse_at_limit
from games.lggwg import events as ev
from games.lggwg.state import LggwgState

#: the first list and four changes of mind
LISTS_PER_TURN = 5


@dataclass(frozen=True, repr=False)
class CountedState(LggwgState):
    """Version 3's position: the plain one, plus the lists each team sent this turn."""

    #: (seat, lists sent this turn), by seat
    lists_sent: Counts[int] = ()


def counted(state: LggwgState) -> CountedState:
    """The position as version 3 keeps it (a plain one, from set-up or the notation, counts
    nothing yet)."""
    return lift(state, CountedState, LggwgState)


def count(state: LggwgState, event: Event) -> CountedState:
    """``state`` after ``event`` was applied, with the turn's lists counted."""
    state = counted(state)
    match event:
        case ev.TurnStarted():
            return replace(state, lists_sent=()) if state.lists_sent else state
        case ev.OrdersSubmitted():
            return replace(state, lists_sent=plus_one(state.lists_sent, event.team))
    return state


def check_list(state: LggwgState, seat: int) -> None:
    refuse_at_limit(
        counted(state).lists_sent, seat, LISTS_PER_TURN, "L-R29",
        lambda sent: f"Your team has sent its list {sent} times in turn {state.turn}, the most a team may in one "
                     f"turn; the last list you sent stands until the turn resolves.",
    )
