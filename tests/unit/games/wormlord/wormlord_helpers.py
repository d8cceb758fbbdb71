"""Shared helpers for the Wormlord tests: games set up, dice from a seeded generator, and a
driver that plays random orders at random arrival times."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from games.base import SCHEDULER, Actor, Command, Event, Registry, RuleViolation, SeatInfo
from games.dice import Dice, NoDice
from games.wormlord import RULESET, bot
from games.wormlord.board import SQUARES, Colour
from games.wormlord.commands import (
    Conquer,
    EndRound,
    Liberate,
    LiftHeadquarters,
    PlaceHeadquarters,
    Say,
    StartRound,
)
from games.wormlord.state import WormlordState
from referee.core import Referee
from referee.store.memory import InMemoryEventStore
from tests.fakes import FakeClock


class RandomDice(Dice):
    """Dice for bots in tests: a seeded generator (each draw still recorded)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def _next(self, purpose: str, low: int, high: int) -> int:
        return self.rng.randint(low, high)


def set_up(seats: int, **settings: Any) -> tuple[WormlordState, list[Event]]:
    infos = [SeatInfo(n, f"player {n}") for n in range(1, seats + 1)]
    events = list(RULESET.setup(RULESET.parse_settings(settings), infos, NoDice()))
    return RULESET.fold(RULESET.initial_state(), events), events


def garbage(rng: random.Random, seat: int, at_ms: int) -> Command:
    """Any order at all, legal or not: squares on and off the board, any colour."""
    actor = Actor.player(seat) if rng.random() < 0.9 else SCHEDULER
    square = rng.choice([*SQUARES, "h8", "a0", ""])
    return rng.choice([
        Conquer(actor=actor, at_ms=at_ms, square=square),
        Liberate(actor=actor, at_ms=at_ms, square=square, owner=rng.choice(list(Colour))),
        PlaceHeadquarters(actor=actor, at_ms=at_ms, square=square),
        LiftHeadquarters(actor=actor, at_ms=at_ms),
        Say(actor=actor, at_ms=at_ms, text=rng.choice(["", "go", "x" * 600])),
        StartRound(actor=actor, at_ms=at_ms, round=rng.randint(0, 4)),
        EndRound(actor=actor, at_ms=at_ms, round=rng.randint(0, 4)),
    ])


@dataclass
class Played:
    state: WormlordState
    events: list[Event] = field(default_factory=list)
    accepted: int = 0
    refused: int = 0
    #: the position after each accepted order
    states: list[WormlordState] = field(default_factory=list)


def play_random(seed: int, seats: int, steps: int, **settings: Any) -> Played:
    """Bots and garbage from random seats at random arrival times; the scheduler runs its
    work when due. Refusals are fine; anything else raised is a bug."""
    rng = random.Random(seed)
    state, events = set_up(seats, **settings)
    played = Played(state, events)
    now = 0
    for _ in range(steps):
        now += rng.choice([0, 0, 1, 50, 400, 1500, 4000])
        for work in RULESET.scheduled_work(played.state):
            if work.command is not None and (work.when == "now" or (work.at_ms or 0) <= now):
                _apply(played, replace(work.command, at_ms=now))
        if RULESET.is_finished(played.state):
            break
        seat = rng.randint(1, seats)
        command = bot.choose(played.state, seat, RandomDice(rng), now) if rng.random() < 0.75 else None
        _apply(played, command or garbage(rng, seat, now))
    return played


def _apply(played: Played, command: Command) -> None:
    try:
        events = RULESET.decide(played.state, command, NoDice())
    except RuleViolation:
        played.refused += 1
        return
    played.accepted += 1
    played.events.extend(events)
    played.state = RULESET.fold(played.state, events)
    played.states.append(played.state)


def make_referee(clock: FakeClock) -> Referee:
    return Referee(InMemoryEventStore(), Registry().register(RULESET), clock, snapshot_every=25, backoff=lambda a: None)
