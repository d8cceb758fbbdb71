"""A replay folds the log as it arrives: it never holds the whole log, and it closes the
store's stream whether it finishes or stops at a record it cannot read."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import pytest

from games.registry import default_registry
from referee.core import Referee
from referee.errors import LogCorrupt
from referee.store.base import LoggedEvent
from referee.store.memory import InMemoryEventStore
from tests.rulesets.pig import Pig
from tests.unit.referee.conftest import FakeClock
from tests.unit.referee.test_referee import play_until_finished


@dataclass
class Trace:
    read: int = 0  # events the store has handed out
    folded: int = 0  # events the ruleset has folded
    most_ahead: int = 0  # the most events handed out and not yet folded
    closed: bool = False


class StreamingStore(InMemoryEventStore):
    """An in-memory store whose ``iter_events`` counts what it hands out; ``read_events``
    (the whole log as a list) is refused, so a replay that used it would fail."""

    def __init__(self, trace: Trace) -> None:
        super().__init__()
        self.trace = trace
        self.replaying = False

    def read_events(self, game_id: str, after: int = 0, upto: int | None = None) -> list[LoggedEvent]:
        assert not self.replaying, "a replay must not read the whole log at once"
        return super().read_events(game_id, after=after, upto=upto)

    def iter_events(
        self, game_id: str, after: int = 0, upto: int | None = None
    ) -> Generator[LoggedEvent, None, None]:
        events = super().read_events(game_id, after=after, upto=upto)
        self.replaying = True
        try:
            for event in events:
                self.trace.read += 1
                self.trace.most_ahead = max(self.trace.most_ahead, self.trace.read - self.trace.folded)
                yield event
        finally:
            self.replaying = False
            self.trace.closed = True


class CountingPig(Pig):
    def __init__(self, trace: Trace) -> None:
        self.trace = trace

    def evolve(self, state: Any, event: Any) -> Any:
        self.trace.folded += 1
        return super().evolve(state, event)


@pytest.fixture
def trace() -> Trace:
    return Trace()


@pytest.fixture
def referee(trace: Trace) -> Referee:
    return Referee(StreamingStore(trace), default_registry().register(CountingPig(trace)), FakeClock(),
                   snapshot_every=5, backoff=lambda attempt: None)


@pytest.fixture
def game(referee: Referee) -> str:
    from games.base import SeatInfo

    info = referee.create_game(ruleset="pig", settings={"target": 20}, seed="11" * 32)
    referee.start_game(info.id, [SeatInfo(1, "Ann"), SeatInfo(2, "Bob")])
    referee.run_due(info.id, "turn:0:start")
    play_until_finished(referee, info.id)
    return info.id


def test_replay_folds_each_event_before_the_next_is_read(referee, trace, game):
    live, _ = referee.current(game)
    trace.read = trace.folded = trace.most_ahead = 0
    assert referee.replay(game) == live
    assert trace.read == trace.folded > 10
    assert trace.most_ahead == 1
    assert trace.closed


def test_replay_closes_the_stream_at_a_record_it_cannot_read(referee, trace, game):
    store = referee.store
    bad = [r for r in store.read(game) if r.kind == "event"][3]
    store.tamper(game, bad.seq, payload={"nonsense": True})
    trace.closed = False
    with pytest.raises(LogCorrupt, match=f"Record {bad.seq}"):
        referee.replay(game)
    assert trace.closed
    assert not store.replaying
