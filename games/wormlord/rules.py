"""The ruleset: ``decide`` dispatches each order to its topic module; ``evolve`` is
``games.wormlord.evolve.apply``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.base import (
    REFEREE,
    ActorKind,
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
from games.wormlord import actions, bounds, maps, rounds, signup
from games.wormlord import events as ev
from games.wormlord.commands import (
    COMMAND_TYPES,
    Conquer,
    EndRound,
    Liberate,
    LiftHeadquarters,
    Pass,
    PlaceHeadquarters,
    Say,
    StartRound,
)
from games.wormlord.evolve import apply
from games.wormlord.state import Phase, Settings, WormlordState
from games.wormlord.views import view as view_state


class WormlordRuleset(Ruleset):
    name: ClassVar[str] = "wormlord"
    #: 2: Musical Chairs has its impassable tiles (WL-R13), and a round bounds the
    #: headquarters moves of a colour and the talk of a seat (WL-R18, ``games.wormlord.bounds``).
    #: Version 1 games keep the map they were set up on and their unbounded orders
    #: (``WormlordRulesetV1``), so they verify.
    version: ClassVar[str] = "2"
    #: earlier map drawings this version sets games up on (map id -> file in maps/)
    drawings: ClassVar[Mapping[str, str]] = maps.NO_DRAWINGS
    title: ClassVar[str] = "Wormlord"
    mode: ClassVar[TurnMode] = TurnMode.REALTIME
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    command_types: ClassVar[tuple[type[Command], ...]] = COMMAND_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = ev.EVENT_TYPES
    state_type: ClassVar[type] = bounds.CountedState
    settings_type: ClassVar[type] = Settings
    #: A refusal is answered to the player at once and not kept: in a real-time game every
    #: early click would otherwise leave a record in the append-only log (WL-R16).
    records_rejections: ClassVar[bool] = False
    #: a real-time game has no per-turn deadline (WL-R10): nothing is ever played for a seat
    deadline_policies: ClassVar[tuple[str, ...]] = ("none",)
    turn_limits: ClassVar[TurnLimits] = signup.ROUND_LIMITS

    def parse_settings(self, raw: Mapping[str, Any]) -> Settings:
        return signup.parse_settings(raw)

    def clock_settings(
        self, settings: Mapping[str, Any], turn_limit_seconds: int | None
    ) -> tuple[dict[str, Any], int | None]:
        """The turn limit is the round clock (WL-R10): a limit given is written into the
        settings, a ``round_seconds`` given alone is the limit, two that differ are refused."""
        return signup.clock_settings(settings, turn_limit_seconds)

    def initial_state(self) -> WormlordState:
        return bounds.CountedState()

    def setup(self, settings: Any, seats: Sequence[SeatInfo], dice: Dice) -> tuple[Event, ...]:
        return signup.setup(settings, seats, self.drawings)

    def decide(self, state: WormlordState, command: Command, dice: Dice) -> tuple[Event, ...]:
        if state.phase is Phase.NEW:
            raise RuleViolation("§1", "The game has not been set up.")
        match command:
            case Conquer():
                return actions.conquer(state, command)
            case Liberate():
                return actions.liberate(state, command)
            case PlaceHeadquarters():
                return self._within_bounds(state, actions.place_headquarters(state, command))
            case LiftHeadquarters():
                return self._within_bounds(state, actions.lift_headquarters(state, command))
            case Say():
                return self._within_bounds(state, actions.say(state, command))
            case StartRound():
                return rounds.start_round(state, command)
            case EndRound():
                return rounds.end_round(state, command)
            case Pass():
                if command.actor.kind is ActorKind.PLAYER:
                    raise RuleViolation("order", "Pass is the referee's; a player simply waits.")
                return ()
        raise RuleViolation("order", f"{type(command).__name__} is not an order in Wormlord.")

    def _within_bounds(self, state: WormlordState, events: tuple[Event, ...]) -> tuple[Event, ...]:
        """An order the rules allow, refused if it would pass the round's bound (WL-R18): checked
        after the order's own rules, so a wrong square is told as such."""
        for event in events:
            if isinstance(event, ev.HeadquartersPlaced | ev.HeadquartersLifted):
                bounds.check_headquarters(state, event.colour)
            elif isinstance(event, ev.TeamSpoke):
                bounds.check_say(state, event.seat)
        return events

    def evolve(self, state: WormlordState, event: Event) -> WormlordState:
        return bounds.count(apply(state, event), event)

    def to_act(self, state: WormlordState) -> frozenset[int]:
        """Real time: every seat may act while a round runs (counting down included)."""
        return frozenset(state.seats()) if state.phase is Phase.RUNNING else frozenset()

    def is_finished(self, state: WormlordState) -> bool:
        return state.phase is Phase.OVER

    def scheduled_work(self, state: WormlordState) -> tuple[Work, ...]:
        return rounds.scheduled_work(state)

    def deadline_command(self, state: WormlordState, seats: tuple[int, ...], policy: str) -> Command:
        """Never asked for (no deadline work, WL-R10); if it were, nothing happens."""
        return Pass(actor=REFEREE)

    def result(self, state: WormlordState) -> Result:
        """Rounds won are the scores; seats of a team share a place."""
        winner = state.winner()
        scores = tuple(sorted((seat, float(s.wins)) for s in state.sides for seat in s.seats))
        places: dict[int, list[int]] = {}
        for side in state.sides:
            places.setdefault(side.wins, []).extend(side.seats)
        ranking = tuple(tuple(sorted(places[w])) for w in sorted(places, reverse=True))
        summary = ""
        if winner is not None:
            who = " and ".join(f"seat {s}" for s in winner.seats)
            summary = f"{winner.colour.capitalize()} ({who}) won {winner.wins} rounds."
        return Result(
            finished=self.is_finished(state), winners=winner.seats if winner else (),
            ranking=ranking if state.sides else (), scores=scores, summary=summary,
        )

    def view(self, state: WormlordState, viewer: Viewer) -> dict[str, Any]:
        return view_state(state, viewer, self.to_act(state))


RULESET = WormlordRuleset()


class WormlordRulesetV1(WormlordRuleset):
    """Games begun before version 2: Musical Chairs drawn without impassable tiles, and a
    colour may move its headquarters, and a seat talk, any number of times a round."""

    version: ClassVar[str] = "1"
    drawings: ClassVar[Mapping[str, str]] = maps.DRAWINGS_V1
    state_type: ClassVar[type] = WormlordState

    def initial_state(self) -> WormlordState:
        return WormlordState()

    def evolve(self, state: WormlordState, event: Event) -> WormlordState:
        return apply(state, event)

    def _within_bounds(self, state: WormlordState, events: tuple[Event, ...]) -> tuple[Event, ...]:
        return events


RULESET_V1 = WormlordRulesetV1()
