"""The Parties ruleset: the contract of games.base over the modules of this package."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.base import (
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
from games.parties import views
from games.parties.board import CHOICES, STAY, TERRAIN_NAMES, name, step
from games.parties.bounds import CountedState, check_move, check_policy, count
from games.parties.commands import Move, ResolveTick, SetAllyPolicy, StartTick
from games.parties.events import (
    AllianceDeclined,
    AllianceFormed,
    AllyPolicySet,
    BattleFought,
    BotMoved,
    GameEnded,
    GameSetUp,
    MoveBlocked,
    MoveChosen,
    PartyJoined,
    Squeezed,
    TickClosed,
    TickStarted,
)
from games.parties.evolve import evolve
from games.parties.mapgen import setup_events
from games.parties.settings import MAX_TICK_SECONDS, PartiesSettings, parse_settings
from games.parties.state import ALLY_POLICIES, PartiesState, tenths
from games.parties.ticks import close_tick, ranking

_ENGINE = (ActorKind.SCHEDULER, ActorKind.REFEREE)


class PartiesRuleset(Ruleset):
    name = "parties"
    #: Version 2 bounds the orders a bot gives in one tick (P-R19, ``games.parties.bounds``);
    #: version 1 games keep version 1's rules (``PartiesRulesetV1``).
    version = "2"
    title = "Parties (bot arena)"
    mode = TurnMode.TICK
    min_seats = 2
    max_seats = 8
    command_types = (Move, SetAllyPolicy, StartTick, ResolveTick)
    event_types = (
        GameSetUp, TickStarted, MoveChosen, AllyPolicySet, TickClosed, MoveBlocked, BotMoved, Squeezed,
        AllianceFormed, AllianceDeclined, PartyJoined, BattleFought, GameEnded,
    )
    state_type: ClassVar[type] = CountedState
    settings_type = PartiesSettings
    records_rejections = True
    deadline_policies: ClassVar[tuple[str, ...]] = ("stay",)
    # Ticks run on their own setting (tick_seconds, P-R4) through "at" work; these bounds
    # are the same, for a referee that shows or checks a turn limit.
    turn_limits: ClassVar[TurnLimits] = TurnLimits(
        minimum=2, maximum=MAX_TICK_SECONDS, default=10, unit="seconds", rule="P-R4"
    )

    def parse_settings(self, raw: Mapping[str, Any]) -> PartiesSettings:
        return parse_settings(raw)

    def clock_settings(
        self, settings: Mapping[str, Any], turn_limit_seconds: int | None
    ) -> tuple[dict[str, Any], int | None]:
        """The tick is the turn limit (P-R4): whichever of ``tick_seconds`` and the turn
        limit is given sets both; given both, they must agree."""
        out = dict(settings)
        tick = out.get("tick_seconds")
        if turn_limit_seconds is None:
            if isinstance(tick, int) and not isinstance(tick, bool):
                return out, tick
            return out, None  # a malformed tick_seconds is refused by parse_settings
        if tick is not None and tick != turn_limit_seconds:
            raise RuleViolation(
                "P-R4", f"The settings give a {tick} s tick but the turn limit is {turn_limit_seconds} s; "
                        "a tick is the turn limit, so give one of them or the same figure."
            )
        out["tick_seconds"] = turn_limit_seconds
        return out, turn_limit_seconds

    def initial_state(self) -> PartiesState:
        return CountedState()

    def setup(self, settings: PartiesSettings, seats: Sequence[SeatInfo], dice: Dice) -> tuple[Event, ...]:
        return setup_events(settings, seats, dice)

    # --- play ------------------------------------------------------------------------------

    def decide(self, state: PartiesState, command: Command, dice: Dice) -> tuple[Event, ...]:
        if state.finished:
            raise RuleViolation("end", "The game is over.")
        if isinstance(command, StartTick):
            return self._start(state, command)
        if isinstance(command, ResolveTick):
            return self._resolve(state, command, dice)
        seat = command.actor.seat
        if command.actor.kind is not ActorKind.PLAYER or seat is None or not state.has(seat):
            raise RuleViolation("order", "Only a bot in this game gives that order.")
        self._within_bounds(state, seat, command)
        if isinstance(command, SetAllyPolicy):
            if command.policy not in ALLY_POLICIES:
                raise RuleViolation("§1.1", f"{command.policy!r} is not an ally policy; choose one of {', '.join(ALLY_POLICIES)}.")
            return (AllyPolicySet(seat, command.policy),)
        if isinstance(command, Move):
            return self._move(state, seat, command, dice)
        raise RuleViolation("order", f"{type(command).__name__} is not a Parties order.")

    def _within_bounds(self, state: PartiesState, seat: int, command: Command) -> None:
        if isinstance(command, Move):
            check_move(state, seat)
        elif isinstance(command, SetAllyPolicy):
            check_policy(state, seat)

    def _start(self, state: PartiesState, command: StartTick) -> tuple[Event, ...]:
        if command.actor.kind not in _ENGINE:
            raise RuleViolation("tick", "Only the referee starts ticks.")
        if state.tick != 0 or command.tick != 1:
            raise RuleViolation("tick", f"Tick {command.tick} is not waiting to start.")
        return (TickStarted(1, command.at_ms, command.at_ms + state.tick_ms),)

    def _resolve(self, state: PartiesState, command: ResolveTick, dice: Dice) -> tuple[Event, ...]:
        if command.actor.kind not in _ENGINE:
            raise RuleViolation("tick", "Only the referee ends a tick.")
        if state.tick == 0 or command.tick != state.tick:
            raise RuleViolation("tick", f"Tick {command.tick} is not the tick in play (tick {state.tick}).")
        if command.actor.kind is ActorKind.SCHEDULER and command.at_ms < state.deadline_ms:
            raise RuleViolation("tick", f"Tick {state.tick} runs until {state.deadline_ms} ms.")
        return tuple(close_tick(state, command.at_ms, "deadline", dice))

    def _move(self, state: PartiesState, seat: int, command: Move, dice: Dice) -> tuple[Event, ...]:
        if state.tick == 0:
            raise RuleViolation("tick", "The first tick has not started yet.")
        if command.tick is not None and command.tick != state.tick:
            raise RuleViolation("tick", f"This is tick {state.tick}, not tick {command.tick}.")
        if command.direction not in CHOICES:
            raise RuleViolation("§4.1", f"{command.direction!r} is not a move; choose one of {', '.join(CHOICES)}.")
        group = state.group_of(seat)
        if group[0] != seat:
            raise RuleViolation("§4.1", f"Your party's leader (bot {group[0]}) chooses its moves; you follow.")
        bot = state.bot(seat)
        if command.direction != STAY:
            target = step(bot.square, command.direction)
            terrain = state.terrain
            if not terrain.inside(target):
                raise RuleViolation("grid", f"{command.direction} from {name(bot.square)} leaves the grid.")
            if terrain.blocked(target):
                raise RuleViolation(
                    "§5.1", f"{name(target)} is {TERRAIN_NAMES[terrain.at(target)]}; mountains and forests are impassable."
                )
            other = state.bot_at(target)
            if other is not None and other.seat in group:
                raise RuleViolation("§4.2", f"{name(target)} is taken by bot {other.seat} of your own party.")
            if other is not None:
                raise RuleViolation("P-R8", f"{name(target)} is taken by bot {other.seat}; step next to it to meet it.")
        events: tuple[Event, ...] = (MoveChosen(state.tick, seat, command.direction, group),)
        after = evolve(state, events[0])
        if self.to_act(after):
            return events
        return events + tuple(close_tick(after, command.at_ms, "all moved", dice))

    def evolve(self, state: PartiesState, event: Event) -> PartiesState:
        return count(evolve(state, event), event)

    # --- scheduling -------------------------------------------------------------------------

    def to_act(self, state: PartiesState) -> frozenset[int]:
        if state.finished or state.tick == 0:
            return frozenset()
        chosen = {s for s, _ in state.pending}
        return frozenset(s for s in state.movers() if s not in chosen)

    def is_finished(self, state: PartiesState) -> bool:
        return state.finished

    def scheduled_work(self, state: PartiesState) -> tuple[Work, ...]:
        if state.finished or not state.bots:
            return ()
        if state.tick == 0:
            return (Work(key=("start",), when="now", command=StartTick(tick=1)),)
        return (Work(key=("tick", state.tick), when="at", at_ms=state.deadline_ms, command=ResolveTick(tick=state.tick)),)

    def deadline_command(self, state: PartiesState, seats: tuple[int, ...], policy: str) -> Command:
        """Missing moves are "stay" (P-R6): the tick is simply resolved."""
        return ResolveTick(tick=state.tick)

    def result(self, state: PartiesState) -> Result:
        places = ranking(state)
        scores = tuple((b.seat, float(b.score)) for b in state.bots)
        if not state.finished:
            return Result(finished=False, ranking=places, scores=scores)
        medals = ("1st", "2nd", "3rd")
        parts = []
        for medal, place in zip(medals, places, strict=False):
            who = " and ".join(f"bot {s} ({state.bot(s).score} points, strength {tenths(state.bot(s).strength)})" for s in place)
            parts.append(f"{medal}: {who}")
        how = "all bots united in one party" if state.ended == "united" else f"tick cap of {state.max_ticks} reached"
        return Result(
            finished=True, winners=places[0] if places else (), ranking=places, scores=scores,
            draw=False, summary=f"Game over ({how}). " + "; ".join(parts) + ".",
        )

    # --- visibility ------------------------------------------------------------------------------

    def view(self, state: PartiesState, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer, self.to_act(state), ranking(state))


RULESET = PartiesRuleset()


class PartiesRulesetV1(PartiesRuleset):
    """Games begun before version 2: a bot may give any number of orders in a tick."""

    version = "1"
    state_type: ClassVar[type] = PartiesState

    def initial_state(self) -> PartiesState:
        return PartiesState()

    def evolve(self, state: PartiesState, event: Event) -> PartiesState:
        return evolve(state, event)

    def _within_bounds(self, state: PartiesState, seat: int, command: Command) -> None:
        return None


RULESET_V1 = PartiesRulesetV1()
