"""Shared helpers for the Worms unit tests: a started game from seeded dice."""

from __future__ import annotations

from games.base import SCHEDULER, Actor, SeatInfo
from games.dice import SeededDice
from games.worms import RULESET
from games.worms.commands import StartGame, SubmitShoppingList
from games.worms.state import Settings, Stock, WormsState

SEED = "5eed" * 8


def new_game(players: int = 2, settings: Settings | None = None) -> WormsState:
    seats = [SeatInfo(n, f"player {n}") for n in range(1, players + 1)]
    events = RULESET.setup(settings or Settings(), seats, SeededDice(SEED, "test", 0))
    return RULESET.fold(RULESET.initial_state(), events)


def started_game(players: int = 2, game: str = "test") -> WormsState:
    state = new_game(players)
    for seat in range(1, players + 1):
        order = SubmitShoppingList(
            actor=Actor.player(seat), team_weapon="minigun", items=(Stock("bazooka", 2), Stock("parachute", 1))
        )
        state = RULESET.fold(state, RULESET.decide(state, order, SeededDice(SEED, game, seat)))
    events = RULESET.decide(state, StartGame(actor=SCHEDULER), SeededDice(SEED, game, 100))
    return RULESET.fold(state, events)


def random_square(rng, near: tuple[int, int] | None = None) -> str:
    """For fuzzing: usually a square next to ``near``, sometimes anywhere on the board."""
    from games.worms.board import COLUMNS, SIZE

    if near is not None and rng.random() < 0.8:
        x = min(SIZE - 1, max(0, near[0] + rng.choice((-1, 0, 1))))
        y = min(SIZE - 1, max(0, near[1] + rng.choice((-1, 0, 1))))
    else:
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
    return f"{COLUMNS[x]}{y + 1}"
