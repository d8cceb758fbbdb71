"""An in-memory event store for fast unit tests of the referee. Same contract as the
Django store (tests/contract runs one suite against both)."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Sequence
from dataclasses import replace

from referee.errors import ConcurrencyError, GameNotFound
from referee.store.base import (
    EventStore,
    GameInfo,
    NewRecord,
    Snapshot,
    StoredRecord,
    key_scope,
    stamp,
)
from referee.store.hashing import GENESIS


class InMemoryEventStore(EventStore):
    def __init__(self) -> None:
        self._games: dict[str, GameInfo] = {}
        self._logs: dict[str, list[StoredRecord]] = {}
        self._snapshots: dict[str, dict[int, Snapshot]] = {}
        self._lock = threading.Lock()

    def create_game(self, info: GameInfo) -> None:
        self._games[info.id] = info
        self._logs[info.id] = []
        self._snapshots[info.id] = {}

    def get_game(self, game_id: str) -> GameInfo:
        try:
            return self._games[game_id]
        except KeyError:
            raise GameNotFound("There is no such game.", game=game_id) from None

    def update_game(self, game_id: str, *, status: str | None = None, frozen_reason: str | None = None) -> None:
        info = self.get_game(game_id)
        if status is not None:
            info = replace(info, status=status)
        if frozen_reason is not None:
            info = replace(info, frozen_reason=frozen_reason)
        self._games[game_id] = info

    def append(
        self, game_id: str, expected_seq: int, records: Sequence[NewRecord], now: dt.datetime,
        prev_hash: str | None = None, snapshot: Snapshot | None = None,
    ) -> list[StoredRecord]:
        self.get_game(game_id)
        with self._lock:
            log = self._logs[game_id]
            if expected_seq != len(log) + 1:
                raise ConcurrencyError(
                    "The game moved on while this order was being decided.",
                    expected=expected_seq, actual=len(log) + 1,
                )
            keys = {(r.idempotency_key, key_scope(r.actor_kind, r.actor_seat)) for r in log if r.idempotency_key}
            for r in records:
                if r.idempotency_key and (r.idempotency_key, key_scope(r.actor_kind, r.actor_seat)) in keys:
                    raise ConcurrencyError("That idempotency key was just used.", key=r.idempotency_key)
            prev = log[-1].hash if log else GENESIS
            if prev_hash is not None and prev_hash != prev:
                raise ConcurrencyError("The log is not where the order expected it.", expected=expected_seq)
            stored = stamp(game_id, expected_seq, prev, records, now)
            log.extend(stored)
        if snapshot is not None:
            self.save_snapshot(snapshot)
        return stored

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredRecord]:
        self.get_game(game_id)
        log = self._logs[game_id]
        return [r for r in log[after:] if upto is None or r.seq <= upto]

    def last_seq(self, game_id: str) -> int:
        self.get_game(game_id)
        return len(self._logs[game_id])

    def find_key(self, game_id: str, key: str, *, actor_kind: str, actor_seat: int | None) -> StoredRecord | None:
        scope = key_scope(actor_kind, actor_seat)
        return next((r for r in self._logs.get(game_id, ())
                     if r.idempotency_key == key and key_scope(r.actor_kind, r.actor_seat) == scope), None)

    def save_snapshot(self, snapshot: Snapshot) -> None:
        self._snapshots[snapshot.game_id].setdefault(snapshot.seq, snapshot)

    def latest_snapshot(self, game_id: str, upto: int | None = None) -> Snapshot | None:
        snaps = [s for s in self._snapshots.get(game_id, {}).values() if upto is None or s.seq <= upto]
        return max(snaps, key=lambda s: s.seq, default=None)

    def snapshots(self, game_id: str) -> list[Snapshot]:
        return sorted(self._snapshots.get(game_id, {}).values(), key=lambda s: s.seq)

    def drop_snapshot(self, game_id: str, seq: int) -> None:
        self._snapshots.get(game_id, {}).pop(seq, None)

    # test hook: what a tamperer with database access could do
    def tamper(self, game_id: str, seq: int, **changes: object) -> None:
        log = self._logs[game_id]
        log[seq - 1] = replace(log[seq - 1], **changes)
