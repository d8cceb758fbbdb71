"""Countdown: a tests-only ruleset made of round clocks, to measure how close to its time
the referee ends a timed round (the Wormlord round clock, a Parties tick).

Each round starts when the scheduler runs ``StartRound`` and must end at
``ends_at_ms = started + round_ms``; ``EndRound`` is scheduled ``when="at"`` that moment,
and its ``RoundEnded`` event records how late the referee's clock stamped it
(``late_ms``), so lateness is read back from the log itself. Seats may ``Tap`` while a
round runs; a tap after the round's end is refused."""

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
    TurnLimits,
    TurnMode,
    Viewer,
    Work,
)
from games.dice import Dice
from games.serialization import DataError, from_data


@dataclass(frozen=True)
class CountdownSettings:
    rounds: int = 2
    round_ms: int = 3000


@dataclass(frozen=True)
class CountdownState:
    seats: tuple[int, ...] = ()
    rounds: int = 0
    round_ms: int = 0
    round: int = 0
    ends_at_ms: int | None = None  # of the round running now
    taps: tuple[tuple[int, int], ...] = ()
    late_ms: tuple[int, ...] = ()
    finished: bool = False


@dataclass(frozen=True)
class StartRound(Command):

    given_by: ClassVar[str] = "referee"
    round: int


@dataclass(frozen=True)
class EndRound(Command):

    given_by: ClassVar[str] = "referee"
    round: int


@dataclass(frozen=True)
class Tap(Command):
    pass


@dataclass(frozen=True)
class CountdownSetUp(Event):
    seats: tuple[int, ...]
    rounds: int
    round_ms: int


@dataclass(frozen=True)
class RoundStarted(Event):
    round: int
    ends_at_ms: int


@dataclass(frozen=True)
class Tapped(Event):
    seat: int


@dataclass(frozen=True)
class RoundEnded(Event):
    round: int
    late_ms: int


class Countdown(Ruleset):
    name = "countdown"
    version = "1"
    title = "Countdown (timer test ruleset)"
    mode = TurnMode.REALTIME
    min_seats = 1
    max_seats = 8
    command_types = (StartRound, EndRound, Tap)
    event_types = (CountdownSetUp, RoundStarted, Tapped, RoundEnded)
    state_type = CountdownState
    settings_type = CountdownSettings
    turn_limits = TurnLimits(minimum=1, maximum=3600, default=180, unit="seconds")

    def parse_settings(self, raw: Mapping[str, Any]) -> CountdownSettings:
        try:
            parsed = from_data(CountdownSettings, dict(raw))
        except DataError as exc:
            raise RuleViolation("settings", str(exc)) from None
        if not (1 <= parsed.rounds <= 100 and 100 <= parsed.round_ms <= 3_600_000):
            raise RuleViolation("settings", "1-100 rounds of 0.1 s to an hour.")
        return parsed

    def initial_state(self) -> CountdownState:
        return CountdownState()

    def setup(self, settings: CountdownSettings, seats: Sequence[SeatInfo], dice: Dice) -> tuple[Event, ...]:
        return (CountdownSetUp(tuple(s.number for s in seats), settings.rounds, settings.round_ms),)

    def decide(self, state: CountdownState, command: Command, dice: Dice) -> tuple[Event, ...]:
        if isinstance(command, StartRound):
            if command.round != state.round + 1 or state.ends_at_ms is not None or state.finished:
                raise RuleViolation("clock", "That round cannot start now.")
            return (RoundStarted(command.round, command.at_ms + state.round_ms),)
        if isinstance(command, EndRound):
            if command.round != state.round or state.ends_at_ms is None:
                raise RuleViolation("clock", "That round is not running.")
            return (RoundEnded(command.round, command.at_ms - state.ends_at_ms),)
        if isinstance(command, Tap):
            if state.ends_at_ms is None or command.at_ms >= state.ends_at_ms:
                raise RuleViolation("clock", "No round is running.")
            return (Tapped(command.actor.seat or 0),)
        raise RuleViolation("order", f"Unknown order {type(command).__name__}.")

    def evolve(self, state: CountdownState, event: Event) -> CountdownState:
        if isinstance(event, CountdownSetUp):
            return replace(state, seats=event.seats, rounds=event.rounds, round_ms=event.round_ms)
        if isinstance(event, RoundStarted):
            return replace(state, round=event.round, ends_at_ms=event.ends_at_ms)
        if isinstance(event, Tapped):
            taps = dict(state.taps)
            taps[event.seat] = taps.get(event.seat, 0) + 1
            return replace(state, taps=tuple(sorted(taps.items())))
        if isinstance(event, RoundEnded):
            return replace(state, ends_at_ms=None, late_ms=(*state.late_ms, event.late_ms),
                           finished=event.round >= state.rounds)
        return state

    def to_act(self, state: CountdownState) -> frozenset[int]:
        return frozenset(state.seats) if state.ends_at_ms is not None else frozenset()

    def is_finished(self, state: CountdownState) -> bool:
        return state.finished

    def result(self, state: CountdownState) -> Result:
        taps = dict(state.taps)
        best = max(taps.values(), default=0)
        winners = tuple(s for s in state.seats if taps.get(s, 0) == best and best > 0)
        return Result(finished=state.finished, winners=winners if state.finished else (),
                      scores=tuple((s, float(taps.get(s, 0))) for s in state.seats))

    def scheduled_work(self, state: CountdownState) -> tuple[Work, ...]:
        if state.finished or not state.seats:
            return ()
        if state.ends_at_ms is None:
            return (Work(("round", state.round + 1, "start"), "now", StartRound(round=state.round + 1)),)
        return (Work(("round", state.round, "end"), "at", EndRound(round=state.round), at_ms=state.ends_at_ms),)

    def deadline_command(self, state: CountdownState, seats: tuple[int, ...], policy: str) -> Command:
        return EndRound(round=state.round)

    def view(self, state: CountdownState, viewer: Viewer) -> dict[str, Any]:
        return {"round": state.round, "rounds": state.rounds, "ends_at_ms": state.ends_at_ms,
                "taps": [list(t) for t in state.taps], "late_ms": list(state.late_ms), "finished": state.finished}


RULESET = Countdown()
