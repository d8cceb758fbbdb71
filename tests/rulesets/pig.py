"""Pig, the dice game: a small ruleset that exercises the referee core (it lives under
tests/ only, never under games/). On your turn roll a die as often as you like: a 1 loses
the turn's total and passes the turn; Hold banks the total. First to ``target`` wins.

It has what the core must handle: random turn order at set-up, dice in play, a turn-start
phase run by the scheduler, a deadline (the referee holds for you), private notes (one
seat's secret) and a finish.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.base import (
    ActorKind,
    Audience,
    Command,
    Event,
    Result,
    Ruleset,
    RuleViolation,
    SeatInfo,
    TurnLimits,
    TurnMode,
    Viewer,
    ViewerKind,
    Work,
)
from games.dice import Dice
from games.serialization import DataError, from_data


@dataclass(frozen=True)
class PigSettings:
    target: int = 30
    #: Busy work in the turn-start phase, so a test can kill a worker in the middle of it.
    start_cost: int = 0


@dataclass(frozen=True)
class PigState:
    order: tuple[int, ...] = ()
    scores: tuple[tuple[int, int], ...] = ()
    to_move: int = 0
    turn: int = 0
    turn_total: int = 0
    turn_started: bool = False
    target: int = 30
    start_cost: int = 0
    winner: int | None = None
    notes: tuple[tuple[int, str], ...] = ()

    def score(self, seat: int) -> int:
        return dict(self.scores)[seat]


# commands
@dataclass(frozen=True)
class Roll(Command):
    pass


@dataclass(frozen=True)
class Hold(Command):
    pass


@dataclass(frozen=True)
class WriteNote(Command):
    text: str


@dataclass(frozen=True)
class StartTurn(Command):

    given_by: ClassVar[str] = "referee"
    turn: int


# events
@dataclass(frozen=True)
class GameSetUp(Event):
    order: tuple[int, ...]
    target: int
    start_cost: int = 0


@dataclass(frozen=True)
class TurnStarted(Event):
    turn: int
    seat: int


@dataclass(frozen=True)
class DieRolled(Event):
    seat: int
    value: int


@dataclass(frozen=True)
class TurnLost(Event):
    seat: int


@dataclass(frozen=True)
class Held(Event):
    seat: int
    banked: int


@dataclass(frozen=True)
class NoteWritten(Event):
    seat: int
    text: str

    def audience(self) -> Audience:
        return Audience.only(self.seat)


@dataclass(frozen=True)
class GameWon(Event):
    seat: int


class Pig(Ruleset):
    name = "pig"
    version = "1"
    title = "Pig (core test ruleset)"
    mode = TurnMode.SEQUENTIAL
    min_seats = 2
    max_seats = 4
    command_types = (Roll, Hold, WriteNote, StartTurn)
    event_types = (GameSetUp, TurnStarted, DieRolled, TurnLost, Held, NoteWritten, GameWon)
    state_type = PigState
    settings_type = PigSettings
    records_rejections = True
    deadline_policies = ("hold",)
    #: Short turns are allowed so that scheduling tests can expire real deadlines quickly.
    turn_limits = TurnLimits(minimum=60, maximum=7 * 86400, default=36 * 3600, unit="minutes")

    def parse_settings(self, raw: Mapping[str, Any]) -> PigSettings:
        try:
            parsed = from_data(PigSettings, dict(raw))
        except DataError as exc:
            raise RuleViolation("settings", str(exc)) from None
        if not 1 <= parsed.target <= 1000:
            raise RuleViolation("settings", "The target must be between 1 and 1000.")
        return parsed

    def initial_state(self) -> PigState:
        return PigState()

    def setup(self, settings: PigSettings, seats: Sequence[SeatInfo], dice: Dice) -> tuple[Event, ...]:
        order = dice.shuffle("turn order", [s.number for s in seats])
        return (GameSetUp(order, settings.target, settings.start_cost),)

    def decide(self, state: PigState, command: Command, dice: Dice) -> tuple[Event, ...]:
        if state.winner is not None:
            raise RuleViolation("end", "The game is over.")
        if isinstance(command, StartTurn):
            if command.actor.kind not in (ActorKind.SCHEDULER, ActorKind.REFEREE):
                raise RuleViolation("turn", "Only the referee starts turns.")
            if state.turn_started or command.turn != state.turn:
                raise RuleViolation("turn", f"Turn {command.turn} is not waiting to start.")
            _busy(state.start_cost)
            return (TurnStarted(state.turn, state.order[state.to_move]),)
        seat = command.actor.seat
        if isinstance(command, WriteNote):
            if seat is None:
                raise RuleViolation("notes", "Only players keep notes.")
            if not command.text.strip():
                raise RuleViolation("notes", "A note needs some text.")
            return (NoteWritten(seat, command.text),)
        acting = state.order[state.to_move]
        if command.actor.kind is ActorKind.PLAYER and seat != acting:
            raise RuleViolation("turn", "It is not your turn.")
        if not state.turn_started:
            raise RuleViolation("turn", "Your turn has not started yet.")
        if isinstance(command, Roll):
            value = dice.roll("pig die", 1, 6)
            if value == 1:
                return (DieRolled(acting, 1), TurnLost(acting))
            return (DieRolled(acting, value),)
        if isinstance(command, Hold):
            banked = state.turn_total
            events: tuple[Event, ...] = (Held(acting, banked),)
            if state.score(acting) + banked >= state.target:
                events += (GameWon(acting),)
            return events
        raise RuleViolation("order", f"{type(command).__name__} is not a Pig order.")

    def evolve(self, state: PigState, event: Event) -> PigState:
        match event:
            case GameSetUp(order=order, target=target, start_cost=cost):
                return _with(
                    state, order=order, scores=tuple((s, 0) for s in sorted(order)), target=target, start_cost=cost
                )
            case TurnStarted():
                return _with(state, turn_started=True, turn_total=0)
            case DieRolled(value=value) if value != 1:
                return _with(state, turn_total=state.turn_total + value)
            case TurnLost():
                return _next_turn(state)
            case Held(seat=seat, banked=banked):
                scores = tuple((s, v + banked if s == seat else v) for s, v in state.scores)
                return _next_turn(_with(state, scores=scores))
            case NoteWritten(seat=seat, text=text):
                return _with(state, notes=(*state.notes, (seat, text)))
            case GameWon(seat=seat):
                return _with(state, winner=seat)
        return state

    def to_act(self, state: PigState) -> frozenset[int]:
        if not state.order or state.winner is not None or not state.turn_started:
            return frozenset()
        return frozenset({state.order[state.to_move]})

    def is_finished(self, state: PigState) -> bool:
        return state.winner is not None

    def result(self, state: PigState) -> Result:
        ranking = tuple((s,) for s, _ in sorted(state.scores, key=lambda item: -item[1]))
        return Result(finished=state.winner is not None, winners=() if state.winner is None else (state.winner,),
                      ranking=ranking if state.winner is not None else (),
                      scores=tuple((s, float(v)) for s, v in state.scores))

    def scheduled_work(self, state: PigState) -> tuple[Work, ...]:
        if not state.order or state.winner is not None:
            return ()
        if not state.turn_started:
            return (Work(("turn", state.turn, "start"), "now", StartTurn(turn=state.turn)),)
        return (Work(("turn", state.turn, "deadline"), "deadline", seats=(state.order[state.to_move],)),)

    def deadline_command(self, state: PigState, seats: tuple[int, ...], policy: str) -> Command:
        return Hold()

    def view(self, state: PigState, viewer: Viewer) -> dict[str, Any]:
        notes = [
            {"seat": s, "text": t}
            for s, t in state.notes
            if viewer.kind is ViewerKind.MODERATOR or (viewer.kind is ViewerKind.SEAT and viewer.seat == s)
        ]
        return {
            "order": list(state.order),
            "scores": {str(s): v for s, v in state.scores},
            "to_act": sorted(self.to_act(state)),
            "turn": state.turn,
            "turn_total": state.turn_total,
            "winner": state.winner,
            "notes": notes,
        }


def _busy(iterations: int) -> None:
    total = 0
    for i in range(iterations):
        total ^= i


def _with(state: PigState, **changes: Any) -> PigState:
    """``dataclasses.replace`` without its walk over the fields (``fields()``, a ``getattr``
    and a frozen ``__setattr__`` per field): it cost more than the rest of Pig's fold, which
    benchmarks replay tens of thousands of times. Valid while PigState has no
    ``__post_init__``, no ``init=False`` field and no slots."""
    new = object.__new__(PigState)
    new.__dict__.update(state.__dict__, **changes)
    return new


def _next_turn(state: PigState) -> PigState:
    return _with(
        state, to_move=(state.to_move + 1) % len(state.order), turn=state.turn + 1,
        turn_total=0, turn_started=False,
    )


RULESET = Pig()
