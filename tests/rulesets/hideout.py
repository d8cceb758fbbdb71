"""Hideout: a tests-only ruleset whose orders carry a secret and which does nothing about
it, so that the referee's own visibility is what keeps it (a new ruleset inherits it).

Each seat hides a coin under one of nine cups (``Hide``). The cup is the seat's secret:
the seat is told (``CoinHidden``, private), everyone else only that it is ready
(``SeatReady``). The referee hides for a seat that missed its deadline, and a moderator
may move a seat's coin (``MoveCoin``); their orders name the cup just as a player's does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.base import (
    EVERYONE,
    ActorKind,
    Audience,
    Command,
    Event,
    Ruleset,
    RuleViolation,
    SeatInfo,
    TurnMode,
    Viewer,
    ViewerKind,
)
from games.dice import Dice

CUPS = range(1, 10)


@dataclass(frozen=True)
class HideoutSettings:
    pass


@dataclass(frozen=True)
class HideoutState:
    seats: tuple[int, ...] = ()
    cups: tuple[tuple[int, int], ...] = ()  # (seat, cup), the secrets

    def cup_of(self, seat: int) -> int | None:
        return dict(self.cups).get(seat)


@dataclass(frozen=True)
class Hide(Command):
    cup: int


@dataclass(frozen=True)
class MoveCoin(Command):
    given_by: ClassVar[str] = "moderator"
    seat: int
    cup: int


@dataclass(frozen=True)
class HideoutSetUp(Event):
    seats: tuple[int, ...]


@dataclass(frozen=True)
class CoinHidden(Event):
    seat: int
    cup: int

    def audience(self) -> Audience:
        return Audience.only(self.seat)


@dataclass(frozen=True)
class SeatReady(Event):
    seat: int

    def audience(self) -> Audience:
        return EVERYONE


class Hideout(Ruleset):
    name = "hideout"
    version = "1"
    title = "Hideout (secret orders test ruleset)"
    mode = TurnMode.SIMULTANEOUS
    min_seats = 2
    max_seats = 4
    command_types = (Hide, MoveCoin)
    event_types = (HideoutSetUp, CoinHidden, SeatReady)
    state_type = HideoutState
    settings_type = HideoutSettings
    deadline_policies = ("referee",)

    def parse_settings(self, raw: Mapping[str, Any]) -> HideoutSettings:
        return HideoutSettings()

    def initial_state(self) -> HideoutState:
        return HideoutState()

    def setup(self, settings: HideoutSettings, seats: Sequence[SeatInfo], dice: Dice) -> tuple[Event, ...]:
        return (HideoutSetUp(tuple(s.number for s in seats)),)

    def decide(self, state: HideoutState, command: Command, dice: Dice) -> tuple[Event, ...]:
        cup = getattr(command, "cup", 0)
        if cup not in CUPS:
            raise RuleViolation("cups", "There are nine cups, 1 to 9.")
        if isinstance(command, Hide):
            seat = command.actor.seat
            if seat not in state.seats or state.cup_of(seat) is not None:
                raise RuleViolation("hide", "Each seat hides its coin once.")
            return (CoinHidden(seat, cup), SeatReady(seat))
        if isinstance(command, MoveCoin):
            if command.actor.kind is not ActorKind.MODERATOR or state.cup_of(command.seat) is None:
                raise RuleViolation("moderation", "A moderator moves a coin that is hidden.")
            return (CoinHidden(command.seat, cup),)
        raise RuleViolation("order", f"Unknown order {type(command).__name__}.")

    def evolve(self, state: HideoutState, event: Event) -> HideoutState:
        if isinstance(event, HideoutSetUp):
            return replace(state, seats=event.seats)
        if isinstance(event, CoinHidden):
            return replace(state, cups=tuple(sorted({**dict(state.cups), event.seat: event.cup}.items())))
        return state

    def to_act(self, state: HideoutState) -> frozenset[int]:
        return frozenset(s for s in state.seats if state.cup_of(s) is None)

    def is_finished(self, state: HideoutState) -> bool:
        return False

    def deadline_command(self, state: HideoutState, seats: tuple[int, ...], policy: str) -> Command:
        return Hide(cup=1 + len(state.cups) % 9)

    def view(self, state: HideoutState, viewer: Viewer) -> dict[str, Any]:
        mine = viewer.seat if viewer.kind is ViewerKind.SEAT else None
        return {"ready": [s for s, _ in state.cups],
                "cups": [[s, c] for s, c in state.cups if viewer.kind is ViewerKind.MODERATOR or s == mine]}


RULESET = Hideout()
