"""One contract for every event store. Subclass it with ``make_store`` (see
tests/unit/referee/test_memory_store.py and tests/integration/test_django_store.py)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from referee.errors import ConcurrencyError, GameNotFound
from referee.store.base import EventStore, GameInfo, NewRecord, RecordKind, Snapshot
from referee.store.hashing import GENESIS

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)


def rec(type_: str = "Something", key: str | None = None, **payload: object) -> NewRecord:
    return NewRecord(kind=RecordKind.EVENT, type=type_, payload=dict(payload), idempotency_key=key)


class EventStoreContract:
    def make_store(self) -> EventStore:
        raise NotImplementedError

    @pytest.fixture
    def store(self) -> EventStore:
        return self.make_store()

    @pytest.fixture
    def game(self, store: EventStore) -> str:
        game_id = str(uuid.uuid4())
        store.create_game(GameInfo(game_id, "pig", "1", {"target": 30}, "ab" * 32))
        return game_id

    def test_a_new_log_is_empty(self, store, game):
        assert store.last_seq(game) == 0
        assert store.read(game) == []

    def test_appends_are_numbered_from_one_without_gaps(self, store, game):
        store.append(game, 1, [rec(n=1), rec(n=2)], NOW)
        store.append(game, 3, [rec(n=3)], NOW)
        assert [r.seq for r in store.read(game)] == [1, 2, 3]
        assert [r.payload["n"] for r in store.read(game)] == [1, 2, 3]
        assert store.last_seq(game) == 3

    def test_each_record_is_chained_to_its_predecessor(self, store, game):
        store.append(game, 1, [rec(n=1), rec(n=2)], NOW)
        first, second = store.read(game)
        assert first.prev_hash == GENESIS
        assert second.prev_hash == first.hash
        assert all(r.hash == r.computed_hash() for r in (first, second))

    def test_an_append_at_a_taken_position_raises_and_writes_nothing(self, store, game):
        store.append(game, 1, [rec(n=1)], NOW)
        with pytest.raises(ConcurrencyError):
            store.append(game, 1, [rec(n=99), rec(n=100)], NOW)
        assert [r.payload["n"] for r in store.read(game)] == [1]

    def test_an_append_that_would_leave_a_gap_raises(self, store, game):
        with pytest.raises(ConcurrencyError):
            store.append(game, 2, [rec()], NOW)
        assert store.last_seq(game) == 0

    def test_an_idempotency_key_is_unique_per_game(self, store, game):
        store.append(game, 1, [rec(key="k1")], NOW)
        with pytest.raises(ConcurrencyError):
            store.append(game, 2, [rec(key="k1")], NOW)
        assert store.last_seq(game) == 1
        assert store.find_key(game, "k1", actor_kind="referee", actor_seat=None).seq == 1
        assert store.find_key(game, "k2", actor_kind="referee", actor_seat=None) is None

    def test_a_players_key_is_its_seats_alone(self, store, game):
        seat = {1: NewRecord(kind=RecordKind.COMMAND, type="Roll", payload={}, actor_kind="player",
                             actor_seat=1, idempotency_key="k"),
                2: NewRecord(kind=RecordKind.COMMAND, type="Roll", payload={}, actor_kind="player",
                             actor_seat=2, idempotency_key="k")}
        store.append(game, 1, [seat[1]], NOW)
        store.append(game, 2, [seat[2]], NOW)
        with pytest.raises(ConcurrencyError):
            store.append(game, 3, [seat[2]], NOW)
        assert store.find_key(game, "k", actor_kind="player", actor_seat=1).seq == 1
        assert store.find_key(game, "k", actor_kind="player", actor_seat=2).seq == 2
        assert store.find_key(game, "k", actor_kind="player", actor_seat=3) is None
        assert store.find_key(game, "k", actor_kind="referee", actor_seat=None) is None

    def test_the_referee_the_scheduler_and_moderators_share_one_scope_of_keys(self, store, game):
        store.append(game, 1, [NewRecord(kind=RecordKind.COMMAND, type="StartTurn", payload={},
                                         actor_kind="scheduler", idempotency_key="turn:1")], NOW)
        for seq, (kind, seat) in enumerate((("referee", 2), ("moderator", None)), start=2):
            later = NewRecord(kind=RecordKind.COMMAND, type="Pass", payload={}, actor_kind=kind, actor_seat=seat,
                              idempotency_key="turn:1")
            with pytest.raises(ConcurrencyError):
                store.append(game, seq, [later], NOW)
            with pytest.raises(ConcurrencyError):  # behind a notice, as a deadline's order is
                store.append(game, seq, [rec("DeadlineExpired"), later], NOW)
            assert store.find_key(game, "turn:1", actor_kind=kind, actor_seat=seat).seq == 1
        assert store.last_seq(game) == 1

    def test_the_same_key_may_be_used_in_another_game(self, store, game):
        other = str(uuid.uuid4())
        store.create_game(GameInfo(other, "pig", "1", {}, "cd" * 32))
        store.append(game, 1, [rec(key="k")], NOW)
        store.append(other, 1, [rec(key="k")], NOW)
        assert store.find_key(other, "k", actor_kind="referee", actor_seat=None).game_id == other

    def test_read_between_positions(self, store, game):
        store.append(game, 1, [rec(n=i) for i in range(1, 6)], NOW)
        assert [r.seq for r in store.read(game, after=2, upto=4)] == [3, 4]

    def test_read_events_gives_the_event_records_as_a_fold_reads_them(self, store, game):
        order = NewRecord(kind=RecordKind.COMMAND, type="Roll", payload={"x": 1})
        rolled = NewRecord(kind=RecordKind.EVENT, type="DieRolled", payload={"seat": 2, "v": [3, "é"]},
                           schema_version=3, draws=({"purpose": "d", "low": 1, "high": 6, "value": 3},))
        notice = NewRecord(kind=RecordKind.NOTICE, type="Frozen", payload={})
        store.append(game, 1, [order, rolled, notice, rec(n=4), rec(n=5)], NOW)
        everything = [(r.seq, r.type, r.payload, r.schema_version) for r in store.read(game)
                      if r.kind is RecordKind.EVENT]
        assert store.read_events(game) == everything
        assert everything[0] == (2, "DieRolled", {"seat": 2, "v": [3, "é"]}, 3)
        assert [e[0] for e in store.read_events(game, after=2, upto=4)] == [4]
        assert store.read_events(game, upto=1) == []

    def test_iter_events_streams_what_read_events_gives(self, store, game):
        store.append(game, 1, [rec(n=i) for i in range(1, 8)], NOW)
        assert list(store.iter_events(game)) == store.read_events(game)
        assert list(store.iter_events(game, after=2, upto=5)) == store.read_events(game, after=2, upto=5)

    def test_a_stream_closed_half_way_leaves_the_store_usable(self, store, game):
        store.append(game, 1, [rec(n=i) for i in range(1, 8)], NOW)
        stream = store.iter_events(game)
        assert next(stream)[0] == 1
        stream.close()
        assert store.last_seq(game) == 7
        assert [r.seq for r in store.read(game, after=5)] == [6, 7]

    def test_records_read_back_keep_their_utc_time(self, store, game):
        (written,) = store.append(game, 1, [rec(n=1)], NOW)
        (read,) = store.read(game)
        assert read.created_at == written.created_at and read.created_at.utcoffset() == dt.timedelta(0)
        assert read.hash == read.computed_hash()

    def test_records_caused_by_a_command(self, store, game):
        command = NewRecord(kind=RecordKind.COMMAND, type="Roll", payload={})
        caused = NewRecord(kind=RecordKind.EVENT, type="DieRolled", payload={"v": 3}, cause_offset=0)
        store.append(game, 1, [command, caused], NOW)
        assert [r.seq for r in store.caused_by(game, 1)] == [2]

    def test_every_field_survives_the_round_trip(self, store, game):
        r = NewRecord(
            kind=RecordKind.COMMAND, type="Roll", payload={"nested": {"a": [1, 2]}, "s": "é"},
            audience_kind="seats", audience_seats=(2,), actor_kind="player", actor_seat=2,
            schema_version=3, idempotency_key="abc", draws=({"purpose": "d", "low": 1, "high": 6, "value": 4},),
        )
        (stored,) = store.append(game, 1, [r], NOW)
        (read,) = store.read(game)
        assert read == stored
        assert read.computed_hash() == read.hash

    def test_unknown_games_are_not_found(self, store):
        with pytest.raises(GameNotFound):
            store.get_game(str(uuid.uuid4()))

    def test_game_status_and_freeze_are_updated(self, store, game):
        store.update_game(game, status="active", frozen_reason="broken at 3")
        info = store.get_game(game)
        assert (info.status, info.frozen_reason) == ("active", "broken at 3")

    def test_latest_snapshot_at_or_before_a_position(self, store, game):
        store.append(game, 1, [rec(n=i) for i in range(10)], NOW)
        for seq in (3, 7):
            store.save_snapshot(Snapshot(game, seq, "1", {"at": seq}, f"h{seq}"))
        assert store.latest_snapshot(game).seq == 7
        assert store.latest_snapshot(game, upto=6).seq == 3
        assert store.latest_snapshot(game, upto=2) is None
        store.drop_snapshot(game, 7)
        assert [s.seq for s in store.snapshots(game)] == [3]

    def test_an_append_chained_to_the_hash_it_was_given(self, store, game):
        (first,) = store.append(game, 1, [rec(n=1)], NOW)
        (second,) = store.append(game, 2, [rec(n=2)], NOW, prev_hash=first.hash)
        assert second.prev_hash == first.hash and second.hash == second.computed_hash()

    def test_an_append_chained_to_a_stale_hash_raises_and_writes_nothing(self, store, game):
        store.append(game, 1, [rec(n=1)], NOW)
        with pytest.raises(ConcurrencyError):
            store.append(game, 2, [rec(n=2), rec(n=3)], NOW, prev_hash="f" * 64)
        assert store.last_seq(game) == 1

    def test_a_lost_race_leaves_the_store_usable_for_the_retry(self, store, game):
        store.append(game, 1, [rec(n=1), rec(n=2)], NOW)
        with pytest.raises(ConcurrencyError):
            store.append(game, 2, [rec(n=99)], NOW, prev_hash=store.read(game)[0].hash)
        retried = store.append(game, 3, [rec(n=3)], NOW, prev_hash=store.read(game)[-1].hash)
        assert [r.seq for r in retried] == [3]

    def test_a_used_key_in_a_later_record_of_an_append_raises(self, store, game):
        store.append(game, 1, [rec(key="k1")], NOW)
        with pytest.raises(ConcurrencyError):
            store.append(game, 2, [rec(n=2), rec(key="k1")], NOW)

    def test_load_gives_the_latest_snapshot_and_the_records_from_its_own(self, store, game):
        assert store.load(game).snapshot is None and store.load(game).records == []
        store.append(game, 1, [rec(n=i) for i in range(1, 9)], NOW)
        whole = store.load(game)
        assert whole.snapshot is None and [r.seq for r in whole.records] == list(range(1, 9))
        assert (whole.last_seq, whole.last_hash) == (8, store.read(game)[-1].hash)
        store.save_snapshot(Snapshot(game, 5, "1", {"at": 5}, "h5"))
        tail = store.load(game)
        assert tail.snapshot == Snapshot(game, 5, "1", {"at": 5}, "h5")
        assert [r.seq for r in tail.records] == [5, 6, 7, 8]
        assert [r.seq for r in store.load(game, upto=4).records] == [1, 2, 3, 4]
        assert store.load(game, upto=6).snapshot.seq == 5

    def test_a_snapshot_saved_twice_keeps_the_first(self, store, game):
        store.append(game, 1, [rec(n=1)], NOW)
        store.save_snapshot(Snapshot(game, 1, "1", {"v": 1}, "a"))
        store.save_snapshot(Snapshot(game, 1, "1", {"v": 2}, "b"))
        assert store.latest_snapshot(game).state == {"v": 1}
