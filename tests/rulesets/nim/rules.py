"""Nim's rules: a pure engine (no Django, no clock, no global random, no I/O)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.base import (
    Command,
    Event,
    Result,
    Ruleset,
    RuleViolation,
    SeatInfo,
    TurnMode,
    Viewer,
    Work,
)
from games.dice import Dice
from games.serialization import DataError, from_data


@dataclass(frozen=True)
class NimSettings:
    stones: int = 15
    most: int = 3  # the most stones one turn may take


@dataclass(frozen=True)
class NimState:
    stones: int = 0
    most: int = 0
    seats: tuple[int, ...] = ()
    to_move: int = 0
    winner: int = 0  # 0 while playing
    turn: int = 0  # turns played: names each turn's deadline


@dataclass(frozen=True)
class Take(Command):
    """``{"count": 2}``: take 1 to ``most`` stones (no more than are left)."""

    count: int


@dataclass(frozen=True)
class PassTurn(Command):
    """The referee's order for a seat that missed its deadline (policy ``pass``)."""

    given_by: ClassVar[str] = "referee"


@dataclass(frozen=True)
class PileLaid(Event):
    stones: int
    most: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Taken(Event):
    seat: int
    count: int


@dataclass(frozen=True)
class Passed(Event):
    seat: int


class Nim(Ruleset):
    name = "nim"
    version = "1"
    title = "Nim"
    mode = TurnMode.SEQUENTIAL
    min_seats, max_seats = 2, 4
    command_types = (Take, PassTurn)
    event_types = (PileLaid, Taken, Passed)
    state_type, settings_type = NimState, NimSettings
    deadline_policies = ("pass",)

    def parse_settings(self, raw: Mapping[str, Any]) -> NimSettings:
        try:
            settings = from_data(NimSettings, dict(raw))
        except DataError as exc:
            raise RuleViolation("settings", str(exc)) from None
        if not (1 <= settings.most < settings.stones <= 100):
            raise RuleViolation("settings", "A pile of 2 to 100 stones, and a turn takes at most fewer than all.")
        return settings

    def initial_state(self) -> NimState:
        return NimState()

    def setup(self, settings: NimSettings, seats: Sequence[SeatInfo], dice: Dice) -> tuple[Event, ...]:
        return (PileLaid(settings.stones, settings.most, tuple(s.number for s in seats)),)

    def decide(self, state: NimState, command: Command, dice: Dice) -> tuple[Event, ...]:
        if isinstance(command, PassTurn):
            return (Passed(state.to_move),)
        if not isinstance(command, Take):
            raise RuleViolation("order", f"Nim has no order {type(command).__name__}.")
        if state.winner or command.actor.seat != state.to_move:
            raise RuleViolation("turn", "It is not your turn.")
        if not 1 <= command.count <= min(state.most, state.stones):
            raise RuleViolation("take", f"Take 1 to {min(state.most, state.stones)} stones.")
        return (Taken(state.to_move, command.count),)

    def evolve(self, state: NimState, event: Event) -> NimState:
        if isinstance(event, PileLaid):
            return NimState(event.stones, event.most, event.seats, to_move=event.seats[0])
        if isinstance(event, Taken | Passed):
            stones = state.stones - (event.count if isinstance(event, Taken) else 0)
            after = state.seats[(state.seats.index(event.seat) + 1) % len(state.seats)]
            return replace(state, stones=stones, to_move=after, winner=event.seat if stones == 0 else 0,
                           turn=state.turn + 1)
        return state

    def to_act(self, state: NimState) -> frozenset[int]:
        return frozenset() if state.winner or not state.seats else frozenset({state.to_move})

    def is_finished(self, state: NimState) -> bool:
        return state.winner != 0

    def result(self, state: NimState) -> Result:
        if not state.winner:
            return Result(finished=False)
        return Result(finished=True, winners=(state.winner,),
                      ranking=((state.winner,), tuple(s for s in state.seats if s != state.winner)))

    def scheduled_work(self, state: NimState) -> tuple[Work, ...]:
        if self.is_finished(state) or not state.seats:
            return ()
        return (Work(("turn", state.turn, "deadline"), "deadline", seats=(state.to_move,)),)

    def deadline_command(self, state: NimState, seats: tuple[int, ...], policy: str) -> Command:
        return PassTurn()

    def view(self, state: NimState, viewer: Viewer) -> dict[str, Any]:
        return {"stones": state.stones, "most": state.most, "to_move": state.to_move, "winner": state.winner or None}


RULESET = Nim()
