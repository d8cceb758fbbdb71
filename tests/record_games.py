"""Whole games of every shipped ruleset played through the referee core, on any event store:
the scheduler's work runs when due, a deadline is played by the referee as the scheduler
plays it (the ruleset's deadline order for every seat still to act), real-time seats by
their bot. Used by the record tests (offline verification, export, import)."""

from __future__ import annotations

import random
from typing import Any

from games.base import REFEREE, Actor, ActorKind, SeatInfo, work_key_text
from referee.core import Referee
from tests.fakes import FakeClock

#: Per ruleset: settings that end a game in a few dozen orders, seats, deadline policy.
GAMES: dict[str, tuple[dict[str, Any], int, str]] = {
    "worms": ({"mines": 2, "drums": 1}, 2, "bot"),
    "lggwg": ({"max_turns": 3}, 2, "bot"),
    "parties": ({"max_ticks": 4, "width": 8, "height": 6}, 3, "stay"),
    "wormlord": ({"knot_interval_ms": 1000, "untie_ms": 200, "break_ms": 2000}, 3, "none"),
}


def start(referee: Referee, ruleset: str, game_id: str, seed: str = "5e" * 32) -> str:
    settings, seats, _ = GAMES[ruleset]
    info = referee.create_game(ruleset=ruleset, settings=settings, seed=seed, game_id=game_id)
    referee.start_game(info.id, [SeatInfo(n, f"p{n}") for n in range(1, seats + 1)])
    return info.id


def step(referee: Referee, game: str, clock: FakeClock, rng: random.Random, *, surrender_at: int = 6) -> bool:
    """Play what is due next; False once the game is over."""
    info = referee.store.get_game(game)
    rules = referee.ruleset_for(info)
    state, last = referee.current(game)
    if rules.is_finished(state):
        return False
    policy = GAMES[info.ruleset][2]
    if info.ruleset == "worms" and last > surrender_at * 10 and state.seat is not None:
        referee.handle(game, command_type="Surrender", payload={}, actor=Actor.player(state.seat))
        return True
    if info.ruleset == "wormlord":
        from games.wormlord import bot
        from tests.unit.games.wormlord.wormlord_helpers import RandomDice

        for work in rules.scheduled_work(state):  # as its own tests play it: work, every seat, time
            if work.when == "now" or (work.at_ms or 0) <= clock.ms:
                referee.run_due(game, work_key_text(work.key))
        for seat in rng.sample(state.seats(), len(state.seats())):
            state, _ = referee.current(game)
            command = bot.choose(state, seat, RandomDice(rng), clock.ms)
            if command is not None:
                body = {k: v for k, v in rules.command_to_data(command).items() if k not in ("actor", "at_ms")}
                referee.handle(game, command_type=type(command).__name__, payload=body, actor=Actor.player(seat))
        clock.advance(rng.randint(1, 700))
        return True
    for work in rules.scheduled_work(state):
        key = work_key_text(work.key)
        if work.when == "now" or (work.when == "at" and (work.at_ms or 0) <= clock.ms):
            referee.run_due(game, key)
            return True
        if work.when == "deadline":
            seats = tuple(sorted(set(work.seats) & set(rules.to_act(state)))) or tuple(work.seats)
            command = rules.deadline_command(state, seats, policy)
            actor = Actor(ActorKind.REFEREE, seats[0]) if len(seats) == 1 else REFEREE
            referee.handle(game, command_type=type(command).__name__, payload=rules.command_to_data(command),
                           actor=actor, idempotency_key=key)
            return True
    if not any(w.when == "at" for w in rules.scheduled_work(state)):
        demo = [(seat, c) for seat in sorted(rules.to_act(state)) for c in rules.demo_orders(state, seat)]
        for seat, command in demo:  # a phase without a deadline: Worms' shopping lists
            body = {k: v for k, v in rules.command_to_data(command).items() if k not in ("actor", "at_ms")}
            referee.handle(game, command_type=type(command).__name__, payload=body, actor=Actor.player(seat))
        if demo:
            return True
    clock.advance(rng.randint(100, 1500))
    return True


def play_out(referee: Referee, game: str, clock: FakeClock, *, limit: int = 5000) -> None:
    rng = random.Random(game)
    for _ in range(limit):
        if not step(referee, game, clock, rng):
            return
    raise AssertionError(f"{game} did not finish in {limit} steps")
