"""The ruleset: ``decide`` dispatches each order to its topic module on a working copy
(``Outcome``); ``evolve`` is ``games.worms.evolve``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from games.base import (
    SCHEDULER,
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
from games.worms import bot, mapgen, signup
from games.worms import events as ev
from games.worms.commands import (
    COMMAND_TYPES,
    EndTurn,
    Fire,
    ModeratorCorrection,
    MoveWorm,
    SkipTurn,
    StartGame,
    StartTurn,
    Step,
    SubmitShoppingList,
    SubmitTurn,
    Surrender,
    UseUtility,
)
from games.worms.corrections import correct
from games.worms.environment import start_turn
from games.worms.evolve import apply
from games.worms.movement import move
from games.worms.outcome import Outcome
from games.worms.state import Phase, Settings, Stage, WormsState
from games.worms.turn import acting_seat, end_turn, finish, settle
from games.worms.utilities import use as use_utility
from games.worms.views import view as view_state
from games.worms.views import view_event as redact_event
from games.worms.weapons import fire


class WormsRuleset(Ruleset):
    name: ClassVar[str] = "worms"
    #: 2.1.1: a team boxed in with a weapon that can lower or clear what walls it in is not
    #: stuck (W-R10). Games of version 2.1 keep the old test, so they verify as played.
    version: ClassVar[str] = "2.1.1"
    #: whether a weapon that can open a way out keeps a team from being stuck (W-R10)
    digging: ClassVar[bool] = True
    title: ClassVar[str] = "Worms: Evolved v2.1"
    mode: ClassVar[TurnMode] = TurnMode.SEQUENTIAL
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 8
    command_types: ClassVar[tuple[type[Command], ...]] = COMMAND_TYPES
    event_types: ClassVar[tuple[type[Event], ...]] = ev.EVENT_TYPES
    state_type: ClassVar[type] = WormsState
    settings_type: ClassVar[type] = Settings
    records_rejections: ClassVar[bool] = True
    deadline_policies: ClassVar[tuple[str, ...]] = ("skip", "bot")
    whole_turn: ClassVar[tuple[str, str] | None] = ("SubmitTurn", "steps")
    #: §7 "each player will be given between 24-48 hours to PM his turn to me".
    turn_limits: ClassVar[TurnLimits] = TurnLimits(
        minimum=24 * 3600, maximum=48 * 3600, default=36 * 3600, unit="hours", rule="§7"
    )

    # --- set-up ------------------------------------------------------------------------

    def parse_settings(self, raw: Mapping[str, Any]) -> Settings:
        return signup.parse_settings(raw)

    def initial_state(self) -> WormsState:
        return WormsState()

    def setup(self, settings: Any, seats: Sequence[SeatInfo], dice: Dice) -> tuple[Event, ...]:
        teams = signup.make_teams(seats)
        return (ev.GameCreated(settings, teams, signup.points_for(len(teams))),)

    # --- play ----------------------------------------------------------------------------

    def decide(self, state: WormsState, command: Command, dice: Dice) -> tuple[Event, ...]:
        out = Outcome(state, dice)
        if isinstance(command, SubmitTurn):
            self._submit_turn(out, command)
        else:
            self._step(out, command)
        return tuple(out.events)

    def _step(self, out: Outcome, command: Command) -> None:
        if isinstance(command, StartGame | StartTurn | SkipTurn) and command.actor.kind is ActorKind.PLAYER:
            raise RuleViolation("§7", "Only the referee starts the game or a turn, or skips a turn.")
        if isinstance(command, SubmitShoppingList):
            self._shopping(out, command)
        elif isinstance(command, StartGame):
            self._start(out)
        elif isinstance(command, StartTurn):
            start_turn(out, command, digging=self.digging)
        elif isinstance(command, MoveWorm):
            move(out, command)
            finish(out)
        elif isinstance(command, Fire):
            fire(out, command)
            finish(out)
        elif isinstance(command, UseUtility):
            use_utility(out, command)
            finish(out)
        elif isinstance(command, EndTurn):
            acting_seat(out.state, command.actor)
            end_turn(out, "ended")
        elif isinstance(command, Surrender):
            self._surrender(out, command)
        elif isinstance(command, SkipTurn):
            self._skip(out, command)
        elif isinstance(command, ModeratorCorrection):
            correct(out, command)
        else:
            raise RuleViolation("order", f"{type(command).__name__} is not an order in Worms.")

    def _submit_turn(self, out: Outcome, command: SubmitTurn) -> None:
        """§7: check the steps one by one on a working copy; the first bad one rejects the
        whole turn with its reason (nothing is recorded); otherwise all apply at once.
        If the play itself ends the turn (a fall, a mine, a booby-trapped crate), the steps
        after it are void, as when the game master executed a post (ruling W-R14)."""
        if not command.steps:
            raise RuleViolation("§7", "The turn has no steps.")
        if out.state.stage is not Stage.ACTING:
            # Between turns the whole turn is refused with why (not this team's turn, or
            # its turn has not started yet), not as a step after an end (W-R14, W7.43-44).
            acting_seat(out.state, command.actor)
        turn = out.state.turn
        for number, step in enumerate(command.steps, start=1):
            if out.halted:
                return  # §11: a walk ran into an invisible worm; the rest is void (W-R43)
            if out.state.turn != turn or out.state.stage is not Stage.ACTING:
                if isinstance(command.steps[number - 2], EndTurn):
                    raise RuleViolation("§7", f"Step {number}: the turn is already over.")
                return
            bound: Step = replace(step, actor=command.actor, at_ms=command.at_ms)
            try:
                self._step(out, bound)
            except RuleViolation as exc:
                raise RuleViolation(exc.rule, f"Step {number}: {exc.message}") from None

    def _shopping(self, out: Outcome, command: SubmitShoppingList) -> None:
        state = out.state
        seat = command.actor.seat
        if state.phase is not Phase.SIGNUP or not state.teams:
            raise RuleViolation("§4", "Weapons can only be bought before the game starts.")
        if seat is None or state.team(seat) is None:
            raise RuleViolation("§4", "Only a player of this game can send a shopping list.")
        inventory = signup.check_shopping_list(command.team_weapon, command.items, state.points)
        out.emit(ev.ShoppingListAccepted(seat, inventory))

    def _start(self, out: Outcome) -> None:
        state = out.state
        if state.phase is not Phase.SIGNUP or not state.teams:
            raise RuleViolation("§4", "The game has already started.")
        missing = [t.seat for t in state.teams if t.seat not in {s.seat for s in state.shopping}]
        if missing:
            raise RuleViolation(
                "§4", f"Waiting for the shopping lists of seat(s) {', '.join(map(str, missing))}."
            )
        settings = state.settings
        per_team = signup.worms_per_team(settings, len(state.teams))
        needed = signup.free_land_needed(len(state.teams), per_team, settings)
        heights = mapgen.generate(out.dice, needed)
        out.emit(ev.MapGenerated(heights))
        worms, mines, drums = mapgen.place(
            out.dice, heights, state.teams, per_team, settings.mines, settings.drums, settings.health
        )
        out.emit(ev.ObjectsPlaced(worms, mines, drums))
        order = out.dice.shuffle("turn order", [t.seat for t in state.teams])
        out.emit(ev.TurnOrderDrawn(order))
        out.emit(ev.GameStarted(settings.sudden_death_after))

    def _surrender(self, out: Outcome, command: Surrender) -> None:
        state = out.state
        seat = command.actor.seat
        team = state.team(seat) if seat is not None else None
        if state.phase is not Phase.PLAYING or team is None or team.out:
            raise RuleViolation("§7", "Only a team still in the game can surrender.")
        out.emit(ev.TeamSurrendered(team.seat))
        for worm in state.worms_of(team.seat):
            out.emit(ev.WormDied(worm.id, "surrendered"))
        settle(out)
        now = out.state
        if now.phase is Phase.PLAYING and now.seat == team.seat and now.stage is Stage.ACTING:
            end_turn(out, "surrendered")

    def _skip(self, out: Outcome, command: SkipTurn) -> None:
        state = out.state
        if state.phase is not Phase.PLAYING or state.stage is not Stage.ACTING:
            raise RuleViolation("§7", "There is no turn being played to skip.")
        if command.turn != state.turn:
            raise RuleViolation("§7", f"Turn {command.turn} is over; turn {state.turn} is being played.")
        end_turn(out, "deadline")

    def evolve(self, state: WormsState, event: Event) -> WormsState:
        return apply(state, event)

    # --- scheduling --------------------------------------------------------------------

    def to_act(self, state: WormsState) -> frozenset[int]:
        if state.phase is Phase.SIGNUP:
            listed = {s.seat for s in state.shopping}
            return frozenset(t.seat for t in state.teams if t.seat not in listed)
        if state.phase is Phase.PLAYING and state.stage is Stage.ACTING and state.seat is not None:
            return frozenset({state.seat})
        return frozenset()

    def is_finished(self, state: WormsState) -> bool:
        return state.phase is Phase.FINISHED

    def demo_orders(self, state: WormsState, seat: int) -> tuple[Command, ...]:
        """Sign-up done for a demo: a sensible shopping list for each team (§6)."""
        if state.phase is not Phase.SIGNUP or seat not in self.to_act(state):
            return ()
        lists = (
            ("mad_cow", (("bazooka", 3), ("grenade", 3), ("mine", 2), ("dynamite", 1))),
            ("minigun", (("shotgun", 3), ("longbow", 2), ("dynamite", 2), ("mine", 2))),
        )
        team_weapon, items = lists[(seat - 1) % len(lists)]
        return (self.command_from_data("SubmitShoppingList", {
            "team_weapon": team_weapon, "items": [{"item": i, "count": n} for i, n in items]}),)

    def result(self, state: WormsState) -> Result:
        """One winner (the last team standing) or a draw; the other teams share second place."""
        seats = tuple(t.seat for t in state.teams)
        if state.phase is not Phase.FINISHED:
            return Result(finished=False)
        if state.draw or state.winner is None:
            return Result(finished=True, draw=True, ranking=(seats,) if seats else (), summary="A draw.")
        rest = tuple(s for s in seats if s != state.winner)
        return Result(finished=True, winners=(state.winner,),
                      ranking=((state.winner,), rest) if rest else ((state.winner,),))

    def scheduled_work(self, state: WormsState) -> tuple[Work, ...]:
        if state.phase is Phase.SIGNUP:
            if state.teams and not self.to_act(state):
                return (Work(key=("start",), when="now", command=StartGame(actor=SCHEDULER)),)
            return ()
        if state.phase is not Phase.PLAYING or state.seat is None:
            return ()
        if state.stage is Stage.STARTING:
            command = StartTurn(actor=SCHEDULER, turn=state.turn)
            return (Work(key=("turn", state.turn, "start"), when="now", command=command),)
        return (Work(key=("turn", state.turn, "deadline"), when="deadline", seats=(state.seat,)),)

    def deadline_command(self, state: WormsState, seats: tuple[int, ...], policy: str) -> Command:
        if policy == "bot" and state.seat is not None and state.seat in seats:
            return bot.plan(state, state.seat)
        if policy not in self.deadline_policies:
            raise RuleViolation(
                "deadline", f"Worms knows the deadline policies skip and bot, not {policy!r}."
            )
        return SkipTurn(actor=SCHEDULER, turn=state.turn)

    # --- visibility --------------------------------------------------------------------

    def view(self, state: WormsState, viewer: Viewer) -> dict[str, Any]:
        return view_state(state, viewer)

    def view_event(self, event: Event, viewer: Viewer) -> dict[str, Any] | None:
        if not viewer.may_see(self.event_audience(event)):
            return None
        return redact_event(event, self.event_to_data(event), viewer)


RULESET = WormsRuleset()


class WormsRulesetV2_1(WormsRuleset):
    """Games begun before version 2.1.1: a boxed-in team that could only blast its walls
    was stuck, and its turns were skipped."""

    version: ClassVar[str] = "2.1"
    digging: ClassVar[bool] = False


RULESET_V2_1 = WormsRulesetV2_1()
