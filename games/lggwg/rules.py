"""The ruleset: ``decide`` validates and resolves on a working copy (``Outcome``);
``evolve`` is ``games.lggwg.evolve.apply``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
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
from games.lggwg import bot, bot_v1
from games.lggwg import events as ev
from games.lggwg.bounds import CountedState, check_list, count
from games.lggwg.commands import COMMAND_TYPES, ResolveAtDeadline, SubmitOrders
from games.lggwg.evolve import apply
from games.lggwg.maps import MAP_NAMES, MapError, load_map
from games.lggwg.orders import check_orders
from games.lggwg.outcome import Outcome
from games.lggwg.resolve import resolve
from games.lggwg.scoring import end_of_turn, result
from games.lggwg.state import LggwgState, Order, Phase, Settings, Team, Unit
from games.lggwg.units import UNITS
from games.lggwg.views import view as view_state
from games.lggwg.views import view_event as redact_event

DEFAULT_MAPS = {2: "duel", 3: "triangle", 4: "cross"}


class LggwgRuleset(Ruleset):
    name: ClassVar[str] = "lggwg"
    #: 2: the deadline bot never aims where its own team could be hit (L-R14). 3: a team sends
    #: at most 5 lists a turn (L-R29, ``games.lggwg.bounds``). Older games keep their
    #: version's rules (``LggwgRulesetV2``, ``LggwgRulesetV1``), so they verify as played.
    version: ClassVar[str] = "3"
    title: ClassVar[str] = "Little Green Guys With Guns"
    mode: ClassVar[TurnMode] = TurnMode.SIMULTANEOUS
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    command_types: ClassVar[tuple[type[Command], ...]] = COMMAND_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = ev.EVENT_TYPES
    state_type: ClassVar[type] = CountedState
    settings_type: ClassVar[type] = Settings
    records_rejections: ClassVar[bool] = True
    deadline_policies: ClassVar[tuple[str, ...]] = ("hold", "bot")
    #: A team's whole order list is one order; the API's /turn/ sends it as a list of steps.
    whole_turn: ClassVar[tuple[str, str] | None] = ("SubmitOrders", "orders")
    turn_limits: ClassVar[TurnLimits] = TurnLimits(
        minimum=60, maximum=7 * 24 * 3600, default=48 * 3600, unit="hours", rule="L-R14"
    )

    # --- set-up ------------------------------------------------------------------------

    def parse_settings(self, raw: Mapping[str, Any]) -> Settings:
        known = {f.name for f in fields(Settings)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise RuleViolation("settings", f"Unknown settings: {', '.join(unknown)} (known: {', '.join(sorted(known))}).")
        settings = Settings(**{k: raw[k] for k in raw})
        if not isinstance(settings.map, str) or (settings.map and settings.map not in MAP_NAMES):
            raise RuleViolation("settings", f"map must be one of {', '.join(MAP_NAMES)} (or empty for the map that fits the seats).")
        if isinstance(settings.max_turns, bool) or not isinstance(settings.max_turns, int) or not 1 <= settings.max_turns <= 200:
            raise RuleViolation("settings", "max_turns must be a whole number from 1 to 200.")
        return settings

    def initial_state(self) -> LggwgState:
        return CountedState()

    def setup(self, settings: Any, seats: Sequence[SeatInfo], dice: Dice) -> tuple[Event, ...]:
        map_name = settings.map or DEFAULT_MAPS.get(len(seats), "")
        try:
            game_map = load_map(map_name)
        except MapError as exc:
            raise RuleViolation("settings", f"No map for {len(seats)} teams: {exc}.") from None
        if len(game_map.colours) != len(seats):
            raise RuleViolation(
                "settings", f"The map {map_name} is for {len(game_map.colours)} teams, not {len(seats)}."
            )
        seat_of = {c: s.number for c, s in zip(game_map.colours, seats, strict=True)}
        teams = tuple(Team(seat=seat_of[c], colour=c) for c in game_map.colours)
        counters: dict[str, int] = {}
        units = []
        for p in game_map.placements:
            counters[p.colour] = counters.get(p.colour, 0) + 1
            units.append(Unit(
                id=f"{p.colour}{counters[p.colour]}", team=seat_of.get(p.colour, 0), kind=p.kind,
                x=p.square[0], y=p.square[1], hp=p.hp, max_hp=p.hp, mines=UNITS[p.kind].mines,
            ))
        order = dice.shuffle("team order, turn 1", [t.seat for t in teams])
        return (
            ev.GameStarted(map_name, game_map.terrain, teams, tuple(units), settings.max_turns, game_map.flag_game),
            ev.TurnStarted(1, order),
        )

    # --- play ----------------------------------------------------------------------------

    def decide(self, state: LggwgState, command: Command, dice: Dice) -> tuple[Event, ...]:
        if state.phase is not Phase.ORDERS:
            raise RuleViolation("§3", "The game is not waiting for orders." if state.phase is Phase.SETUP
                                else "The game is over.")
        o = Outcome(state, dice)
        if isinstance(command, SubmitOrders):
            seat = command.actor.seat
            team = state.team(seat) if command.actor.kind is ActorKind.PLAYER and seat is not None else None
            if team is None:
                raise RuleViolation("§2", "Only a team in this game gives it orders.")
            if team.out:
                raise RuleViolation("§2", "Your team is out of the game.")
            self._within_bounds(state, team.seat)
            check_orders(state, team.seat, tuple(command.orders))
            self._submit(o, team.seat, tuple(command.orders))
        elif isinstance(command, ResolveAtDeadline):
            if command.actor.kind not in (ActorKind.REFEREE, ActorKind.SCHEDULER):
                raise RuleViolation("§3", "Only the referee resolves a turn at its deadline.")
            if command.turn != state.turn:
                raise RuleViolation("§3", f"That deadline was for turn {command.turn}; this is turn {state.turn}.")
            if command.policy not in self.deadline_policies:
                raise RuleViolation("§3", f"Deadline policies are {', '.join(self.deadline_policies)}.")
            for team in state.in_teams():
                if not team.submitted:
                    orders = (Order("hold"),) if command.policy == "hold" else self.bot_orders(o.state, team.seat, dice)
                    self._submit(o, team.seat, orders)
        else:
            raise RuleViolation("§2", f"{type(command).__name__} is not an LGGWG order.")
        return tuple(o.events)

    @staticmethod
    def bot_orders(state: LggwgState, seat: int, dice: Dice) -> tuple[Order, ...]:
        return bot.bot_orders(state, seat, dice)

    def _within_bounds(self, state: LggwgState, seat: int) -> None:
        check_list(state, seat)

    def _submit(self, o: Outcome, seat: int, orders: tuple[Order, ...]) -> None:
        first = not o.state.team(seat).submitted
        o.emit(ev.OrdersSubmitted(o.state.turn, seat, orders))
        if first:
            o.emit(ev.TeamSubmitted(o.state.turn, seat))
        if all(t.submitted for t in o.state.in_teams()):
            resolve(o)
            end_of_turn(o)

    def evolve(self, state: LggwgState, event: Event) -> LggwgState:
        return count(apply(state, event), event)

    # --- scheduling ---------------------------------------------------------------------------

    def to_act(self, state: LggwgState) -> frozenset[int]:
        if state.phase is not Phase.ORDERS:
            return frozenset()
        return frozenset(t.seat for t in state.in_teams() if not t.submitted)

    def is_finished(self, state: LggwgState) -> bool:
        return state.phase is Phase.OVER

    def scheduled_work(self, state: LggwgState) -> tuple[Work, ...]:
        waiting = self.to_act(state)
        if not waiting:
            return ()
        return (Work(key=("orders", state.turn), when="deadline", seats=tuple(sorted(waiting))),)

    def deadline_command(self, state: LggwgState, seats: tuple[int, ...], policy: str) -> Command:
        return ResolveAtDeadline(turn=state.turn, missed=tuple(sorted(seats)), policy=policy)

    def result(self, state: LggwgState) -> Result:
        return result(state)

    # --- visibility -------------------------------------------------------------------------------

    def view(self, state: LggwgState, viewer: Viewer) -> dict[str, Any]:
        return view_state(state, viewer)

    def view_event(self, event: Event, viewer: Viewer) -> dict[str, Any] | None:
        return redact_event(event, viewer)


RULESET = LggwgRuleset()


class LggwgRulesetV2(LggwgRuleset):
    """Games begun before version 3: a team may send any number of lists in a turn, and
    the position has no counts (so the snapshots these games wrote still load)."""

    version: ClassVar[str] = "2"
    state_type: ClassVar[type] = LggwgState

    def initial_state(self) -> LggwgState:
        return LggwgState()

    def evolve(self, state: LggwgState, event: Event) -> LggwgState:
        return apply(state, event)

    def _within_bounds(self, state: LggwgState, seat: int) -> None:
        return None


RULESET_V2 = LggwgRulesetV2()


class LggwgRulesetV1(LggwgRulesetV2):
    """Games begun before version 2: version 2's rules, with the first deadline bot."""

    version: ClassVar[str] = "1"

    @staticmethod
    def bot_orders(state: LggwgState, seat: int, dice: Dice) -> tuple[Order, ...]:
        return bot_v1.bot_orders(state, seat, dice)


RULESET_V1 = LggwgRulesetV1()
