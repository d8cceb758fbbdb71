"""A game recorded before record version 2 still verifies, replays and shows each seat
only its own secrets: the stored log is never rewritten, old records are read through the
record upcaster."""

from __future__ import annotations

from games.base import Viewer
from games.registry import default_registry
from referee.core import Referee
from referee.store.base import NewRecord, RecordKind
from referee.store.memory import InMemoryEventStore
from tests.fixtures import recorded_game


def _loaded() -> tuple[Referee, str]:
    info, records = recorded_game("worms_game_v1.json")
    store = InMemoryEventStore()
    store.create_game(info)
    store._logs[info.id].extend(records)
    return Referee(store, default_registry()), info.id


def test_a_version_one_log_verifies_unchanged():
    referee, game = _loaded()
    assert all(r.record_version == 1 for r in referee.store.read(game))
    report = referee.verify(game)
    assert report.ok, report.problems


def test_version_one_seat_records_are_read_as_a_set_of_one():
    referee, game = _loaded()
    seat_records = [r for r in referee.store.read(game) if r.audience_kind == "seat"]
    assert seat_records
    assert {r.audience for r in seat_records} <= {("seats", (1,)), ("seats", (2,))}


def test_each_seat_sees_its_own_old_secrets_and_not_the_others():
    referee, game = _loaded()
    mine = {r["seq"] for r in referee.feed(game, Viewer.for_seat(1)) if r["audience"] == "seats"}
    theirs = {r["seq"] for r in referee.feed(game, Viewer.for_seat(2)) if r["audience"] == "seats"}
    assert mine and theirs
    public = [r for r in referee.feed(game, Viewer()) if r["audience"] == "seats"]
    assert public and all(r.get("redacted") and r["payload"] == {} for r in public)


def test_a_new_record_after_an_old_log_chains_on_with_version_two():
    referee, game = _loaded()
    last = referee.store.last_seq(game)
    note = NewRecord(kind=RecordKind.NOTICE, type="ModeratorNote", payload={"reason": "audit"},
                     audience_kind="seats", audience_seats=(2, 1))
    (stored,) = referee.store.append(game, last + 1, [note], referee.clock())
    assert stored.record_version == 2 and stored.audience == ("seats", (1, 2))
    assert stored.prev_hash == referee.store.read(game, after=last - 1, upto=last)[0].hash
    assert referee.verify(game).ok


def test_the_recorded_game_has_a_result():
    referee, game = _loaded()
    state, _ = referee.current(game)
    result = referee.ruleset_for(referee.store.get_game(game)).result(state)
    assert result.finished and len(result.winners) == 1
