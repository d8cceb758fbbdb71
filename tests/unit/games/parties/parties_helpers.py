"""Shared helpers for the Parties tests."""

from __future__ import annotations

from typing import Any

from games.base import SCHEDULER, SeatInfo
from games.dice import SeededDice
from games.parties import RULESET
from games.parties.commands import StartTick
from games.parties.state import PartiesState

SEED = "5a" * 32


def started_game(seats: int, game: str = "g", **settings: Any) -> PartiesState:
    """A game set up with ``seats`` bots and its first tick started at time 0."""
    parsed = RULESET.parse_settings(settings)
    infos = [SeatInfo(n, f"bot {n}") for n in range(1, seats + 1)]
    state = RULESET.fold(RULESET.initial_state(), RULESET.setup(parsed, infos, SeededDice(SEED, game, 1)))
    start = StartTick(tick=1, actor=SCHEDULER, at_ms=0)
    return RULESET.fold(state, RULESET.decide(state, start, SeededDice(SEED, game, 2)))
