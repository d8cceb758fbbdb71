from __future__ import annotations

import pytest

from games.base import SeatInfo
from games.registry import default_registry
from referee.core import Referee
from referee.store.memory import InMemoryEventStore
from tests.fakes import FakeClock
from tests.rulesets.pig import RULESET as PIG


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store() -> InMemoryEventStore:
    return InMemoryEventStore()


@pytest.fixture
def referee(store, clock) -> Referee:
    return Referee(store, default_registry().register(PIG), clock, snapshot_every=5, backoff=lambda attempt: None)


@pytest.fixture
def game(referee) -> str:
    """A started two-seat Pig game whose first turn has begun."""
    info = referee.create_game(ruleset="pig", settings={"target": 20}, seed="11" * 32)
    referee.start_game(info.id, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob")])
    referee.run_due(info.id, "turn:0:start")
    return info.id


def first_player(referee: Referee, game: str) -> int:
    state, _ = referee.current(game)
    return state.order[state.to_move]
